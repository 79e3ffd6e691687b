// A log of two offline runs, each ending in omni.py's [Summary] dict, through the built CLI: the
// table names each `stages.<n>` entry by the stage_id it printed (the second run's list skips
// stage 1, so its stages.1 is stage 2), and says where the earlier summary is; the JSON keeps
// both, with their lines, times and entries, and its value keys as printed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { runCli as cli } from './support/cliProcess';

const ROOT = path.resolve(__dirname, '..', '..');
// Named for its pipeline, as a user's log would be: its stages get Qwen3-Omni's roles.
const TWO_RUNS = path.join(ROOT, 'test', 'fixtures', 'logs', 'qwen3-omni-legacy-summaries-two-runs.log');

test('--format table: the latest summary with each stages entry named by its printed stage_id, then the earlier one', () => {
  const out = cli(['analyze', TWO_RUNS]);
  assert.equal(out.status, 0, out.stderr);
  const lines = out.stdout.split('\n');
  const title = lines.findIndex((l) => l.startsWith("From omni.py's [Summary] dict"));
  assert.match(lines[title] ?? '', / at line 54, as printed \(the latest of 2\): the run's figures/);
  const row = (field: string): string[] =>
    (lines.slice(title).find((l) => l.startsWith(`${field} `)) ?? '').split(/\s{2,}/);
  assert.deepEqual(lines[title + 1]?.split(/\s+/), ['field', 'stage', 'value']);
  assert.deepEqual(row('stages.0.total_time_ms'), ['stages.0.total_time_ms', 'stage 0 · thinker', '812.346']);
  assert.deepEqual(row('stages.1.stage_id'), ['stages.1.stage_id', 'stage 2 · code2wav', '2']);
  assert.deepEqual(row('stages.1.total_time_ms'), [
    'stages.1.total_time_ms',
    'stage 2 · code2wav',
    'not measured (None)',
  ]);
  assert.deepEqual(row('stages.1.avg_tokens_per_s'), ['stages.1.avg_tokens_per_s', 'stage 2 · code2wav', 'nan']);
  assert.deepEqual(row('wall_time_ms'), ['wall_time_ms', '3,759.220']);
  assert.ok(
    lines.includes(
      'stages.<n>: entry n (from 0) of the stages list as printed, which need not be stage n; stage: the stage_id the entry printed.',
    ),
  );
  assert.ok(
    lines.includes(
      '1 earlier run summary in the log: line 2, 12-27 22:03:23. --format json has each kept one (runSummaries.kept).',
    ),
  );
  // No row names a stage by its list position alone: stage 1 has no entry in the latest summary.
  assert.equal(
    lines.slice(title).some((l) => l.includes('stage 1 · talker')),
    false,
  );
});

interface SummaryJson {
  line: number;
  printedAt: string | null;
  values: Record<string, number | string | null>;
  stageEntries: { key: string; position: number; stageId: number | null }[];
}

test('--format json: every summary in log order with its line, time and stage entries; value keys as printed', () => {
  const out = cli(['analyze', TWO_RUNS, '--format', 'json']);
  assert.equal(out.status, 0, out.stderr);
  const j = JSON.parse(out.stdout) as {
    runSummaries: { count: number; kept: SummaryJson[] };
    stageRoles: Record<string, string>;
  };
  assert.equal(j.runSummaries.count, 2);
  assert.deepEqual(
    j.runSummaries.kept.map((s) => [s.line, s.printedAt]),
    [
      [2, '12-27 22:03:23'],
      [54, '12-27 22:07:41'],
    ],
  );
  const [first, latest] = j.runSummaries.kept;
  assert.deepEqual(latest?.stageEntries, [
    { key: 'stages.0', position: 0, stageId: 0 },
    { key: 'stages.1', position: 1, stageId: 2 },
  ]);
  assert.deepEqual(
    first?.stageEntries.map((e) => e.stageId),
    [0, 1, 2],
  );
  assert.equal(latest?.values['stages.1.total_time_ms'], null);
  assert.equal(latest?.values['stages.1.avg_tokens_per_s'], 'nan');
  assert.equal(first?.values['stages.1.total_time_ms'], 2301.7499446868896);
  assert.equal(j.stageRoles['2'], 'code2wav');
});
