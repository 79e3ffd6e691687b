// `stage-lens compare` of two real public logs whose requests printed no value: each has an
// [Overall Summary] and one RequestE2EStats table cut off before its first row (real-logs 01,
// vllm-omni#891, and 04, vllm-omni#1977). The built dist/cli.js as a real child process. No
// metric is measured in either run, so no table follows: the report says why, and does not
// describe /metrics histogram quantiles, which neither log has.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { buildBundles } from './support/buildBundles';

const ROOT = path.resolve(__dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const REAL = path.join(ROOT, 'test', 'fixtures', 'real-logs');
const A = path.join(REAL, '01-pr891-overall-e2e-noprefix.log');
const B = path.join(REAL, '04-pr1977-diffusion-overall-glued-to-tqdm.log');
const NOTE =
  'Nothing to compare: the requests read (1 in the baseline, 1 in the candidate) printed no stage, transfer or end-to-end value (their tables were cut off before any row, or print none); `stage-lens analyze` shows what each run holds.';

before(() => buildBundles('cli'));

function compare(...args: string[]) {
  return spawnSync(process.execPath, [CLI, 'compare', A, B, ...args], { encoding: 'utf8', timeout: 60_000, cwd: ROOT });
}

test('table: the note says why nothing is compared; no histogram method for two logs', () => {
  const run = compare();
  assert.equal(run.status, 0, run.stderr);
  assert.ok(run.stdout.split('\n').includes(`  - ${NOTE}`), run.stdout);
  assert.doesNotMatch(run.stdout, /histogram/);
  assert.doesNotMatch(run.stdout, /^Significance$/m);
});

test('json: metrics and histograms empty, the note among the notes', () => {
  const run = compare('--format', 'json');
  assert.equal(run.status, 0, run.stderr);
  const json = JSON.parse(run.stdout) as { metrics: unknown[]; histograms: unknown[]; notes: string[] };
  assert.deepEqual([json.metrics.length, json.histograms.length], [0, 0]);
  assert.equal(json.notes[0], NOTE);
});

test('a log of [Overall Summary] tables alone (real-logs 02) holds nothing to compare: exit 2, and the message says what it has', () => {
  const only = path.join(REAL, '02-pr891-overall-apiserver-prefix.log');
  const run = spawnSync(process.execPath, [CLI, 'compare', A, only], { encoding: 'utf8', timeout: 60_000, cwd: ROOT });
  assert.equal(run.status, 2, run.stderr);
  assert.equal(run.stdout, '');
  assert.equal(
    run.stderr,
    `stage-lens compare: the candidate (${only}) holds nothing to compare: 0 requests read: the log has 1 [Overall Summary] table (one value per table and field, which \`stage-lens analyze\` shows) and no per-request stats table; comparing needs the per-request tables, which the server prints with --log-stats and VLLM_LOGGING_LEVEL=DEBUG\n`,
  );
});
