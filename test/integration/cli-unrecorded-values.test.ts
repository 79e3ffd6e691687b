// Printed numbers that are not measurements (server/core/analysis/unrecordedValues.ts, the
// TTFT rules of phaseSplit.ts), through the built CLI: left out of every percentile and
// mean, counted with their reason, and the same in the table, the JSON, the CSV and compare.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { cliStdout as cli } from './support/cliProcess';

const ROOT = path.resolve(__dirname, '..', '..');
const LOGS = path.join(ROOT, 'test', 'fixtures', 'logs');
/** req-S0 stage 1 prints serving_time_to_first_output_ms 0.000 (no output); S1-S3 print 121-123. */
const FIRST_OUTPUT_ZERO = path.join(LOGS, 'first-output-default-zero.log');
/** Stage 1: T0-T2 measured TTFT 100/110/120; T3-T5 the codec signature; T6 TTFT 0, no prefill, no output. */
const TTFT_NO_OUTPUT = path.join(LOGS, 'codec-ttft-no-output.log');

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

interface Breakdown {
  totalMs: number | null;
  parts: { edge: string | null; component: string | null; ms: number | null; state: string }[];
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

  // The CSV keeps the printed 0 and says it is no measurement; S1-S3 are measured.
  const rows = csvRows(FIRST_OUTPUT_ZERO);
  const firstOutput = (key: string): [string | undefined, string | undefined] => [
    rows.get(key)?.['serving_time_to_first_output_ms'],
    rows.get(key)?.['serving_time_to_first_output_ms_state'],
  ];
  assert.deepEqual(['req-S0/1', 'req-S1/1', 'req-S3/1', 'req-S0/0'].map(firstOutput), [
    ['0', 'notRecorded'],
    ['121', 'measured'],
    ['123', 'measured'],
    ['41', 'measured'],
  ]);

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
  // Marked †: 110 ms against queued 5 + prefill 15 waited for something upstream (ttft-includes-upstream-wait).
  assert.match(table, /\n1 +7 +p50 +(?:\S+ +){5}110\.0† /);
  assert.match(table, /stage 1 TTFT: 4 not recorded of 7/);
  assert.match(table, /\[info\] ttft-no-output \(stage 1\), 1 request: Stage 1 produced no output/);

  assert.equal(csvRows(TTFT_NO_OUTPUT).get('req-T6/1')?.['ttftMs'], 'notRecorded');
  assert.equal(csvRows(TTFT_NO_OUTPUT).get('req-T6/1')?.['ttftMs_state'], 'notRecorded');

  const compare = cli(['compare', TTFT_NO_OUTPUT, TTFT_NO_OUTPUT]);
  assert.match(compare, /\n1 +TTFT +3\/3 +p50 +110\.0 +110\.0 /);
});

/** req-N0 prints vllm_prefill_ms -154.683 and serving_time_to_first_output_ms -143.683; N1, N2 prefill 30/40, first output 41/51. */
const NEGATIVE = path.join(LOGS, 'negative-intervals.log');
/**
 * An upstream-rendered three-stage log (test/fixtures/upstream-rendered) with two values made
 * negative: the second request's 0->1 tx_time_ms (-75.701) and the third's e2e_total_ms (-6,637.250).
 */
const NEGATIVE_TRANSFER = path.join(LOGS, 'negative-transfer.log');

interface CompareMetric {
  scope: string;
  metric: string;
  baseline: { measured: number; unknown: Record<string, number>; p50?: number };
}

function compareMetrics(file: string): CompareMetric[] {
  return (JSON.parse(cli(['compare', file, file, '--format', 'json'])) as { metrics: CompareMetric[] }).metrics;
}

