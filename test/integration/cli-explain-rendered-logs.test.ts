// `stage-lens explain` on logs printed by vLLM-Omni's own stats code (test/fixtures/upstream-rendered),
// as a user runs it (the built dist/cli.js as a real child process): what it says is read against
// the tables those logs print.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { buildBundles } from './support/buildBundles';
import type { ExplainReport } from '../../server/core/explain/explainReport';

const ROOT = path.resolve(__dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const RENDERED = path.join(ROOT, 'test', 'fixtures', 'upstream-rendered');
const AFTER_FIX = path.join(RENDERED, 'qwen3tts-talker-first-audio-after-fix.log');
const THREE_STAGE = path.join(RENDERED, 'qwen3-omni-three-stage-transfers.log');

before(() => {
  buildBundles('cli');
});

function explain(args: string[]): string {
  const r = spawnSync(process.execPath, [CLI, 'explain', ...args], { encoding: 'utf8', timeout: 60_000, cwd: ROOT });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

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
    '  stage 1 · code2wav decode vs num_tokens_out: not fitted, 6 points (at least 10 needed)',
  ]);
  const report = JSON.parse(explain([THREE_STAGE, '--format', 'json'])) as ExplainReport;
  const byInput = [...report.costModel, ...report.costModelSkipped]
    .filter((f) => f.x === 'num_tokens_in')
    .map((f) => f.stageKey);
  // The thinker's 4,860 / 1,203 / 2,377 prompt tokens only; the talker's and code2wav's 0s are no counts.
  assert.deepEqual(byInput, ['0']);
});
