// The CSV report: text cells neutralized for spreadsheets (every formula start, every C0
// control character), numbers left as numbers, one spelling per state, list counts, transfer
// rows, derived values at the log's precision, and each field's state (a printed number that
// is not a measurement is `notRecorded`).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CSV_HEADER, csvText } from '../../server/core/report/csvReport';
import { csvRows } from './support/csvRows';
import type { AnalyzedRequest, RequestStage } from '../../server/core/analysis/types';
import { phaseSplitOf } from '../../server/core/analysis/phaseSplit';
import { BLANK, NOT_MEASURED, measured, type FieldMap } from '../../server/core/values';

test('csvText: a leading = + - @ tab or CR gets an apostrophe; every C0 control and DEL becomes a visible picture', () => {
  for (const start of ['=', '+', '-', '@']) assert.equal(csvText(`${start}1+1`), `'${start}1+1`);
  assert.equal(csvText('\tx'), "'\u2409x");
  assert.equal(csvText('\rx'), "'\u240dx");
  for (let c = 0; c <= 0x1f; c++) {
    const out = csvText(`a${String.fromCharCode(c)}b`);
    assert.equal(out, `a${String.fromCharCode(0x2400 + c)}b`, `C0 ${c}`);
  }
  assert.equal(csvText('a\u007fb'), 'a\u2421b');
  assert.equal(csvText('a=b'), 'a=b', 'only a leading = is a formula');
  assert.equal(csvText('x,"y"'), '"x,""y"""', 'quoted as RFC 4180');
  assert.equal(csvText('=a,"b"'), `"'=a,""b"""`);
  assert.equal(csvText('ünïcode-ok'), 'ünïcode-ok');
});

function stage(stageKey: string, fields: FieldMap): RequestStage {
  return {
    stageKey,
    stageId: Number(stageKey),
    segment: 1,
    replicaId: 0,
    kind: 'llm',
    fields,
    split: phaseSplitOf(fields, { kind: 'llm', tableHasNativeStats: true }),
  };
}

test('csvRows: numbers as numbers (negatives too), states in one spelling, list counts, transfer rows, derived values rounded', () => {
  const request: AnalyzedRequest = {
    requestId: '-r1',
    boot: 0,
    cold: false,
    line: 3,
    timestamp: null,
    stages: [
      stage('0', {
        vllm_queued_ms: measured(-1.5),
        vllm_prefill_ms: NOT_MEASURED,
        vllm_itls_ms: measured(22.5, 7),
        inter_output_latencies_ms: BLANK,
        vllm_input_wait_ms: measured(0.25),
      }),
    ],
    e2e: {},
    timing: null,
    transfers: [
      {
        edge: '0->1',
        fromStage: 0,
        toStage: 1,
        fields: { size_kbytes: measured(12.5), tx_time_ms: NOT_MEASURED },
        tablePrinted: true,
        omniTimingTxMs: null,
        omniTimingTxState: 'absent',
      },
    ],
    overallSummary: null,
    complete: true,
    hasStageTable: true,
    stageTableCut: false,
    derived: { addedTimeToFirstOutputMs: { '0': 9092.733 - 10034.441 } },
  };
  const [header, row, edge] = csvRows([request]).map((l) => l.split(','));
  assert.deepEqual(header, CSV_HEADER);
  const at = (r: string[] | undefined, name: string): string | undefined => r?.[CSV_HEADER.indexOf(name)];
  assert.equal(at(row, 'request_id'), "'-r1", 'a text id starting with - is neutralized');
  // A negative interval is not a time: its split value is notRecorded (the number stays in the JSON's fields).
  assert.equal(at(row, 'queuedMs'), 'notRecorded');
  assert.equal(at(row, 'queuedMs_state'), 'notRecorded');
  assert.equal(at(row, 'prefillMs'), 'notMeasured');
  assert.equal(at(row, 'prefillMs_state'), 'notMeasured');
  assert.equal(at(row, 'readyQueuedMs'), '0');
  assert.equal(at(row, 'readyQueuedMs_state'), 'inferred');
  assert.equal(at(row, 'decodeMs'), 'hidden');
  assert.equal(at(row, 'vllm_num_preemptions'), 'hidden');
  assert.equal(at(row, 'vllm_itls_ms'), '22.5');
  assert.equal(at(row, 'vllm_itls_ms_n'), '7');
  assert.equal(at(row, 'inter_output_latencies_ms'), 'blank');
  assert.equal(at(row, 'inter_output_latencies_ms_n'), '');
  assert.equal(at(row, 'added_time_to_first_output_ms'), '-941.708', 'a negative number stays a number');
  assert.equal(at(row, 'transfer_table'), '', 'transfer columns do not apply to a stage row');
  assert.equal(at(edge, 'kind'), 'transfer');
  assert.equal(at(edge, 'stage'), '0->1');
  assert.equal(at(edge, 'queuedMs'), '', 'stage columns do not apply to an edge row');
  assert.deepEqual(
    [
      'edge_from_stage',
      'edge_to_stage',
      'transfer_table',
      'size_kbytes',
      'tx_time_ms',
      'rx_decode_time_ms',
      'omni_timing_tx_ms',
      'omni_timing_tx_state',
    ].map((n) => at(edge, n)),
    ['0', '1', 'true', '12.5', 'notMeasured', 'hidden', 'absent', 'absent'],
  );
});

