// `stage-lens explain` on logs printed by vLLM-Omni's own stats code (test/fixtures/upstream-rendered),
// as a user runs it (the built dist/cli.js as a real child process): what it says is read against
// the tables those logs print.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cliStdout } from './support/cliProcess';
import type { ExplainReport } from '../../server/core/explain/explainReport';

const ROOT = path.resolve(__dirname, '..', '..');
const RENDERED = path.join(ROOT, 'test', 'fixtures', 'upstream-rendered');
const AFTER_FIX = path.join(RENDERED, 'qwen3tts-talker-first-audio-after-fix.log');
const THREE_STAGE = path.join(RENDERED, 'qwen3-omni-three-stage-transfers.log');

const explain = (args: readonly string[]): string => cliStdout(['explain', ...args]);

/** The lines of the block that starts with `headline` (up to the blank line after it). */
function block(text: string, headline: RegExp): string[] {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => headline.test(l));
  assert.ok(start >= 0, `no ${headline} in:\n${text}`);
  const end = lines.indexOf('', start);
  return lines.slice(start, end === -1 ? lines.length : end);
}

test("a downstream stage's num_tokens_in 0 (counted on stage 0 only) is no point of a cost per token", () => {
  // Both logs print num_tokens_in 0 on every stage after the first, whatever that stage was fed.
  assert.deepEqual(block(explain([AFTER_FIX]), /^Cost per token/), [
    'Cost per token (least squares over requests)',
    '  stage 0 · talker prefill+decode (one output) vs num_tokens_out: not fitted, 6 points (at least 10 needed)',
    '  stage 0 · talker decode vs num_tokens_out: not fitted, this stage emits one output, when it stops (Model Runner V2 + async chunk): its vllm_decode_ms is not a measurement, its decode steps are in its prefill+decode',
  ]);
  const report = JSON.parse(explain([THREE_STAGE, '--format', 'json'])) as ExplainReport;
  const byInput = [...report.costModel, ...report.costModelSkipped]
    .filter((f) => f.x === 'num_tokens_in')
    .map((f) => f.stageKey);
  // The thinker's 4,860 / 1,203 / 2,377 prompt tokens only; the talker's and code2wav's 0s are no counts.
  assert.deepEqual(byInput, ['0']);
});

