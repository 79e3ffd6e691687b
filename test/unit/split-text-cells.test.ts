// A split field whose cell is text: a blank cell (the key the stage's row lacks, a None left out)
// is not measured; a printed text that is no number (`NaN`, `n/a`) was printed, so it is not a
// None: not recorded, in the split, the JSON, the CSV and the table's "left out" notes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analysedLog } from './support/analysedLog';
import { tableReport } from '../../server/core/report/tableReport';
import { csvRows } from './support/csvRows';
import { CSV_HEADER } from '../../server/core/report/csvReport';

const PREFIX = '(APIServer pid=1) DEBUG 10-22 09:30:53 [vllm_omni/metrics/stats.py:1044] ';

/** A two-stage [StageRequestStats] table with the given rows (field, stage 0, stage 1). */
function stageTable(rows: readonly (readonly [string, string, string])[]): Uint8Array {
  const border = `+${'-'.repeat(35)}+${'-'.repeat(14)}+${'-'.repeat(14)}+`;
  const line = (a: string, b: string, c: string): string =>
    `| ${a.padEnd(33)} | ${b.padStart(12)} | ${c.padStart(12)} |`;
  const text = ['', '[StageRequestStats [request_id=req-text]]', border, line('Field', '0', '1'), border]
    .concat(
      rows.map(([a, b, c]) => line(a, b, c)),
      [border],
    )
    .map((l) => PREFIX + l)
    .join('\n');
  return new TextEncoder().encode(`${text}\n`);
}

const LOG = stageTable([
  ['serving_time_to_first_output_ms', '469.500', '10,318.607'],
  ['stage_gen_time_ms', '9,910.007', '30,379.198'],
  ['vllm_decode_ms', 'NaN', '30,283.198'],
  ['vllm_prefill_ms', '406.200', 'n/a'],
  ['vllm_queued_ms', '0.610', ''],
  ['vllm_ttft_ms', '410.300', 'None'],
]);

test('text in a split cell is not recorded, a blank or None cell not measured', () => {
  const snapshot = analysedLog(LOG);
  const [request] = snapshot.requests;
  const stage = (key: string) => request?.stages.find((s) => s.stageKey === key);
  assert.equal(stage('0')?.split.states.decodeMs, 'notRecorded');
  assert.equal(stage('0')?.split.values.decodeMs, null);
  assert.equal(stage('1')?.split.states.prefillMs, 'notRecorded');
  assert.equal(stage('1')?.split.states.queuedMs, 'notMeasured');
  assert.equal(stage('1')?.split.states.ttftMs, 'notMeasured');
  // The fields keep what was printed.
  assert.deepEqual(stage('0')?.fields['vllm_decode_ms'], { state: 'text', value: 'NaN' });

  const csv = csvRows(snapshot.requests).map((r) => r.split(','));
  const col = (name: string): number => CSV_HEADER.indexOf(name);
  const row = (key: string) => csv.find((r) => r[col('stage')] === key);
  assert.deepEqual([row('0')?.[col('decodeMs')], row('0')?.[col('decodeMs_state')]], ['notRecorded', 'notRecorded']);
  assert.deepEqual([row('1')?.[col('prefillMs')], row('1')?.[col('prefillMs_state')]], ['notRecorded', 'notRecorded']);
  assert.deepEqual([row('1')?.[col('queuedMs')], row('1')?.[col('queuedMs_state')]], ['notMeasured', 'notMeasured']);

  const table = tableReport(snapshot, { source: 'x' });
  assert.ok(table.includes('  stage 0 decode: 1 not recorded of 1'), table.join('\n'));
  assert.ok(table.includes('  stage 1 prefill: 1 not recorded of 1'));
  assert.ok(table.includes('  stage 1 queued: 1 not measured (None) of 1'));
  assert.ok(!table.some((l) => /stage 0 decode: .*None/.test(l)));
});
