// Logs with [Overall Summary] tables and no per-request stage table (real public logs of older
// vLLM-Omni builds, which printed the summary at INFO): the analysis keeps every table's values
// per field, with the states of the ones that are not numbers; the table report and the JSON
// show them as printed, say when a table covers several requests, and never divide a table's
// values into per-request ones.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { analysedLog } from './support/analysedLog';
import { MAX_OVERALL_FIELDS, OverallSummaryBuilder } from '../../server/core/analysis/overallSummaries';
import { analysisJsonRest } from '../../server/core/report/jsonReport';
import { tableReport } from '../../server/core/report/tableReport';
import { measured, NOT_MEASURED, BLANK, type FieldMap } from '../../server/core/values';

const REAL = path.resolve(__dirname, '..', 'fixtures', 'real-logs');
const log = (name: string): string => path.join(REAL, name);
const one = (v: number) => ({ count: 1, mean: v, p50: v, p90: v, p99: v, max: v });
const allMeasured = (names: readonly string[]) =>
  Object.fromEntries(names.map((n) => [n, { measured: 1, notMeasured: 0, text: 0, hidden: 0 }]));

const UPSTREAM_FIELDS = [
  'e2e_requests',
  'e2e_wall_time_ms',
  'e2e_total_tokens',
  'e2e_avg_time_per_request_ms',
  'e2e_avg_tokens_per_s',
  'e2e_stage_0_wall_time_ms',
  'e2e_stage_1_wall_time_ms',
  'e2e_stage_2_wall_time_ms',
];

test('real-logs 02: one served call, every value of its table as printed', () => {
  const s = analysedLog(log('02-pr891-overall-apiserver-prefix.log'));
  assert.equal(s.requestCount, 0);
  assert.equal(s.stages.length, 0);
  assert.deepEqual(s.overallSummaries, {
    tables: 1,
    cutOffTables: 0,
    coveringSeveral: 0,
    fields: {
      e2e_requests: one(1),
      e2e_wall_time_ms: one(40828.324),
      e2e_total_tokens: one(5105),
      e2e_avg_time_per_request_ms: one(40828.324),
      e2e_avg_tokens_per_s: one(125.036),
      e2e_stage_0_wall_time_ms: one(10659.139),
      e2e_stage_1_wall_time_ms: one(24827.949),
      e2e_stage_2_wall_time_ms: one(625.227),
    },
    fieldStates: allMeasured(UPSTREAM_FIELDS),
    cellsLeftOut: 0,
  });
  const table = tableReport(s, { source: '02' });
  assert.deepEqual(table.slice(0, 1), ['Stage Lens: 0 requests, 0 stages from 02']);
  assert.ok(!table.some((l) => l.startsWith('No per-request stage statistics found')));
  const text = table.join('\n');
  assert.match(text, /No per-request stage statistics: the log has 1 \[Overall Summary\] table/);
  assert.match(text.replaceAll('\n', ' '), /Fix: restart the server with VLLM_LOGGING_LEVEL=DEBUG/);
  assert.doesNotMatch(text, /covers several requests/);
  const at = table.indexOf(
    'From the [Overall Summary] table, as printed (_ms fields in ms, e2e_avg_tokens_per_s in tokens/s)',
  );
  assert.ok(at > 0, text);
  assert.deepEqual(table.slice(at + 1), [
    'field                             value',
    '---------------------------  ----------',
    'e2e_requests                          1',
    'e2e_wall_time_ms             40,828.324',
    'e2e_total_tokens                  5,105',
    'e2e_avg_time_per_request_ms  40,828.324',
    'e2e_avg_tokens_per_s            125.036',
    'e2e_stage_0_wall_time_ms     10,659.139',
    'e2e_stage_1_wall_time_ms     24,827.949',
    'e2e_stage_2_wall_time_ms        625.227',
  ]);
});

