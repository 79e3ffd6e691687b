// Logs in vLLM-Omni's format before February 2026 (pprinted log_utils.py dicts): each
// request_level_metrics dict is a request with the values it prints (stage times, tokens,
// end to end, transfers), its phase split not measured; every output says the format has none.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { StreamAnalysis } from '../../server/core/analysis/streamAnalysis';
import { tableReport } from '../../server/core/report/tableReport';
import { analysisJsonRest } from '../../server/core/report/jsonReport';
import { legacyStatsNote } from '../../server/core/analysis/legacyStats';
import { endToEndOf } from '../../server/core/analysis/endToEnd';
import { SPLIT_NAMES, type AnalyzedRequest } from '../../server/core/analysis/types';
import { cellToJson, type FieldMap } from '../../server/core/values';
import { summaryModel } from '../../webview/sidePanel/summaryModel';
import { summaryResultOf } from './support/summaryResult';
import { analysedStream } from './support/analysedLog';

const REAL = path.join(__dirname, '../fixtures/real-logs');
const LOGS = path.join(__dirname, '../fixtures/logs');
// Rendered by upstream's unmodified log_utils.py (one request, three stages, --log-stats: 14 dicts).
const OFFLINE_LOG = path.join(LOGS, 'legacy-offline-one-request.log');
// The same run without --log-stats: the request_level_metrics and [Summary] dicts only.
const NO_STATS_LOG = path.join(LOGS, 'legacy-offline-without-log-stats.log');
// A request_level_metrics dict whose first line is not in the paste, and a [Summary] (vllm-omni#500).
const SUMMARY_LOG = path.join(REAL, '08-pr500-legacy-omni-summary.log');
const PR1107_LOG = path.join(REAL, '06-pr1107-legacy-log_utils-request_level_metrics.log');
const ISSUE693_LOG = path.join(REAL, '07-issue693-legacy-log_utils.log');
const SUMMARY_DICT_LOG = path.join(REAL, '14-issue533-legacy-summary-dict.log');
const CURRENT_LOG = path.join(__dirname, '../fixtures/upstream-rendered/qwen3tts-info-level-omnitiming-only.log');
const REQUEST_ID = '0_3f1c9a2e-5b7d-4c1e-9a8f-2d6e4b1c7a90';

const analysis = (text: string): StreamAnalysis => analysedStream(Buffer.from(text));

const read = (file: string): string => fs.readFileSync(file, 'utf8');

function values(fields: FieldMap): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k in fields) out[k] = cellToJson(fields[k] as FieldMap[string]);
  return out;
}

/** Per stage key: its fields as numbers. */
function stageValues(r: AnalyzedRequest): Record<string, Record<string, unknown>> {
  return Object.fromEntries(r.stages.map((s) => [s.stageKey, values(s.fields)]));
}

function assertNoSplit(r: AnalyzedRequest): void {
  for (const s of r.stages)
    for (const name of SPLIT_NAMES) {
      assert.equal(s.split.states[name], 'notMeasured', `${r.requestId} stage ${s.stageKey} ${name}`);
      assert.equal(s.split.values[name], null);
    }
}

