// A log of an INFO-level server ([OmniTiming] lines only, printed by vLLM-Omni's own stats
// code) printed no stage or transfer table: every table value of it is "not measured", never
// "hidden" (the zero-or-unmeasured row a DEBUG table leaves out), in the JSON's split states,
// the CSV and the trace; what the log does print (each stage's time, the total) is kept. And a
// phase hidden on every request of a DEBUG log is listed as left out of the percentiles.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { analysedLog, analysedStream } from './support/analysedLog';
import { csvRows } from './support/csvRows';
import { CSV_HEADER } from '../../server/core/report/csvReport';
import { traceText } from '../../server/core/report/trace';
import { tableReport } from '../../server/core/report/tableReport';
import { SPLIT_NAMES } from '../../server/core/analysis/types';

const FIXTURES = path.join(__dirname, '../fixtures');
const INFO_LOG = path.join(FIXTURES, 'upstream-rendered/qwen3tts-info-level-omnitiming-only.log');

test('INFO level: each stage split is not measured, never hidden', () => {
  const requests = [...analysedStream(INFO_LOG).requests];
  assert.equal(requests.length, 6);
  for (const r of requests)
    for (const s of r.stages)
      for (const name of SPLIT_NAMES) {
        assert.equal(s.split.states[name], 'notMeasured', `${r.requestId} stage ${s.stageKey} ${name}`);
        assert.equal(s.split.values[name], null);
      }
});

test('INFO level CSV: table cells not measured, the [OmniTiming] stage time and total in their columns', () => {
  const rows = csvRows(analysedStream(INFO_LOG).requests);
  const col = (name: string): number => CSV_HEADER.indexOf(name);
  const cells = rows.map((r) => r.split(','));
  const talker = cells.find((c) => c[0] === 'speech-1d2893d9177b5763df3d547f5103319a' && c[col('stage')] === '0');
  const codec = cells.find((c) => c[0] === 'speech-1d2893d9177b5763df3d547f5103319a' && c[col('stage')] === '1');
  const edge = cells.find((c) => c[0] === 'speech-1d2893d9177b5763df3d547f5103319a' && c[col('stage')] === '0->1');
  assert.ok(talker && codec && edge);
  for (const name of ['queuedMs', 'queuedMs_state', 'ttftMs', 'stage_gen_time_ms', 'num_tokens_out', 'vllm_itls_ms'])
    assert.equal(talker[col(name)], 'notMeasured', name);
  // `[OmniTiming] req=speech-1d28… total=0.74s … stages=[0:0.61s,1:0.73s]`
  assert.equal(talker[col('omni_timing_stage_s')], '0.61');
  assert.equal(codec[col('omni_timing_stage_s')], '0.73');
  assert.equal(codec[col('omni_timing_total_s')], '0.74');
  for (const name of ['size_kbytes', 'tx_time_ms', 'rx_decode_time_ms', 'in_flight_time_ms'])
    assert.equal(edge[col(name)], 'notMeasured', name);
  assert.equal(edge[col('omni_timing_stage_s')], '');
  assert.equal(
    rows.every((r) => r.split(',').length === CSV_HEADER.length),
    true,
    'every row has every column',
  );
  assert.equal(
    rows.some((r) => r.includes('hidden')),
    false,
  );
});

test('a DEBUG log keeps "hidden" for an edge it left out, and its rows carry the [OmniTiming] figures too', () => {
  const rows = csvRows(
    analysedStream(path.join(FIXTURES, 'upstream-rendered/qwen3-omni-three-stage-transfers.log')).requests,
  );
  const col = (name: string): number => CSV_HEADER.indexOf(name);
  const thinker = rows.map((r) => r.split(',')).find((c) => c[col('stage')] === '0');
  // `[OmniTiming] req=chatcmpl-3c88… total=40.82s … stages=[0:9.91s,…]`
  assert.equal(thinker?.[col('omni_timing_stage_s')], '9.91');
  assert.equal(thinker?.[col('omni_timing_total_s')], '40.82');
  assert.equal(thinker?.[col('inputWaitMs')], 'hidden');
});

test('INFO level trace: one e2e slice per request from [OmniTiming] total=, named so', () => {
  const trace = JSON.parse(traceText(analysedStream(INFO_LOG).requests)) as {
    traceEvents: { ph: string; name: string; ts: number; args?: Record<string, unknown> }[];
  };
  const begins = trace.traceEvents.filter((e) => e.name === 'e2e' && e.ph === 'b');
  assert.equal(begins.length, 6);
  const first = begins.find((e) => e.args?.['request'] === 'speech-1d2893d9177b5763df3d547f5103319a');
  assert.equal(first?.args?.['ms'], 740);
  assert.equal(first?.args?.['field'], '[OmniTiming] total=');
  const end = trace.traceEvents.find((e) => e.name === 'e2e' && e.ph === 'e');
  assert.equal((end?.ts ?? 0) - (begins[0]?.ts ?? 0), 740_000);
});

test('a phase hidden on every request is listed as left out, queued too', () => {
  const snapshot = analysedLog(path.join(FIXTURES, 'real-logs/15-timez-zx-parser-test-fixture-SYNTHETIC.log'));
  const text = tableReport(snapshot, { source: 'log15' }).join('\n');
  for (const stage of ['0', '1', '2'])
    assert.match(text, new RegExp(`\\n  stage ${stage} queued: 1 hidden \\(zero or not measured\\) of 1\\n`));
});