test('real-logs 01: a table covering 10 requests is said to, and its values stay the call’s', () => {
  const s = analysedLog(log('01-pr891-overall-e2e-noprefix.log'));
  // The RequestE2EStats cut off after its title took the summary; it has no stage.
  assert.equal(s.requestCount, 1);
  assert.equal(s.stages.length, 0);
  const o = s.overallSummaries;
  assert.ok(o !== null);
  assert.equal(o.tables, 1);
  assert.equal(o.coveringSeveral, 1);
  assert.deepEqual(o.fields['e2e_requests'], one(10));
  assert.deepEqual(o.fields['e2e_wall_time_ms'], one(81430.702));
  assert.deepEqual(o.fields['e2e_total_tokens'], one(3347));
  assert.deepEqual(o.fields['e2e_avg_time_per_request_ms'], one(8143.07));
  assert.deepEqual(o.fields['e2e_avg_tokens_per_s'], one(41.102));
  assert.deepEqual(o.fields['e2e_stage_0_wall_time_ms'], one(19442.824));
  assert.deepEqual(o.fields['e2e_stage_1_wall_time_ms'], one(59771.091));
  assert.deepEqual(o.fields['e2e_stage_2_wall_time_ms'], one(3015.388));
  const text = tableReport(s, { source: '01' }).join('\n');
  assert.match(
    text.replaceAll('\n', ' '),
    /It covers several requests \(e2e_requests 10\): its values are those requests' together \(e2e_avg_time_per_request_ms their mean\), not any one request's\./,
  );
  // As printed: the mean per request is the log's, not 81,430.702 / 10 computed here.
  assert.match(text, /^e2e_avg_time_per_request_ms {3}8,143\.070$/m);
  assert.match(text, /^e2e_wall_time_ms {13}81,430\.702$/m);
  // No per-request value anywhere: the one request has no e2e and no stage.
  const json = analysisJsonRest(s);
  assert.deepEqual(json.stageSummary, {});
  assert.equal(json.overallSummaries?.coveringSeveral, 1);
  assert.deepEqual(json.overallSummaries?.fields['e2e_wall_time_ms'], one(81430.702));
});

test('real-logs 03: a table cut off after its last row keeps its 8 values and says it was cut off', () => {
  const s = analysedLog(log('03-pr1468-overall-empty-first-line.log'));
  const o = s.overallSummaries;
  assert.ok(o !== null);
  assert.deepEqual([o.tables, o.cutOffTables, o.coveringSeveral], [1, 1, 0]);
  assert.deepEqual(Object.keys(o.fields), UPSTREAM_FIELDS);
  assert.deepEqual(o.fields['e2e_wall_time_ms'], one(8407.655));
  assert.deepEqual(o.fields['e2e_total_tokens'], one(5151));
  assert.deepEqual(o.fields['e2e_avg_tokens_per_s'], one(612.656));
  assert.deepEqual(o.fields['e2e_stage_0_wall_time_ms'], one(1730.66));
  assert.deepEqual(o.fields['e2e_stage_1_wall_time_ms'], one(6302.332));
  assert.deepEqual(o.fields['e2e_stage_2_wall_time_ms'], one(149.998));
  // A cut-off table's missing rows would be unknown, not hidden: no row counts as hidden.
  assert.deepEqual(o.fieldStates, allMeasured(UPSTREAM_FIELDS));
  const table = tableReport(s, { source: '03' });
  assert.ok(table.includes('e2e_stage_0_wall_time_ms     1,730.660'), table.join('\n'));
  assert.ok(
    table.includes('1 of 1 table was cut off (see Input problems): the rows after the cut are unknown, not hidden.'),
  );
});

test('real-logs 04: an offline diffusion run (two stages) glued to a tqdm bar', () => {
  const s = analysedLog(log('04-pr1977-diffusion-overall-glued-to-tqdm.log'));
  const o = s.overallSummaries;
  assert.ok(o !== null);
  assert.deepEqual([o.tables, o.cutOffTables, o.coveringSeveral], [1, 0, 0]);
  assert.deepEqual(o.fields, {
    e2e_requests: one(1),
    e2e_wall_time_ms: one(74410.325),
    e2e_total_tokens: one(1287),
    e2e_avg_time_per_request_ms: one(74410.325),
    e2e_avg_tokens_per_s: one(17.296),
    e2e_stage_0_wall_time_ms: one(40252.345),
    e2e_stage_1_wall_time_ms: one(34140.089),
  });
  assert.match(tableReport(s, { source: '04' }).join('\n'), /^e2e_stage_1_wall_time_ms {5}34,140\.089$/m);
});

test('real-logs 05: beside [OmniTiming], the summary of an unmerged branch (its own keys) is shown after the timing table', () => {
  const s = analysedLog(log('05-pr3042-omnitiming-and-overall.log'));
  assert.equal(s.tablesMissing?.all, true);
  const o = s.overallSummaries;
  assert.ok(o !== null);
  assert.deepEqual([o.tables, o.cutOffTables], [1, 1]);
  assert.deepEqual(o.fields, {
    e2e_requests: one(1),
    request_wall_time_ms: one(1396.428),
    input_preprocess_time_ms: one(8.002),
    build_add_request_message_time_ms: one(8.12),
  });
  const table = tableReport(s, { source: '05' });
  const timing = table.findIndex((l) => l.startsWith('Stage time and end to end from [OmniTiming]'));
  // Cut before e2e_avg_tokens_per_s: the heading names no tokens/s.
  const overall = table.indexOf('From the [Overall Summary] table, as printed (_ms fields in ms)');
  assert.ok(timing > 0 && overall > timing, table.join('\n'));
  assert.ok(table.includes('input_preprocess_time_ms               8.002'), table.join('\n'));
  // The [OmniTiming] notice says what is missing; the summaries' own notice is not repeated.
  assert.ok(!table.some((l) => l.startsWith('No per-request stage statistics')));
});