test('upstream rendering with --log-stats: one request, its stage times, tokens, end to end and edges', () => {
  const snap = analysis(read(OFFLINE_LOG)).snapshot();
  assert.equal(snap.legacyRecords, 14);
  assert.equal(snap.legacyRequests, 1);
  assert.equal(snap.requestCount, 1);
  const [r] = snap.requests;
  assert.ok(r !== undefined);
  assert.equal(r.requestId, REQUEST_ID);
  assert.equal(r.complete, true);
  assert.equal(r.hasStageTable, false);
  assert.equal(r.legacyDict, true);
  // The first transfer_total_stats dict of the request (its line and time).
  assert.equal(r.line, 47);
  assert.equal(r.timestamp, '12-27 22:03:23');
  assert.deepEqual(stageValues(r), {
    '0': { stage_gen_time_ms: 812.3456, num_tokens_out: 57 },
    '1': { stage_gen_time_ms: 2301.75, num_tokens_out: 412 },
    '2': { stage_gen_time_ms: 640.125, num_tokens_out: 0 },
  });
  assertNoSplit(r);
  assert.deepEqual(values(r.e2e), {
    e2e_time_ms: 3759.2203617095947,
    e2e_tpt: 0,
    num_tokens_out: 0,
    transfers_total_time_ms: 6.359999999999999,
    transfers_total_bytes: 1941504,
  });
  assert.deepEqual(endToEndOf(r), { ms: 3759.2203617095947, from: 'legacyDict' });
  assert.deepEqual(
    r.transfers.map((t) => [t.edge, t.tablePrinted, t.omniTimingTxState, values(t.fields)]),
    [
      [
        '0->1',
        true,
        'absent',
        {
          size_bytes: 1843200,
          size_kbytes: 1800,
          tx_time_ms: 3.21,
          in_flight_time_ms: 0.42,
          rx_decode_time_ms: 1.5,
          total_time_ms: 5.13,
          total_time_per_kb_ms: 0.00285,
        },
      ],
      [
        '1->2',
        true,
        'absent',
        {
          size_bytes: 98304,
          size_kbytes: 96,
          tx_time_ms: 0.87,
          in_flight_time_ms: 0.05,
          rx_decode_time_ms: 0.31,
          total_time_ms: 1.23,
          total_time_per_kb_ms: 0.0128125,
        },
      ],
    ],
  );
  // Over the requests: the stage summaries, end to end and edges take these numbers.
  assert.deepEqual(
    snap.stages.map((s) => [s.stageKey, s.fields['stage_gen_time_ms']?.p50]),
    [
      ['0', 812.3456],
      ['1', 2301.75],
      ['2', 640.125],
    ],
  );
  assert.equal(snap.endToEnd?.ms.p50, 3759.2203617095947);
  assert.equal(snap.endToEnd?.fromOmniTiming, 0);
  assert.deepEqual(
    snap.edges.map((e) => [e.fromStage, e.toStage, e.fields['tx_time_ms']?.p50, e.fields['total_time_ms']?.p50]),
    [
      [0, 1, 3.21, 5.13],
      [1, 2, 0.87, 1.23],
    ],
  );
  // Not "only [OmniTiming]: restart at DEBUG": this format has no tables to turn on.
  assert.equal(snap.tablesMissing, null);
  // The packed store gives the same request back (its split still not measured, not hidden).
  const a = analysis(read(OFFLINE_LOG));
  assert.deepEqual(a.requests.at(0), r);
  assert.equal(a.requests.endToEndMsAt(0), 3759.2203617095947);
  assert.equal(a.requests.stageAt(0, '1')?.split.states.prefillMs, 'notMeasured');
});

test('without --log-stats: the request_level_metrics dict alone gives the request, no edges', () => {
  const [r, ...more] = analysis(read(NO_STATS_LOG)).snapshot().requests;
  assert.deepEqual(more, []);
  assert.ok(r !== undefined);
  assert.equal(r.line, 1);
  assert.deepEqual(stageValues(r), {
    '0': { stage_gen_time_ms: 812.3456, num_tokens_out: 57 },
    '1': { stage_gen_time_ms: 2301.75, num_tokens_out: 412 },
    '2': { stage_gen_time_ms: 640.125, num_tokens_out: 0 },
  });
  assert.equal(endToEndOf(r)?.ms, 3759.2203617095947);
  assert.deepEqual(r.transfers, []);
});

