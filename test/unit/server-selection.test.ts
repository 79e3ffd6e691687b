// One server of a merged log (`--server`): its requests, its Engine lines, the model its start-up
// lines name and its findings, as its own log gives them; the others' counted and said left out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LogStreamParser } from '../../server/core/log';
import { StreamAnalysis } from '../../server/core/analysis/streamAnalysis';
import { requestScopeWords } from '../../server/core/analysis/requestScope';
import { noServerRequestYetText, serverNoteOf, unknownServerProblem } from '../../server/core/analysis/serverWords';
import { runNameText } from '../../server/core/compare/format';
import type { AnalyzedRequest } from '../../server/core/analysis/types';
import { FIXTURES, utf8 } from './support/logHelpers';

const SAMPLE = readFileSync(join(FIXTURES, '..', '..', 'samples', 'qwen3-tts-first-audio-cold-start.log'), 'utf8')
  .split('\n')
  .filter((l) => l !== '');
/** The second server runs twice as many requests at every Engine line, under other request ids. */
const busier = (l: string): string =>
  l
    .replace(/Running: (\d+) reqs/, (_m, n: string) => `Running: ${Number(n) * 2} reqs`)
    .replaceAll('speech-', 'speechB-');

function analysed(text: string, server?: string): StreamAnalysis {
  const analysis = new StreamAnalysis(server === undefined ? {} : { server });
  const parser = new LogStreamParser();
  analysis.ingest(parser.push(utf8(text)));
  analysis.ingest(parser.end());
  analysis.flush();
  return analysis;
}

/** What of a request the log gives, its place in the log and its server left out. */
function measured(r: AnalyzedRequest): unknown {
  return JSON.parse(
    JSON.stringify(r, (key, value: unknown) =>
      key === 'line' || key === 'process' || key === 'source' || key === 'server' ? undefined : value,
    ),
  );
}

const merged = (): string => {
  const out: string[] = [];
  for (const l of SAMPLE) out.push(`[pod/vllm-a-0/vllm] ${l}`, `[pod/vllm-b-0/vllm] ${busier(l)}`);
  return `${out.join('\n')}\n`;
};

test("a server selected of a merged log: its requests, Engine lines and model, each its own log's", () => {
  const one = analysed(merged(), 'pod/vllm-b-0/vllm');
  const alone = analysed(`${SAMPLE.map(busier).join('\n')}\n`);
  const requests = [...one.snapshot().requests];
  assert.ok(requests.length > 20);
  assert.ok(requests.every((r) => r.server === 'pod/vllm-b-0/vllm'));
  assert.deepEqual(requests.map(measured), [...alone.snapshot().requests].map(measured));
  const series = one.snapshot().engineSeries;
  const own = alone.snapshot().engineSeries;
  assert.ok(own.length > 0);
  assert.deepEqual(
    series.map((e) => ({ server: e.server, engine: e.engine, running: e.running, times: e.times })),
    own.map((e) => ({ server: 'pod/vllm-b-0/vllm', engine: e.engine, running: e.running, times: e.times })),
  );
  assert.equal(one.servedModel(), 'Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice');
  assert.deepEqual(one.snapshot().endToEnd, alone.snapshot().endToEnd);
  // One server in the report: no per-server figures, no slow-server.
  assert.deepEqual(
    one.snapshot().servers?.map((s) => s.server),
    ['pod/vllm-b-0/vllm'],
  );
  assert.ok(!one.snapshot().findings.some((f) => f.code === 'slow-server'));
  const counts = one.serverCounts();
  assert.deepEqual(counts, {
    server: 'pod/vllm-b-0/vllm',
    outside: requests.length,
    servers: [
      { server: 'pod/vllm-a-0/vllm', requests: requests.length },
      { server: 'pod/vllm-b-0/vllm', requests: requests.length },
    ],
    untagged: 0,
  });
  assert.equal(
    serverNoteOf(counts),
    `Server pod/vllm-b-0/vllm: the requests of that server only; ${requests.length} requests of pod/vllm-a-0/vllm left out.`,
  );
  // The whole log's cold starts are said of the server selected.
  const cold = one.snapshot().findings.find((f) => f.code === 'cold-start');
  assert.match(cold?.message ?? '', /in server pod\/vllm-b-0\/vllm/);
  // Without a selection: no counts.
  assert.equal(analysed(merged()).serverCounts(), null);
});

test('a server the log lacks, untagged requests, and a scope in words', () => {
  const counts = {
    server: 'omni-vllm-3',
    outside: 9,
    servers: [
      { server: 'omni-vllm-1', requests: 6 },
      { server: 'omni-vllm-2', requests: 1 },
    ],
    untagged: 2,
  };
  assert.equal(
    unknownServerProblem(counts),
    "the log has no request of server 'omni-vllm-3': its servers are omni-vllm-1 (6 requests) and omni-vllm-2 (1 request); give the name as listed",
  );
  assert.equal(serverNoteOf(counts), null);
  assert.equal(
    serverNoteOf({ ...counts, server: 'omni-vllm-2', outside: 8 }),
    "Server omni-vllm-2: the requests of that server only; 6 requests of omni-vllm-1 left out. 2 requests of lines with no server's tag left out.",
  );
  assert.match(
    unknownServerProblem({ server: 'x', outside: 3, servers: [], untagged: 3 }) ?? '',
    /^the log has no request of server 'x': no line of it carries a server's tag/,
  );
  assert.equal(
    noServerRequestYetText(counts),
    "No request of server omni-vllm-3 yet: the log's servers so far are omni-vllm-1 (6 requests) and omni-vllm-2 (1 request).",
  );
  assert.equal(
    noServerRequestYetText({ server: 'x', outside: 3, servers: [], untagged: 3 }),
    "No request of server x yet: none of its lines so far carries a server's tag.",
  );
  assert.equal(requestScopeWords({ server: 'omni-vllm-2' }), 'server omni-vllm-2');
  assert.equal(
    requestScopeWords({ server: 'omni-vllm-2', boot: 2, window: true, excludeCold: true }),
    'the window of boot 2 of server omni-vllm-2 (cold starts left out)',
  );
  assert.equal(requestScopeWords({ boot: 2 }), 'boot 2');
});

test("a compared run's name says the boot and the server read", () => {
  assert.equal(runNameText('merged.log', undefined, 'omni-vllm-2'), 'merged.log (server omni-vllm-2)');
  assert.equal(
    runNameText('merged.log.1.gz (gzip)', 2, 'omni-vllm-2'),
    'merged.log.1.gz (gzip, boot 2, server omni-vllm-2)',
  );
  assert.equal(runNameText('server.log', 2), 'server.log (boot 2)');
  assert.equal(runNameText('server.log', undefined), 'server.log');
});