test('several tables: n and p50/p90/p99/max over the tables, the few-values note, never a sum', () => {
  const a = readFileSync(log('02-pr891-overall-apiserver-prefix.log'));
  const b = readFileSync(log('03-pr1468-overall-empty-first-line.log'));
  const s = analysedLog(Buffer.concat([a, Buffer.from('\n'), b]));
  const o = s.overallSummaries;
  assert.ok(o !== null);
  assert.deepEqual([o.tables, o.cutOffTables], [2, 1]);
  const json = analysisJsonRest(s).overallSummaries;
  // 8,407.655 and 40,828.324 (numpy's linear percentiles), at the log's 3 decimals.
  assert.deepEqual(json?.fields['e2e_wall_time_ms'], {
    count: 2,
    mean: 24617.99,
    p50: 24617.99,
    p90: 37586.257,
    p99: 40504.117,
    max: 40828.324,
  });
  assert.deepEqual(json?.fields['e2e_requests'], { count: 2, mean: 1, p50: 1, p90: 1, p99: 1, max: 1 });
  const table = tableReport(s, { source: 'two' });
  const at = table.indexOf(
    'From 2 [Overall Summary] tables, one value per table (_ms fields in ms, e2e_avg_tokens_per_s in tokens/s)',
  );
  assert.ok(at > 0, table.join('\n'));
  assert.equal(table[at + 1], 'field                        n         p50         p90         p99         max');
  assert.ok(
    table.includes('e2e_wall_time_ms             2  24,617.990  37,586.257  40,504.117  40,828.324'),
    table.join('\n'),
  );
  assert.ok(
    table.includes('e2e_total_tokens             2       5,128     5,146.4    5,150.54       5,151'),
    table.join('\n'),
  );
  assert.ok(table.includes('  e2e_wall_time_ms (n = 2): p90 and p99'));
  assert.match(table.join(' '), /the log has 2 \[Overall Summary\] tables/);
});

test('a field that is None, text or absent is counted in its state, never as a 0', () => {
  const b = new OverallSummaryBuilder();
  const row = (fields: FieldMap, complete = true): void => b.add(fields, complete);
  row({ e2e_requests: measured(4), e2e_wall_time_ms: measured(900.5), input_preprocess_time_ms: NOT_MEASURED });
  row({ e2e_requests: measured(1), e2e_wall_time_ms: BLANK });
  row({ e2e_requests: measured(1) }, false);
  const o = b.summary();
  assert.ok(o !== null);
  assert.deepEqual([o.tables, o.cutOffTables, o.coveringSeveral], [3, 1, 1]);
  assert.deepEqual(o.fields['e2e_wall_time_ms'], one(900.5));
  assert.equal(o.fields['input_preprocess_time_ms'], undefined);
  assert.deepEqual(o.fieldStates, {
    e2e_requests: { measured: 3, notMeasured: 0, text: 0, hidden: 0 },
    // Two tables read whole printed it (one blank); the cut-off one does not count as hiding it.
    e2e_wall_time_ms: { measured: 1, notMeasured: 0, text: 1, hidden: 0 },
    input_preprocess_time_ms: { measured: 0, notMeasured: 1, text: 0, hidden: 1 },
  });
  assert.equal(new OverallSummaryBuilder().summary(), null);
});

test('field names are capped: a hostile table does not grow the digest per name', () => {
  const b = new OverallSummaryBuilder();
  const fields: FieldMap = {};
  for (let i = 0; i < MAX_OVERALL_FIELDS + 10; i++) fields[`k${i}`] = measured(i);
  b.add(fields, true);
  b.add(fields, true);
  const o = b.summary();
  assert.equal(Object.keys(o?.fieldStates ?? {}).length, MAX_OVERALL_FIELDS);
  assert.equal(o?.cellsLeftOut, 20);
});

test("a log with the per-request tables keeps every request's own summary, no digest of them, and its table unchanged", () => {
  const file = path.resolve(__dirname, '..', 'fixtures', 'upstream-rendered', 'qwen3-omni-three-stage-transfers.log');
  const s = analysedLog(file);
  assert.equal(s.overallSummaries, null);
  assert.ok(s.stages.length > 0);
  assert.deepEqual(
    s.requests.map((r) => r.overallSummary?.fields['e2e_requests']),
    s.requests.map(() => measured(1)),
  );
  assert.ok(!tableReport(s, { source: 'x' }).some((l) => l.includes('[Overall Summary]')));
  // Summaries read before the first stage table are dropped with the digest: the same as read at once.
  const summaryOnly = readFileSync(log('02-pr891-overall-apiserver-prefix.log'), 'utf8')
    .split('\n')
    .slice(1)
    .join('\n');
  const joined = analysedLog(Buffer.from(summaryOnly + '\n' + readFileSync(file, 'utf8')));
  assert.equal(joined.overallSummaries, null);
});