test('real logs: the values of each request as pasted, cut off ones marked incomplete', () => {
  const pr1107 = analysis(read(PR1107_LOG)).snapshot().requests;
  assert.deepEqual(
    pr1107.map((r) => [r.requestId, r.complete, stageValues(r), values(r.e2e)]),
    [
      [
        'chatcmpl-8f71eb7cb1b37da6',
        false,
        { '0': { stage_gen_time_ms: 62.91389465332031, num_tokens_out: 191, num_tokens_in: 2093 } },
        {
          e2e_time_ms: 58150.07972717285,
          e2e_tpt: 20.037932366358667,
          e2e_total_tokens: 2902,
          transfers_total_time_ms: 244.57550048828125,
          transfers_total_bytes: 55386232,
        },
      ],
    ],
  );
  // Cut off as a dict, not a table: said so.
  assert.equal(
    analysis(read(PR1107_LOG))
      .snapshot()
      .findings.find((f) => f.code === 'truncated-record')?.message,
    '1 request has a stats dict that was cut off (end of input or an interrupted write); the values that were read are kept; the rest are unknown.',
  );
  const issue693 = analysis(read(ISSUE693_LOG)).snapshot().requests;
  assert.equal(issue693.length, 1);
  assert.equal(
    issue693[0]?.e2e['e2e_total_tokens']?.state === 'measured' && issue693[0].e2e['e2e_total_tokens'].value,
    1167,
  );
  // Stage 2's number is cut off in the paste (`273.30756187`): not taken, so no stage 2.
  assert.deepEqual(stageValues(issue693[0] as AnalyzedRequest), {
    '0': { stage_gen_time_ms: 70334.7053527832, num_tokens_out: 1000, num_tokens_in: 67 },
    '1': { stage_gen_time_ms: 40429.250955581665, num_tokens_out: 100 },
  });
  assert.equal(endToEndOf(issue693[0] as AnalyzedRequest)?.ms, 130157.95731544495);

  const snap = analysis(read(SUMMARY_LOG)).snapshot();
  const [r] = snap.requests;
  assert.ok(r !== undefined);
  assert.equal(r.requestId, '2_d35b752a-7243-4c3c-8ef2-191afeee9cad');
  assert.equal(r.complete, false);
  assert.deepEqual(stageValues(r), {
    '0': { stage_gen_time_ms: 52639.97459411621, num_tokens_out: 506 },
    '1': { stage_gen_time_ms: 567275.9487628937, num_tokens_out: 2043 },
    '2': { stage_gen_time_ms: 2998.4824657440186, num_tokens_out: 0 },
  });
  assert.equal(endToEndOf(r)?.ms, 655865.7915592194);
  assertNoSplit(r);
  // The negative transfers_total_time_ms is kept as printed and found to be no time.
  assert.deepEqual(values(r.e2e)['transfers_total_time_ms'], -154.68335151672363);
  assert.ok(snap.findings.some((f) => f.code === 'negative-interval'));

  // A summary dict alone names no request.
  assert.equal(analysis(read(SUMMARY_DICT_LOG)).snapshot().requestCount, 0);
});

test('the finding: what is read and that there is no phase split, in the snapshot, the live summary and JSON', () => {
  const a = analysis(read(OFFLINE_LOG));
  const snap = a.snapshot();
  const f = snap.findings.find((x) => x.code === 'legacy-stats-format');
  assert.equal(f?.severity, 'warning');
  assert.equal(
    f?.message,
    "The log has 14 stats dicts in vLLM-Omni's format before February 2026 (request_level_metrics, transfer and [Summary] dicts, printed at INFO): 1 request is read from its request_level_metrics dicts (each stage's stage_gen_time_ms and token counts, the end-to-end time (e2e_time_ms), the transfer totals and each edge's transfer_total_stats), with no queued / prefill / decode / TTFT split: that format prints none. For a phase split, a current vLLM-Omni (February 2026 or later) prints [StageRequestStats] tables with --log-stats at VLLM_LOGGING_LEVEL=DEBUG.",
  );
  assert.deepEqual(
    a.summary().findings.map((x) => x.code),
    ['legacy-stats-format'],
  );
  const json = analysisJsonRest(snap, [], []);
  assert.equal(json.legacyRecords, 14);
  assert.equal(json.legacyRequests, 1);
  assert.equal(
    legacyStatsNote(snap.legacyRecords, snap.legacyRequests),
    "the input has 14 stats dicts in vLLM-Omni's format before February 2026: 1 request read from them, with no phase split (that format prints none: the split columns are empty); a current vLLM-Omni (February 2026 or later) prints [StageRequestStats] tables with --log-stats at VLLM_LOGGING_LEVEL=DEBUG",
  );
  const none = analysis(read(SUMMARY_DICT_LOG)).snapshot();
  assert.match(
    none.findings.find((x) => x.code === 'legacy-stats-format')?.message ?? '',
    /none of them is a request_level_metrics dict, so no request is read from them\./,
  );
  assert.match(
    legacyStatsNote(none.legacyRecords, none.legacyRequests) ?? '',
    /: no request_level_metrics dict, so no request;/,
  );
});

