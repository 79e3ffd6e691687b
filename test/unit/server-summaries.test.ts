// End to end per server, for a log that merges several servers': each server's requests and their
// own end-to-end times, a server whose requests printed none shown without numbers (not 0 ms).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ServerSummaries,
  SLOW_SERVER_MIN_REQUESTS,
  slowServerFinding,
} from '../../server/core/analysis/serverSummaries';
import { serverLines } from '../../server/core/report/serverTable';
import { endToEndOf } from '../../server/core/analysis/endToEnd';
import type { AnalyzedRequest, Finding } from '../../server/core/analysis/types';
import { durationText } from '../../server/core/numberText';
import { analysedLog, analysedStream } from './support/analysedLog';
import { FIXTURES } from './support/logHelpers';

test("each server's requests and end to end; a server without end-to-end times has no numbers", () => {
  const analysis = analysedStream(join(FIXTURES, 'logs', 'merged-kubectl-two-servers-restart.log'));
  const requests = [...analysis.requests];
  const summaries = new ServerSummaries();
  for (const r of requests) summaries.add(r);
  const first = requests[0] as AnalyzedRequest;
  // A request of a log of one server names none, and is not counted.
  const { server: _server, ...unnamed } = first;
  summaries.add(unnamed);
  // A third server whose one request printed no end-to-end time.
  const untimed: AnalyzedRequest = { ...first, server: 'pod/vllm-omni-2/vllm', e2e: {}, timing: null };
  assert.equal(endToEndOf(untimed), null);
  summaries.add(untimed);
  const summary = summaries.summary();
  const e2eOf = (server: string): number[] =>
    requests
      .filter((r) => r.server === server)
      .map((r) => endToEndOf(r)?.ms ?? NaN)
      .sort((a, b) => a - b);
  assert.deepEqual(
    summary?.map((s) => [s.server, s.requests, s.e2eMs?.count ?? null, s.e2eMs?.max ?? null]),
    [
      ['pod/vllm-omni-0/vllm', 6, 6, e2eOf('pod/vllm-omni-0/vllm').at(-1)],
      ['pod/vllm-omni-1/vllm', 6, 6, e2eOf('pod/vllm-omni-1/vllm').at(-1)],
      ['pod/vllm-omni-2/vllm', 1, null, null],
    ],
  );
  const lines = serverLines(summary ?? null);
  assert.match(lines[0] ?? '', /^End to end per server, ms \(this log merges 3 servers' lines/);
  assert.match(lines.at(-1) ?? '', /^pod\/vllm-omni-2\/vllm +1 +0 +- +- +- +-$/);
  assert.deepEqual(serverLines(null), []);
  // One server, tagged: the whole is its own.
  assert.deepEqual(serverLines(summary?.slice(0, 1) ?? null), []);
  assert.equal(new ServerSummaries().summary(), null);
});

/** The sample log's lines, its e2e_total_ms cells times `factor` (as the server formats them), its ids renamed by `id`. */
function sampleLines(factor: number, id: string): string[] {
  const text = readFileSync(join(FIXTURES, '..', '..', 'samples', 'qwen3-tts-first-audio-cold-start.log'), 'utf8');
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) =>
      l
        .replaceAll('speech-', id)
        .replace(/(\| e2e_total_ms +\| )([\d,]+\.\d{3})( \|)/, (_m, before: string, value: string, after: string) => {
          const scaled = Number(value.replaceAll(',', '')) * factor;
          return `${before}${scaled.toLocaleString('en-US', { minimumFractionDigits: 3, maximumFractionDigits: 3 })}${after}`;
        }),
    );
}

function mergedFindings(slowFactor: number): Finding[] {
  const a = sampleLines(1, 'speech-');
  const b = sampleLines(slowFactor, 'speechB-');
  const out: string[] = [];
  for (let i = 0; i < a.length; i++) out.push(`omni-vllm-1  | ${a[i] as string}`, `omni-vllm-2  | ${b[i] as string}`);
  return analysedLog(Buffer.from(`${out.join('\n')}\n`)).findings.filter((f) => f.code === 'slow-server');
}

test('slow-server: a server whose median end to end is 1.5x the others or more is named, with both figures', () => {
  const [finding, ...more] = mergedFindings(3);
  assert.equal(more.length, 0);
  assert.equal(finding?.severity, 'warning');
  const alone = analysedLog(Buffer.from(`${sampleLines(1, 'speech-').join('\n')}\n`)).endToEnd?.ms;
  assert.ok(alone !== undefined && alone.count >= SLOW_SERVER_MIN_REQUESTS);
  assert.match(
    finding?.message ?? '',
    new RegExp(
      `^Of the 2 servers this log merges, omni-vllm-2 takes 1\\.5x the others' median end to end or more: omni-vllm-2 p50 ${durationText(3 * alone.p50).replace('.', '\\.')}, .* \\(25 requests\\), against omni-vllm-1 p50 ${durationText(alone.p50).replace('.', '\\.')}, `,
    ),
  );
  // How to read the slow one alone.
  assert.match(finding?.message ?? '', /\(stage-lens analyze --server omni-vllm-2; explain takes --server too\)/);
  // Alike servers, or a little slower: nothing to say.
  assert.deepEqual(mergedFindings(1), []);
  assert.deepEqual(mergedFindings(1.4), []);
  // Too few requests on a server to tell.
  assert.equal(
    slowServerFinding([
      { server: 'a', requests: 19, e2eMs: { count: 19, mean: 1, p50: 1, p90: 1, p99: 1, max: 1 } },
      { server: 'b', requests: 30, e2eMs: { count: 30, mean: 9, p50: 9, p90: 9, p99: 9, max: 9 } },
    ]),
    null,
  );
});
