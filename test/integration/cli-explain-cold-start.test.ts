// `stage-lens explain` as a user runs it (the built dist/cli.js as a real child process) on the
// simulator's cold-start log (`simulate --scenario cold-start --stats-build fixed --debug-tables
// --requests 30 --speed 100 --seed 3 --cold-start-ms 8500`): a Qwen3-TTS server under async chunk,
// one client sending one request at a time, the codec counting its output in chunks (2 to 7).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { buildBundles } from './support/buildBundles';
import type { ExplainReport } from '../../server/core/explain/explainReport';
import type { TailAttributionJson } from '../../server/core/explain/oneOutputJson';

const ROOT = path.resolve(__dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const LOG = path.join(ROOT, 'test', 'fixtures', 'sim', 'cold-start-fixed-seed3.log');

before(() => {
  buildBundles('cli');
});

function explain(...args: string[]) {
  const r = spawnSync(process.execPath, [CLI, 'explain', LOG, '--target', 'e2e', '--quantile', 'p95', ...args], {
    encoding: 'utf8',
    timeout: 60_000,
    cwd: ROOT,
  });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

test("end to end at p95: the codec's decode, run alongside the talker, is set apart with its input wait, and the JSON says so", () => {
  const text = explain();
  // The codec's input wait (+4.14 s) leaves −443 ms (9.7% of the excess) that its decode (+440 ms) holds.
  assert.match(text, /\n {2}stage 1 · code2wav input wait \(overlap\) +\+4\.14 s +apart +63\.8 ms\n/);
  assert.match(text, /\n {2}stage 1 · code2wav decode \(overlap\) +\+440 ms +apart +1\.58 s\n/);
  assert.match(text, /\n {2}residual +−2\.91 ms +0%\n/);
  assert.doesNotMatch(text, /stage 1 · code2wav decode +\+440 ms +10%/);
  assert.doesNotMatch(text, /none is known to be the same time counted twice/);
  assert.match(
    text,
    /stage 1 · code2wav ran alongside the stages upstream \(async chunk feeds it as they produce\), so its 4 parts/,
  );
  const report = JSON.parse(explain('--format', 'json')) as Omit<ExplainReport, 'tail'> & {
    tail: TailAttributionJson[];
  };
  const tail = report.tail[0]!;
  assert.deepEqual(tail.alongsideStages, ['1']);
  const decode = tail.parts.find((p) => p.key === '1/decode')!;
  assert.deepEqual([decode.apart, decode.apartMs], ['alongside', decode.excessMs]);
  assert.equal(tail.parts.find((p) => p.key === '1/inputWait')?.apart, 'inputWait');
  assert.ok(Math.abs(tail.additiveResidualMs - -2.91) < 0.01, String(tail.additiveResidualMs));
  const apartMs = tail.parts.reduce((a, p) => a + (p.apartMs ?? 0), 0);
  assert.ok(Math.abs(tail.residualMs + apartMs - tail.additiveResidualMs) < 1e-3);
});

test("no cost per 1k tokens from the codec's 2 to 7 chunks, and a one-at-a-time client reads 0 in flight", () => {
  const text = explain();
  assert.match(
    text,
    /\n {2}stage 1 · code2wav decode vs num_tokens_out: not fitted, token counts span 2–7, too narrow a range for a cost per 1k tokens \(at least 50 tokens needed\)\n/,
  );
  assert.doesNotMatch(text, /ms per 1k tokens − \d/);
  assert.match(text, /Load at arrival [^\n]*: No other request was in flight when any request arrived/);
  assert.doesNotMatch(text, /slower with fewer others in flight/);
  const report = JSON.parse(explain('--format', 'json')) as ExplainReport;
  assert.deepEqual(report.costModel, []);
  assert.deepEqual(
    report.load[0]?.buckets.map((b) => [b.minInFlight, b.count, b.tailCount]),
    [[0, 30, 2]],
  );
});