test('negative stage intervals are kept as printed, not recorded, and out of every percentile and mean', () => {
  const j = json(NEGATIVE);
  const n0 = j.requests.find((r) => r.requestId === 'req-N0')?.stages['0'];
  assert.equal(n0?.fields['vllm_prefill_ms'], -154.683);
  assert.equal(n0?.fields['serving_time_to_first_output_ms'], -143.683);
  assert.deepEqual([n0?.split['prefillMs'], n0?.splitState['prefillMs']], [null, 'notRecorded']);
  // Over 30 and 40 (prefill), 41 and 51 (first output): with the negatives in, the means were -28.2 and -17.2.
  const prefill = j.splitSummary['0']?.split['prefillMs'];
  assert.deepEqual([prefill?.count, prefill?.p50, prefill?.mean], [2, 35, 35]);
  assert.equal(j.splitSummary['0']?.states['prefillMs']?.['notRecorded'], 1);
  assert.deepEqual(
    [j.stageSummary['0']?.['vllm_prefill_ms']?.count, j.stageSummary['0']?.['vllm_prefill_ms']?.mean],
    [2, 35],
  );
  const first = j.stageSummary['0']?.['serving_time_to_first_output_ms'];
  assert.deepEqual([first?.count, first?.p50, first?.mean], [2, 46, 46]);
  assert.deepEqual(j.splitSummary['0']?.fieldsNotRecorded, {
    serving_time_to_first_output_ms: { negative: 1 },
    vllm_prefill_ms: { negative: 1 },
  });
  // One request, counted once (it has two negative fields).
  const negative = j.findings.find((f) => f.code === 'negative-interval');
  assert.deepEqual(negative?.requestIds, ['req-N0']);

  const table = cli(['analyze', NEGATIVE]);
  assert.match(table, /\n0 +3 +p50 +1\.000 +35\.00 +200\.0 +31\.00 +236\.0 +46\.00 /);
  assert.match(table, /stage 0 prefill: 1 negative \(below zero: not a real time\) of 3/);
  assert.match(table, /stage 0 1st output: 1 negative \(below zero: not a real time\) of 3/);
  assert.match(table, /negative-interval \(stage 0\), 1 request: Stage 0 duration below zero on 1 request /);

  const row = csvRows(NEGATIVE).get('req-N0/0');
  assert.deepEqual(
    [
      row?.['prefillMs'],
      row?.['prefillMs_state'],
      row?.['serving_time_to_first_output_ms'],
      row?.['serving_time_to_first_output_ms_state'],
    ],
    ['notRecorded', 'notRecorded', '-143.683', 'notRecorded'],
  );
  assert.equal(csvRows(NEGATIVE).get('req-N1/0')?.['serving_time_to_first_output_ms_state'], 'measured');

  const metrics = compareMetrics(NEGATIVE);
  const of = (metric: string) => metrics.find((m) => m.scope === '0' && m.metric === metric)?.baseline;
  assert.deepEqual([of('prefill')?.measured, of('prefill')?.unknown, of('prefill')?.p50], [2, { notRecorded: 1 }, 35]);
  assert.deepEqual([of('firstOutput')?.measured, of('firstOutput')?.unknown], [2, { notRecorded: 1 }]);

  // explain: the TTFT's prefill part over the two real prefills (median 35, not 30 with -154.683 in).
  assert.match(
    cli(['explain', NEGATIVE]),
    /stage 0 TTFT is slow at p95[^]*?\n {2}stage 0 prefill +\+0 ms +- +35\.0 ms\n/,
  );
});

test('a negative transfer time and a negative e2e_total_ms: not recorded, out of the edge summary and compare', () => {
  const j = json(NEGATIVE_TRANSFER) as Json & {
    edgeSummary: Record<string, { fields: Record<string, Dist>; fieldStates: Record<string, Record<string, number>> }>;
  };
  const breakdowns = (j.requests as unknown as { breakdown: Breakdown }[]).map((r) => r.breakdown);
  const tx = j.edgeSummary['0->1'];
  assert.deepEqual(tx?.fieldStates['tx_time_ms'], { measured: 2, notMeasured: 0, notRecorded: 1, hidden: 0 });
  assert.deepEqual([tx?.fields['tx_time_ms']?.count, tx?.fields['tx_time_ms']?.p50], [2, 75.701]);
  // The negative e2e is no end-to-end time for the breakdown either.
  assert.deepEqual(
    breakdowns.map((b) => b.totalMs),
    [40815.25, 33726.25, null],
  );
  // explain's breakdown: the negative send is a notRecorded part, never -75.701 ms of hand-off.
  const send = breakdowns[1]?.parts.find((p) => p.edge === '0->1' && p.component === 'tx');
  assert.deepEqual([send?.ms, send?.state], [null, 'notRecorded']);
  const negative = j.findings.find((f) => f.code === 'negative-interval');
  assert.deepEqual(negative?.requestIds, ['chatcmpl-7f0f5c781f1aae4a', 'chatcmpl-ae4840a79e5b9ea1']);
  // Compared against a 33,726 ms wall, not a -6,637 ms "request".
  assert.equal(
    j.findings.find((f) => f.code === 'overall-summary-per-prompt'),
    undefined,
  );

  assert.match(
    cli(['analyze', NEGATIVE_TRANSFER]),
    /0 → 1: 1 of 3 tx_time_ms printed below zero, nan or inf: not a time, left out\./,
  );

  // The CSV's edge rows: the printed -75.701 not recorded, the other requests' sends measured.
  const edges = csvRows(NEGATIVE_TRANSFER);
  assert.deepEqual(
    ['chatcmpl-7f0f5c781f1aae4a/0->1', 'chatcmpl-3c88c0cf9be8c9bf/0->1'].map((key) => [
      edges.get(key)?.['tx_time_ms'],
      edges.get(key)?.['tx_time_ms_state'],
    ]),
    [
      ['-75.701', 'notRecorded'],
      ['78.701', 'measured'],
    ],
  );

  const metrics = compareMetrics(NEGATIVE_TRANSFER);
  const e2e = metrics.find((m) => m.metric === 'e2e')?.baseline;
  assert.deepEqual([e2e?.measured, e2e?.unknown], [2, { notRecorded: 1 }]);
  const edgeTx = metrics.find((m) => m.scope === '0->1' && m.metric === 'edgeTx')?.baseline;
  assert.deepEqual([edgeTx?.measured, edgeTx?.unknown], [2, { notRecorded: 1 }]);
});

