// Printed numbers that are not measurements (server/core/analysis/unrecordedValues.ts, the
// TTFT rules of phaseSplit.ts), through the built CLI: left out of every percentile and
// mean, counted with their reason, and the same in the table, the JSON, the CSV and compare.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const LOGS = path.join(ROOT, 'test', 'fixtures', 'logs');
/** req-S0 stage 1 prints serving_time_to_first_output_ms 0.000 (no output); S1-S3 print 121-123. */
const FIRST_OUTPUT_ZERO = path.join(LOGS, 'first-output-default-zero.log');
/** Stage 1: T0-T2 measured TTFT 100/110/120; T3-T5 the codec signature; T6 TTFT 0, no prefill, no output. */
const TTFT_NO_OUTPUT = path.join(LOGS, 'codec-ttft-no-output.log');

before(() => {
  const built = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build.mjs'), '--only', 'cli'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  assert.equal(built.status, 0, built.stderr);
});

function cli(args: string[]): string {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 60_000, cwd: ROOT });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

interface Dist {
  count: number;
  p50: number;
  mean: number;
}

interface Json {
  requests: {
    requestId: string;
    stages: Record<
      string,
      { fields: Record<string, unknown>; split: Record<string, number | null>; splitState: Record<string, string> }
    >;
  }[];
  stageSummary: Record<string, Record<string, Dist>>;
  splitSummary: Record<
    string,
    {
      split: Record<string, Dist>;
      states: Record<string, Record<string, number>>;
      fieldsNotRecorded: Record<string, Record<string, number>>;
    }
  >;
  findings: { code: string; stageId: number | null; requestIds: string[] }[];
}

const json = (file: string): Json => JSON.parse(cli(['analyze', file, '--format', 'json'])) as Json;

/** The CSV's stage rows as header -> cell, keyed `request/stage`. */
function csvRows(file: string): Map<string, Record<string, string>> {
  const [head, ...lines] = cli(['analyze', file, '--format', 'csv']).trim().split('\n');
  const names = (head as string).split(',');
  const rows = new Map<string, Record<string, string>>();
  for (const line of lines) {
    const cells = line.split(',');
    const row = Object.fromEntries(names.map((n, i) => [n, cells[i] ?? '']));
    rows.set(`${row['request_id']}/${row['stage']}`, row);
  }
  return rows;
}

test("a first output of 0.000 (the field's default: no output) stays out of the 1st output percentiles, counted", () => {
  const j = json(FIRST_OUTPUT_ZERO);
  const first = j.stageSummary['1']?.['serving_time_to_first_output_ms'];
  // Over 121, 122, 123 only: with the 0 in, the p50 was 121.5 and the mean 91.5.
  assert.deepEqual([first?.count, first?.p50, first?.mean], [3, 122, 122]);
  assert.deepEqual(j.splitSummary['1']?.fieldsNotRecorded, { serving_time_to_first_output_ms: { noOutput: 1 } });
  assert.deepEqual(j.splitSummary['0']?.fieldsNotRecorded, {});
  // Kept as printed in the request.
  assert.equal(j.requests[0]?.stages['1']?.fields['serving_time_to_first_output_ms'], 0);

  const table = cli(['analyze', FIRST_OUTPUT_ZERO]);
  assert.match(table, /\n1 +4 +p50 +(?:\S+ +){7}122\.0 +79\.00\n/);
  assert.match(table, /stage 1 1st output: 1 no output \(0\.0 is the field's default, not a time\) of 4/);

  // compare already read it so ("noOutput"): the two agree.
  const compare = cli(['compare', FIRST_OUTPUT_ZERO, FIRST_OUTPUT_ZERO]);
  assert.match(compare, /\n1 +1st output +3\/3 +p50 +122\.0 +122\.0 /);
});

test('an LLM stage with TTFT 0, no prefill and no output: TTFT not recorded (the default), with its finding', () => {
  const j = json(TTFT_NO_OUTPUT);
  const t6 = j.requests.find((r) => r.requestId === 'req-T6')?.stages['1'];
  assert.equal(t6?.splitState['ttftMs'], 'notRecorded');
  assert.equal(t6?.split['ttftMs'], null);
  assert.equal(t6?.fields['vllm_ttft_ms'], 0);
  const ttft = j.splitSummary['1']?.split['ttftMs'];
  // 100, 110, 120: with T6's 0 in, the p50 was 105.
  assert.deepEqual([ttft?.count, ttft?.p50], [3, 110]);
  assert.equal(j.splitSummary['1']?.states['ttftMs']?.['notRecorded'], 4);
  assert.equal(j.stageSummary['1']?.['vllm_ttft_ms']?.count, 3);
  const noOutput = j.findings.find((f) => f.code === 'ttft-no-output');
  assert.deepEqual([noOutput?.stageId, noOutput?.requestIds], [1, ['req-T6']]);
  // The codec signature (output, no TTFT) keeps its own finding.
  assert.deepEqual(j.findings.find((f) => f.code === 'ttft-not-recorded')?.requestIds, ['req-T3', 'req-T4', 'req-T5']);

  const table = cli(['analyze', TTFT_NO_OUTPUT]);
  assert.match(table, /\n1 +7 +p50 +(?:\S+ +){5}110\.0 /);
  assert.match(table, /stage 1 TTFT: 4 not recorded of 7/);
  assert.match(table, /\[info\] ttft-no-output \(stage 1\), 1 request: Stage 1 produced no output/);

  assert.equal(csvRows(TTFT_NO_OUTPUT).get('req-T6/1')?.['ttftMs'], 'notRecorded');
  assert.equal(csvRows(TTFT_NO_OUTPUT).get('req-T6/1')?.['ttftMs_state'], 'notRecorded');

  const compare = cli(['compare', TTFT_NO_OUTPUT, TTFT_NO_OUTPUT]);
  assert.match(compare, /\n1 +TTFT +3\/3 +p50 +110\.0 +110\.0 /);
});
