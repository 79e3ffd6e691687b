// A log in vLLM-Omni's format before February 2026 through the built CLI: JSON and CSV users can
// tell it from an empty log (JSON: the finding and legacyRecords; CSV: a note on stderr).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
// One request_level_metrics dict (vllm-omni#1107).
const LEGACY = path.join(ROOT, 'test', 'fixtures', 'real-logs', '06-pr1107-legacy-log_utils-request_level_metrics.log');

before(() => {
  const built = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build.mjs'), '--only', 'cli'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  assert.equal(built.status, 0, built.stderr);
});

function cli(args: string[], input?: string) {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', input, timeout: 60_000, cwd: ROOT });
}

const FIX = 'a current vLLM-Omni prints [StageRequestStats] tables with --log-stats at VLLM_LOGGING_LEVEL=DEBUG';

test('--format json: the legacy-stats-format finding and legacyRecords; an empty log has neither', () => {
  const legacy = cli(['analyze', LEGACY, '--format', 'json']);
  assert.equal(legacy.status, 0, legacy.stderr);
  const j = JSON.parse(legacy.stdout) as {
    requests: unknown[];
    legacyRecords: number;
    findings: { code: string; severity: string; message: string }[];
  };
  assert.deepEqual(j.requests, []);
  assert.equal(j.legacyRecords, 1);
  assert.deepEqual(
    j.findings.map((f) => [f.code, f.severity]),
    [['legacy-stats-format', 'warning']],
  );
  assert.ok(j.findings[0]?.message.startsWith("The log has 1 stats dict in vLLM-Omni's format before February 2026"));
  assert.ok(j.findings[0]?.message.endsWith(`For a phase split, ${FIX}.`));

  const empty = cli(['analyze', '-', '--format', 'json'], '');
  const e = JSON.parse(empty.stdout) as { legacyRecords: number; findings: unknown[] };
  assert.equal(e.legacyRecords, 0);
  assert.deepEqual(e.findings, []);
  assert.notEqual(legacy.stdout, empty.stdout);
});

test('--format csv: the rows as for any log, and one line on stderr', () => {
  const legacy = cli(['analyze', LEGACY, '--format', 'csv']);
  const empty = cli(['analyze', '-', '--format', 'csv'], '');
  assert.equal(legacy.status, 0);
  assert.equal(legacy.stdout, empty.stdout);
  assert.equal(
    legacy.stderr,
    `stage-lens analyze: no requests: the input has 1 stats dict in vLLM-Omni's format before February 2026 (recognised, not analyzed); ${FIX}\n`,
  );
  assert.equal(empty.stderr, '');
});

test('--format table: the sentence once, no findings list repeating it', () => {
  const out = cli(['analyze', LEGACY]).stdout.replace(/\n(?=\S)/g, ' ');
  assert.equal(out.split('The log has 1 stats dict').length - 1, 1);
  assert.doesNotMatch(out, /Findings:/);
});