/** r1: stage 0 prints vllm_decode_ms nan and vllm_ttft_ms -inf, stage 1 vllm_decode_ms inf. */
const NON_FINITE = path.join(LOGS, 'nonfinite-values.log');

test('nan, inf and -inf: as printed in the JSON fields (never null, which is None), not recorded in the split', () => {
  const text = cli(['analyze', NON_FINITE, '--format', 'json']);
  assert.match(text, /"vllm_decode_ms":"nan"/);
  assert.match(text, /"vllm_ttft_ms":"-inf"/);
  assert.match(text, /"vllm_decode_ms":"inf"/);
  const j = JSON.parse(text) as Json;
  const [s0, s1] = [j.requests[0]?.stages['0'], j.requests[0]?.stages['1']];
  assert.equal(s0?.fields['vllm_prefill_ms'], null, 'a printed None stays null');
  assert.deepEqual(
    [s0?.split['decodeMs'], s0?.splitState['decodeMs'], s1?.split['decodeMs'], s1?.splitState['decodeMs']],
    [null, 'notRecorded', null, 'notRecorded'],
  );
  assert.equal(j.splitSummary['1']?.split['decodeMs'], undefined, 'no distribution of inf');
  assert.deepEqual(j.splitSummary['0']?.fieldsNotRecorded, {
    vllm_decode_ms: { nonFinite: 1 },
    vllm_ttft_ms: { nonFinite: 1 },
  });
  // The pretty JSON is the same document.
  assert.deepEqual(JSON.parse(cli(['analyze', NON_FINITE, '--format', 'json', '--pretty'])), j);

  const table = cli(['analyze', NON_FINITE]);
  assert.doesNotMatch(table, /NaN|∞/);
  // -inf is not a number, not a duration below zero: no negative-interval for stage 0, whose only odd value it is.
  assert.match(table, /stage 0 TTFT: 1 not a number \(printed nan, inf or -inf\) of 1/);
  assert.doesNotMatch(table, /negative-interval \(stage 0\)|= -inf on r1/);
  assert.match(
    table,
    /negative-interval \(stage 1\), 1 request: .*worst serving_time_to_first_output_ms = -154\.683 ms on r1/,
  );
  assert.match(table, /stage 1 decode: 1 not a number \(printed nan, inf or -inf\) of 1/);
  // The CSV spells them the same way where it prints the field, and says the split's state.
  const row = csvRows(NON_FINITE).get('r1/1');
  assert.deepEqual([row?.['decodeMs'], row?.['decodeMs_state']], ['notRecorded', 'notRecorded']);
});

/** r1: stage 0 on replica 0, stage 1 on replica 2; r2: stage 0 on replica 0, stage 1 prints replica_id None. */
const REPLICA_NONE = path.join(LOGS, 'replica-none.log');

test('a printed replica_id None is no replica id, never replica 0: JSON, CSV, replica summaries, trace', () => {
  const j = JSON.parse(cli(['analyze', REPLICA_NONE, '--format', 'json'])) as Json & {
    replicaSummary: Record<string, unknown>;
  };
  const ids = (j.requests as unknown as { stages: Record<string, { replicaId: number | null }> }[]).map((r) =>
    Object.values(r.stages).map((s) => s.replicaId),
  );
  assert.deepEqual(ids, [
    [0, 2],
    [0, null],
  ]);
  // One replica id on stage 1 (2) and one request without: no per-replica split (it was 1/0 and 1/2).
  assert.deepEqual(Object.keys(j.replicaSummary), []);

  const rows = csvRows(REPLICA_NONE);
  assert.deepEqual(
    [rows.get('r1/1')?.['replica_id'], rows.get('r2/1')?.['replica_id'], rows.get('r2/0')?.['replica_id']],
    ['2', 'notMeasured', '0'],
  );

  const trace = JSON.parse(cli(['analyze', REPLICA_NONE, '--format', 'trace'])) as {
    traceEvents: { ph: string; name: string; args?: Record<string, unknown> }[];
  };
  const processes = trace.traceEvents
    .filter((e) => e.ph === 'M' && e.name === 'process_name')
    .map((e) => e.args?.['name']);
  assert.ok(processes.includes('stage 1 · no replica id'), JSON.stringify(processes));
  assert.ok(!processes.includes('stage 1 · replica 0'));
  const stage1 = trace.traceEvents.filter((e) => e.ph === 'b' && e.args?.['request'] === 'r2' && e.name === 'stage 1');
  assert.equal(stage1.length, 1);
  assert.equal(stage1[0]?.args?.['replica'], undefined);
});
