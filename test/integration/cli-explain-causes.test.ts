// `stage-lens explain` names the known causes of a tail its parts do not name, as a user runs
// it (the built dist/cli.js as a real child process): cold requests in the tail, a downstream
// TTFT that holds a wait upstream (in the residual), and a part a fold would have hidden.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { cliStdout } from './support/cliProcess';
import type { ExplainReport } from '../../server/core/explain/explainReport';
import type { TailAttribution } from '../../server/core/explain/types';

const ROOT = path.resolve(__dirname, '..', '..');
/** `simulate --scenario cold-start --cold-start-ms 30000 --requests 12 --seed 7 --fixed-clock` at DEBUG. */
const COLD = path.join(ROOT, 'test', 'fixtures', 'sim', 'cold-start-30s.log');
const AFTER_FIX = path.join(ROOT, 'test', 'fixtures', 'upstream-rendered', 'qwen3tts-talker-first-audio-after-fix.log');
const COLD_SAMPLE = path.join(ROOT, 'samples', 'qwen3-tts-first-audio-cold-start.log');

const explain = (args: readonly string[]): string => cliStdout(['explain', ...args]);

const tailOf = (args: string[]): TailAttribution => {
  const report = JSON.parse(explain([...args, '--format', 'json'])) as ExplainReport;
  assert.equal(report.tail.length, 1);
  return report.tail[0] as TailAttribution;
};

/** The lines of the tail block that starts with `headline` (up to the blank line after it). */
function block(text: string, headline: RegExp): string[] {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => headline.test(l));
  assert.ok(start >= 0, `no ${headline} in:\n${text}`);
  const end = lines.indexOf('', start);
  return lines.slice(start, end);
}

test('a tail made by a cold request says so, with the count in the JSON and the way to leave it out', () => {
  const args = [COLD, '--target', 'stage1.firstOutput', '--quantile', 'p90'];
  // The log serves Qwen3-TTS (its start-up args say so): stage 1 is its codec, the target first audio.
  const lines = block(explain(args), /^Why time to first audio \(stage 1 · code2wav\) is slow at p90/);
  // 2 of 12 at or above the p90; the first request after the boot waited 30 s for the JIT build.
  assert.equal(
    lines[0],
    'Why time to first audio (stage 1 · code2wav) is slow at p90: 2 of 12 requests at or above 98.2 ms, on average 14.5 s above the median 79.9 ms',
  );
  assert.ok(
    lines.includes(
      '  (cold start: 1 of 2 tail requests is cold (the first after a server boot), bringing +14.5 s of the +14.5 s excess (100%): this tail is mostly cold start, not steady-state serving; --exclude-cold leaves the first request after each server boot out)',
    ),
    lines.join('\n'),
  );
  const t = tailOf(args);
  assert.equal(t.coldRequests, 1);
  assert.ok(Math.abs((t.coldExcessMs ?? 0) - 14462.84) < 0.01, String(t.coldExcessMs));
  assert.ok(Math.abs(t.excessMs - 14472.17) < 0.01, String(t.excessMs));

  // Cold requests left out: none in the tail, nothing said.
  const warm = [...args, '--exclude-cold'];
  assert.equal(tailOf(warm).coldRequests, 0);
  assert.doesNotMatch(explain(warm), /cold start:/);
});

test("a downstream TTFT's residual that holds the wait upstream names it and the target that measures it", () => {
  const args = [AFTER_FIX, '--target', 'stage1.ttft', '--quantile', 'p99'];
  const lines = block(explain(args), /^Why stage 1 TTFT \(code2wav\) is slow at p99/);
  assert.ok(lines.includes('  residual                     +3.25 s     84%'), lines.join('\n'));
  assert.ok(
    lines.includes(
      "  (the positive residual: in the tail request, stage 1 · code2wav's TTFT includes a wait for upstream output (finding ttft-includes-upstream-wait; +3.25 s on average over the tail): it runs to the first output handled, which waited for the stages upstream (under talker first audio, the talker's first-audio frame), so it counts time spent waiting upstream, not this stage's own queueing and prefill; that time is in the residual. Time to first audio (stage 1 · code2wav) (--target stage1.firstOutput) measures it, with the upstream parts that make it)",
    ),
    lines.join('\n'),
  );
  // The generic causes are not offered in its place.
  assert.ok(!lines.some((l) => l.includes('a positive residual: time of the tail that no part explains')));
  const t = tailOf(args);
  assert.equal(t.ttftWaitedUpstream?.requests, 1);
  // The codec's vllm_ttft_ms 4,000 − queued 250 − prefill 500 in the slow request, over a tail of one.
  assert.ok(Math.abs((t.ttftWaitedUpstream?.waitMs ?? 0) - 3250) < 1e-6, JSON.stringify(t.ttftWaitedUpstream));
  // The talker is the first stage: its TTFT waits for nothing upstream.
  assert.equal(tailOf([AFTER_FIX, '--target', 'stage0.ttft', '--quantile', 'p99']).ttftWaitedUpstream, undefined);
});

test('a single leftover part is named, and a part of 5% or more is never folded', () => {
  const text = explain([COLD_SAMPLE, '--by-boot', '--target', 'e2e', '--quantile', 'p90']);
  const boot2 = block(text, /^Why end-to-end time is slow at p90 \(boot 2\)/);
  assert.ok(
    boot2.includes('  stage 1 · code2wav gen time not split (no prefill/decode values)    −441 ms    −13%    814 ms'),
    boot2.join('\n'),
  );
  assert.doesNotMatch(text, /other part/);
});