test("a codec's num_tokens_out 0 beside the audio it made (no token ids, no native count) is no point of a cost per token", () => {
  // Every request's code2wav prints num_tokens_out 0 with output_unit_count 1 to 4 and audio_generated_frames
  // in the tens of thousands: the 0 is the field's default, so no code2wav decode line, fitted or skipped.
  assert.deepEqual(block(explain([THREE_STAGE]), /^Cost per token/), [
    'Cost per token (least squares over requests)',
    '  stage 0 · thinker prefill vs num_tokens_in: not fitted, 3 points (at least 10 needed)',
    '  stage 0 · thinker decode vs num_tokens_out: not fitted, 3 points (at least 10 needed)',
    '  stage 1 · talker decode vs num_tokens_out: not fitted, 3 points (at least 10 needed)',
  ]);
  const byOutput = (args: string[]) => {
    const report = JSON.parse(explain([...args, '--format', 'json'])) as ExplainReport;
    return [...report.costModel, ...report.costModelSkipped]
      .filter((f) => f.x === 'num_tokens_out')
      .map((f) => [f.stageKey, f.y, f.n]);
  };
  assert.deepEqual(byOutput([AFTER_FIX]), [
    ['0', 'vllm_prefill_ms', 6],
    ['0', 'vllm_decode_ms', 0],
  ]);
  assert.deepEqual(byOutput([THREE_STAGE]), [
    ['0', 'vllm_decode_ms', 3],
    ['1', 'vllm_decode_ms', 3],
  ]);
  // A build with a native count prints it, and a count is a point: 80 / 50 / 120 tokens in the codec column.
  const native = readFileSync(THREE_STAGE, 'utf8')
    .replace(/(\| num_tokens_out +\| +67 \| +275 \| +)0 \|/, '$180 |')
    .replace(/(\| num_tokens_out +\| +41 \| +188 \| +)0 \|/, '$150 |')
    .replace(/(\| num_tokens_out +\| +112 \| +460 \| +)0 \|/, '$1120 |');
  assert.ok(!/\| num_tokens_out .* 0 \|/.test(native));
  const dir = mkdtempSync(path.join(os.tmpdir(), 'stage-lens-native-count-'));
  try {
    const log = path.join(dir, path.basename(THREE_STAGE));
    writeFileSync(log, native);
    assert.ok(
      block(explain([log]), /^Cost per token/).includes(
        '  stage 2 · code2wav decode vs num_tokens_out: not fitted, 3 points (at least 10 needed)',
      ),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a preempted request's wait to be scheduled again: in its prefill or its decode, as far as the fields tell", () => {
  // chatcmpl-7f0f5c781f1aae4a: its thinker printed vllm_num_preemptions 2 with a prefill and a decode
  // above 0, and the count does not say whether it came before the first token (prefill, TTFT) or after.
  const preempted = (args: string[]): string => {
    const report = JSON.parse(explain([...args, '--format', 'json'])) as ExplainReport;
    return report.findings.find((f) => f.code === 'preempted-requests')?.message ?? '';
  };
  assert.equal(
    preempted([THREE_STAGE]),
    'Stage 0 · thinker preempted 1 of 3 requests (up to 2 times, on chatcmpl-7f0f5c781f1aae4a): vLLM took their KV-cache blocks for other requests and scheduled them again later. ' +
      'vllm_queued_ms ends at the first scheduling, so the wait for the next is inside their vllm_prefill_ms or their vllm_decode_ms ' +
      '(before their first token it is in the prefill and the TTFT, after it in the decode; vllm_num_preemptions counts the preemptions, not when they came): ' +
      'time lost for want of KV-cache room, not spent on their tokens. ' +
      'Fewer preemptions take more KV-cache room per request: a higher gpu_memory_utilization, or a lower max_num_seqs or max_num_batched_tokens for the stage.',
  );
  // The talker that emits one output: its vllm_prefill_ms covers its decode, so the wait is there.
  assert.match(
    preempted([AFTER_FIX]),
    / so the wait for the next is inside their vllm_prefill_ms, which covers their decode \(the stage emits one output\): time lost /,
  );
  // analyze says it in the same words.
  const analyzed = cliStdout(['analyze', THREE_STAGE]);
  assert.ok(
    analyzed.split('\n').includes(`  [info] preempted-requests (stage 0), 1 request: ${preempted([THREE_STAGE])}`),
    analyzed,
  );
});

test("a positive residual that comes from the parts' medians alone is not called time no part explains", () => {
  // chatcmpl-3c88c0cf9be8c9bf: its talker's first output at 10,318.607 ms; its parts up to it (preprocess
  // 57, the thinker's 9,910.007, the 0->1 hand-off's 448.739, the talker's queued 0.35 and prefill 93.9)
  // add up to 10,509.996 ms: 191 ms more than the target. The +330 ms residual is the medians' not adding up.
  const lines = block(explain([THREE_STAGE]), /^Why stage 1 time to first output \(talker\) is slow at p95/);
  assert.ok(lines.includes('  residual                              +330 ms     16%'), lines.join('\n'));
  assert.ok(
    lines.includes(
      "  (a positive residual: the parts' excesses add up to less than the target's; each is over its own median, taken over all requests, so they need not add up exactly: within the tail request the parts add up to 191 ms more than the target, so no time of the tail is left unexplained)",
    ),
    lines.join('\n'),
  );
  // The thinker's first output keeps the generic words: 5.69 ms of its 9 ms excess is its own, unexplained.
  const thinker = block(explain([THREE_STAGE]), /^Why stage 0 time to first output \(thinker\) is slow at p95/);
  assert.ok(
    thinker.includes(
      '  (a positive residual: time of the tail that no part explains: final output and orchestration where the log does not measure them, gaps between stages, and parts not measured in some tail requests (their time is here))',
    ),
    thinker.join('\n'),
  );
});

test('a codec scheduled only after its first audio (talker first audio, before the fix): its unsplit gen time counts nothing toward it', () => {
  // speech-fbd4440a23242784cd92f847226a76f8: the codec's vllm_queued_ms 131.665 alone outlasts its first
  // audio at 126.470 ms (the talker's frame passed through): its gen time after that lies wholly after.
  const log = path.join(RENDERED, 'qwen3tts-talker-first-audio-before-fix.log');
  const lines = block(explain([log]), /^Why time to first audio \(stage 1 · code2wav\) is slow at p95/);
  assert.deepEqual(lines.slice(1, 7), [
    '  part                                             excess   share    median',
    '  stage 0 · talker prefill+decode (one output)   +28.7 ms     90%   83.7 ms',
    '  stage 0 · talker queued                        +2.56 ms      8%   0.36 ms',
    '  preprocess                                     +1.06 ms      3%   7.40 ms',
    '  stage 1 · code2wav queued (overlap)            +31.3 ms   apart   86.7 ms',
    '  residual                                       −0.28 ms     −1%',
  ]);
  assert.ok(!lines.some((l) => l.includes('"not measured"')), lines.join('\n'));
  const report = JSON.parse(explain([log, '--format', 'json'])) as ExplainReport;
  const tail = report.tail.find((t) => t.target === 'stage1.firstOutput' && t.quantile === 'p95');
  assert.equal(tail?.notMeasured, undefined);
  assert.equal(
    tail?.parts.find((p) => p.key === '1/genOther'),
    undefined,
  );
});