test("csvRows: a field's printed number that is not a measurement keeps its value, its _state column says notRecorded", () => {
  const request: AnalyzedRequest = {
    requestId: 'r2',
    boot: 0,
    cold: false,
    line: 9,
    timestamp: null,
    stages: [
      stage('0', {
        stage_gen_time_ms: measured(812.25),
        serving_time_to_first_output_ms: measured(131.5),
        num_tokens_in: measured(0),
        audio_duration_s: measured(Number.NaN),
        vllm_num_preemptions: NOT_MEASURED,
        vllm_itls_ms: measured(-2.5, 4),
        inter_output_latencies_ms: BLANK,
      }),
      // The field's default for a stage with no non-empty output, not a time.
      stage('1', { serving_time_to_first_output_ms: measured(0), num_tokens_out: { state: 'text', value: 'audio' } }),
    ],
    e2e: {},
    timing: null,
    transfers: [
      {
        edge: '0->1',
        fromStage: 0,
        toStage: 1,
        fields: { size_kbytes: measured(0), tx_time_ms: measured(-75.701), in_flight_time_ms: NOT_MEASURED },
        tablePrinted: true,
        omniTimingTxMs: null,
        omniTimingTxState: 'absent',
      },
    ],
    overallSummary: null,
    complete: true,
    hasStageTable: true,
    stageTableCut: false,
    derived: { addedTimeToFirstOutputMs: {} },
  };
  const [header, s0, s1, edge] = csvRows([request]).map((l) => l.split(','));
  assert.deepEqual(header, CSV_HEADER);
  // Appended after every column that was there before them.
  assert.equal(CSV_HEADER.indexOf('stage_gen_time_ms_state'), CSV_HEADER.indexOf('omni_timing_total_s') + 1);
  const at = (r: string[] | undefined, names: readonly string[]): (string | undefined)[] =>
    names.map((n) => r?.[CSV_HEADER.indexOf(n)]);
  assert.deepEqual(
    at(s1, ['serving_time_to_first_output_ms', 'serving_time_to_first_output_ms_state', 'num_tokens_out_state']),
    ['0', 'notRecorded', 'text'],
  );
  assert.deepEqual(
    at(s0, [
      'serving_time_to_first_output_ms_state',
      'stage_gen_time_ms_state',
      'num_tokens_in_state',
      'num_tokens_out_state',
      'audio_duration_s',
      'audio_duration_s_state',
      'vllm_num_preemptions_state',
      'vllm_itls_ms',
      'vllm_itls_ms_state',
      'inter_output_latencies_ms_state',
      'tx_time_ms_state',
    ]),
    [
      'measured',
      'measured',
      'measured',
      'hidden',
      'nan',
      'notRecorded',
      'notMeasured',
      '-2.5',
      'notRecorded',
      'blank',
      '',
    ],
  );
  assert.deepEqual(
    at(edge, [
      'tx_time_ms',
      'size_kbytes_state',
      'tx_time_ms_state',
      'rx_decode_time_ms_state',
      'in_flight_time_ms_state',
      'stage_gen_time_ms_state',
    ]),
    ['-75.701', 'measured', 'notRecorded', 'hidden', 'notMeasured', ''],
  );
});