test('the table: what is shown and what is not, once, then each stage time, the end to end and the transfer totals', () => {
  const snap = analysis(read(OFFLINE_LOG)).snapshot();
  const lines = tableReport(snap, { source: 'x.log' });
  const text = lines.join(' ');
  assert.equal(text.split("vLLM-Omni's format before February 2026").length - 1, 1);
  assert.match(
    text,
    /1 request is read from its request_level_metrics dicts .* with no queued \/ prefill \/ decode \/ TTFT split/,
  );
  assert.doesNotMatch(text, /Findings:|No per-request stage statistics|\[OmniTiming\] lines/);
  const at = lines.indexOf(
    'Stage time (stage_gen_time_ms), end to end (e2e_time_ms) and transfers (transfers_total_time_ms; size: transfers_total_bytes in KB) from the request_level_metrics dicts, ms (no phase split in that format; over measured values only)',
  );
  assert.ok(at > 0);
  assert.deepEqual(
    lines.slice(at + 3, at + 9).map((l) => l.trim().split(/\s{2,}/)),
    [
      ['stage 0', '1', '812.3', '812.3', '812.3', '812.3'],
      ['stage 1', '1', '2,302', '2,302', '2,302', '2,302'],
      ['stage 2', '1', '640.1', '640.1', '640.1', '640.1'],
      ['end to end', '1', '3,759', '3,759', '3,759', '3,759'],
      // transfers_total_time_ms 6.36; transfers_total_bytes 1941504 = 1,896 KB.
      ['transfers (total per request)', '1', '6.360', '6.360', '6.360', '6.360'],
      ['size, KB', '1', '1,896', '1,896', '1,896', '1,896'],
    ],
  );
  assert.deepEqual(snap.endToEnd?.transfersTotal, {
    timeMs: {
      count: 1,
      mean: 6.359999999999999,
      p50: 6.359999999999999,
      p90: 6.359999999999999,
      p99: 6.359999999999999,
      max: 6.359999999999999,
    },
    kbytes: { count: 1, mean: 1896, p50: 1896, p90: 1896, p99: 1896, max: 1896 },
    requests: 1,
    timeNotATime: 0,
  });
});

test('legacy dicts next to current records: an info finding, each request read its own way; no dicts: none', () => {
  const current = read(CURRENT_LOG);
  const both = analysis(read(NO_STATS_LOG) + current).snapshot();
  assert.equal(both.requestCount, 7);
  assert.equal(both.legacyRequests, 1);
  const f = both.findings.find((x) => x.code === 'legacy-stats-format');
  assert.equal(f?.severity, 'info');
  // The [OmniTiming] requests are the ones without tables; the legacy one is not counted with them.
  assert.equal(both.tablesMissing?.requests, 6);
  assert.equal(both.tablesMissing?.of, 7);
  const table = tableReport(both, { source: 'x.log' }).join('\n');
  assert.match(table, /\[info\] legacy-stats-format: The log has 2 stats dicts/);
  const none = analysis(current).snapshot();
  assert.equal(none.legacyRecords, 0);
  assert.equal(none.legacyRequests, 0);
  assert.equal(
    none.findings.some((x) => x.code === 'legacy-stats-format'),
    false,
  );
  assert.equal(analysis('').snapshot().findings.length, 0);
});

test('a hostile stage key (__proto__) is no field and sets no prototype', () => {
  const text = [
    "INFO 01-08 00:44:53 [log_utils.py:549] {'type': 'request_level_metrics',",
    "INFO 01-08 00:44:53 [log_utils.py:549]  'request_id': 'req-hostile',",
    "INFO 01-08 00:44:53 [log_utils.py:549]  'e2e_time_ms': 12.5,",
    "INFO 01-08 00:44:53 [log_utils.py:549]  'stages': {0: {'stage_gen_time_ms': 10.0, '__proto__': 7}}}",
    '',
  ].join('\n');
  const [r] = analysis(text).snapshot().requests;
  assert.ok(r !== undefined);
  const fields = r.stages[0]?.fields as FieldMap;
  assert.equal(Object.getPrototypeOf(fields), Object.prototype);
  assert.deepEqual(values(fields), { stage_gen_time_ms: 10 });
});

test('the side panel says why a legacy stage has no phase: the format, not a printed None alone', () => {
  const snapshot = analysis(read(OFFLINE_LOG)).snapshot();
  const model = summaryModel(summaryResultOf(snapshot), 'p50', {});
  const prefill = model.rows.find((r) => r.key === '0')?.cells['prefillMs'];
  assert.equal(prefill?.state, 'notMeasured');
  assert.match(prefill?.title ?? '', /format before February 2026 prints no phase split/);
  assert.equal(model.rows.find((r) => r.key === '0')?.cells['field:stage_gen_time_ms']?.text, '812');
});
