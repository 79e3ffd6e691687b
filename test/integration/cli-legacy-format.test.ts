// A log in vLLM-Omni's format before February 2026 through the built CLI: its requests' values in
// JSON, CSV and the table, and in each the word that the format has no phase split.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { runCli as cli } from './support/cliProcess';

const ROOT = path.resolve(__dirname, '..', '..');
// One request_level_metrics dict (vllm-omni#1107).
const LEGACY = path.join(ROOT, 'test', 'fixtures', 'real-logs', '06-pr1107-legacy-log_utils-request_level_metrics.log');

const FIX =
  'a current vLLM-Omni (February 2026 or later) prints [StageRequestStats] tables with --log-stats at VLLM_LOGGING_LEVEL=DEBUG';
// Rendered by upstream's unmodified log_utils.py: one request, three stages, two edges.
const OFFLINE = path.join(ROOT, 'test', 'fixtures', 'logs', 'legacy-offline-one-request.log');

interface CellJson {
  [name: string]: number | string | null;
}

test('--format json: the request with its stage values, end to end and edges; split not measured', () => {
  const out = cli(['analyze', OFFLINE, '--format', 'json']);
  assert.equal(out.status, 0, out.stderr);
  const j = JSON.parse(out.stdout) as {
    legacyRecords: number;
    legacyRequests: number;
    findings: { code: string; severity: string; message: string }[];
    requests: {
      requestId: string;
      stageTable: boolean;
      e2e: CellJson;
      stages: Record<string, { fields: CellJson; splitState: Record<string, string>; split: CellJson }>;
      transfers: Record<string, { fields: CellJson }>;
    }[];
  };
  assert.equal(j.legacyRecords, 14);
  assert.equal(j.legacyRequests, 1);
  assert.deepEqual(
    j.findings.map((f) => [f.code, f.severity]),
    [['legacy-stats-format', 'warning']],
  );
  assert.ok(j.findings[0]?.message.endsWith(`For a phase split, ${FIX}.`));
  const [r, ...more] = j.requests;
  assert.deepEqual(more, []);
  assert.equal(r?.requestId, '0_3f1c9a2e-5b7d-4c1e-9a8f-2d6e4b1c7a90');
  assert.equal(r?.stageTable, false);
  assert.deepEqual(r?.e2e, {
    e2e_time_ms: 3759.2203617095947,
    e2e_tpt: 0,
    num_tokens_out: 0,
    transfers_total_time_ms: 6.359999999999999,
    transfers_total_bytes: 1941504,
  });
  assert.deepEqual(
    Object.entries(r?.stages ?? {}).map(([k, s]) => [k, s.fields]),
    [
      ['0', { stage_gen_time_ms: 812.3456, num_tokens_out: 57 }],
      ['1', { stage_gen_time_ms: 2301.75, num_tokens_out: 412 }],
      ['2', { stage_gen_time_ms: 640.125, num_tokens_out: 0 }],
    ],
  );
  for (const s of Object.values(r?.stages ?? {})) {
    assert.deepEqual(new Set(Object.values(s.splitState)), new Set(['notMeasured']));
    assert.deepEqual(new Set(Object.values(s.split)), new Set([null]));
  }
  assert.deepEqual(r?.transfers['0->1']?.fields, {
    size_bytes: 1843200,
    size_kbytes: 1800,
    tx_time_ms: 3.21,
    in_flight_time_ms: 0.42,
    rx_decode_time_ms: 1.5,
    total_time_ms: 5.13,
    total_time_per_kb_ms: 0.00285,
  });
  assert.deepEqual(r?.transfers['1->2']?.fields, {
    size_bytes: 98304,
    size_kbytes: 96,
    tx_time_ms: 0.87,
    in_flight_time_ms: 0.05,
    rx_decode_time_ms: 0.31,
    total_time_ms: 1.23,
    total_time_per_kb_ms: 0.0128125,
  });
});

test('--format csv: a row per stage with its values and the split not measured, a row per edge, and one line on stderr', () => {
  const out = cli(['analyze', OFFLINE, '--format', 'csv']);
  assert.equal(out.status, 0, out.stderr);
  const [header, ...rows] = out.stdout.trim().split('\n');
  const names = (header ?? '').split(',');
  const cell = (row: string | undefined, name: string): string | undefined => row?.split(',')[names.indexOf(name)];
  assert.equal(rows.length, 5);
  assert.deepEqual(
    rows
      .slice(0, 3)
      .map((row) => [
        cell(row, 'stage'),
        cell(row, 'stage_gen_time_ms'),
        cell(row, 'num_tokens_out'),
        cell(row, 'prefillMs'),
        cell(row, 'prefillMs_state'),
      ]),
    [
      ['0', '812.3456', '57', 'notMeasured', 'notMeasured'],
      ['1', '2301.75', '412', 'notMeasured', 'notMeasured'],
      ['2', '640.125', '0', 'notMeasured', 'notMeasured'],
    ],
  );
  assert.deepEqual(
    rows
      .slice(3)
      .map((row) => [
        cell(row, 'stage'),
        cell(row, 'tx_time_ms'),
        cell(row, 'in_flight_time_ms'),
        cell(row, 'rx_decode_time_ms'),
      ]),
    [
      ['0->1', '3.21', '0.42', '1.5'],
      ['1->2', '0.87', '0.05', '0.31'],
    ],
  );
  assert.equal(
    out.stderr,
    `stage-lens analyze: the input has 14 stats dicts in vLLM-Omni's format before February 2026: 1 request read from them, with no phase split (that format prints none: the split columns are empty); ${FIX}\n` +
      "stage-lens analyze: the input has 1 run summary (the latest: omni.py's [Summary] dict (vLLM-Omni before February 2026), line 108): the run's totals, no request's, so none of the CSV's rows holds them (its rows are the requests'); --format table shows the latest as printed, --format json the latest 1 (runSummaries)\n",
  );
  // A summary dict alone: no row, and the stderr says where its totals are.
  const summaryOnly = cli([
    'analyze',
    path.join(ROOT, 'test', 'fixtures', 'real-logs', '14-issue533-legacy-summary-dict.log'),
    '--format',
    'csv',
  ]);
  assert.equal(summaryOnly.stdout.trim().split('\n').length, 1);
  assert.match(
    summaryOnly.stderr,
    /\nstage-lens analyze: the input has 1 run summary \(the latest: the single-line summary dict \(vLLM-Omni, December 2025\), line 2\): the run's totals, no request's, so no CSV row; --format table shows the latest as printed/,
  );
  // Empty stdin is said to be empty (no legacy-format note), and nothing was read: exit 2.
  const empty = cli(['analyze', '-', '--format', 'csv'], { input: '' });
  assert.equal(empty.stderr, 'stage-lens analyze: nothing in stdin was read: it is empty (0 bytes)\n');
  assert.equal(empty.status, 2);
});

test('--format table: what is shown and what is not once, then the stage times and end to end; no findings list repeating it', () => {
  const out = cli(['analyze', OFFLINE]).stdout;
  const joined = out.replace(/\n(?=\S)/g, ' ');
  assert.equal(joined.split('The log has 14 stats dicts').length - 1, 1);
  assert.match(joined, /with no queued \/ prefill \/ decode \/ TTFT split: that format prints none/);
  assert.doesNotMatch(out, /Findings:/);
  assert.match(out, /^Stage Lens: 1 request, 3 stages from /);
  assert.match(out, /\nstage 0 +1 +812\.3 /);
  assert.match(out, /\nstage 1 +1 +2,302 /);
  assert.match(out, /\nstage 2 +1 +640\.1 /);
  assert.match(out, /\nend to end +1 +3,759 /);
});

test('a real cut-off paste (vllm-omni#1107): its request and values reach the JSON', () => {
  const j = JSON.parse(cli(['analyze', LEGACY, '--format', 'json']).stdout) as {
    requests: { requestId: string; complete: boolean; e2e: CellJson; stages: Record<string, { fields: CellJson }> }[];
  };
  assert.deepEqual(
    j.requests.map((r) => [
      r.requestId,
      r.complete,
      r.e2e['e2e_time_ms'],
      r.e2e['e2e_total_tokens'],
      r.stages['0']?.fields,
    ]),
    [
      [
        'chatcmpl-8f71eb7cb1b37da6',
        false,
        58150.07972717285,
        2902,
        { stage_gen_time_ms: 62.91389465332031, num_tokens_out: 191, num_tokens_in: 2093 },
      ],
    ],
  );
});

test('explain and compare read the same requests as analyze: end to end from e2e_time_ms', () => {
  const NO_STATS = path.join(ROOT, 'test', 'fixtures', 'logs', 'legacy-offline-without-log-stats.log');
  const compared = cli(['compare', OFFLINE, NO_STATS, '--format', 'json']);
  assert.equal(compared.status, 0, compared.stderr);
  const c = JSON.parse(compared.stdout) as {
    baseline: { requestCount: number };
    candidate: { requestCount: number };
    metrics: { scope: string; stageId: number | null; metric: string; baseline: { p50: number | null } | null }[];
  };
  assert.equal(c.baseline.requestCount, 1);
  assert.equal(c.candidate.requestCount, 1);
  const e2e = c.metrics.find((m) => m.scope === 'request' && m.metric === 'e2e');
  // The same value, at the log's precision (compare's JSON, 3 decimals): e2e_time_ms 3759.2203617095947.
  assert.equal(e2e?.baseline?.p50, 3759.22);

  const explained = cli(['explain', OFFLINE, '--format', 'json']);
  assert.equal(explained.status, 0, explained.stderr);
  assert.doesNotMatch(explained.stdout, /No target to explain/);
  const x = JSON.parse(explained.stdout) as {
    targets: string[];
    tail: unknown[];
    oneRequest: { target: string; requestId: string; valueMs: number }[];
  };
  assert.deepEqual(x.targets, ['e2e']);
  // One request is no tail: its value is said with it.
  assert.deepEqual(x.tail, []);
  assert.equal(x.oneRequest[0]?.target, 'e2e');
  assert.equal(x.oneRequest[0]?.valueMs, 3759.2204);
});

test('a run summary value printed as None: "not measured (None)" in the table, null in the JSON; a nan is its text', () => {
  const log = path.join(ROOT, 'test', 'fixtures', 'logs', 'legacy-summary-none.log');
  const table = cli(['analyze', log]);
  assert.equal(table.status, 0, table.stderr);
  const lines = table.stdout.split('\n');
  const rowOf = (field: string) => lines.find((l) => l.startsWith(`${field} `))?.replace(/\s{2,}/g, ' | ');
  assert.equal(rowOf('e2e_avg_tokens_per_s'), 'e2e_avg_tokens_per_s | not measured (None)');
  // Its stages list skips stage 1: entry 1 is the stage_id 2 it printed.
  assert.equal(rowOf('stages.1.total_time_ms'), 'stages.1.total_time_ms | stage 2 | not measured (None)');
  assert.equal(
    rowOf('stages.1.avg_time_per_request_ms'),
    'stages.1.avg_time_per_request_ms | stage 2 | not measured (None)',
  );
  assert.equal(rowOf('stages.1.avg_tokens_per_s'), 'stages.1.avg_tokens_per_s | stage 2 | nan');
  assert.equal(rowOf('stages.0.total_time_ms'), 'stages.0.total_time_ms | stage 0 | 812.346');
  assert.equal(rowOf('final_stage_id'), undefined);
  const json = cli(['analyze', log, '--format', 'json']);
  assert.equal(json.status, 0, json.stderr);
  const j = JSON.parse(json.stdout) as { runSummaries: { count: number; kept: { values: Record<string, unknown> }[] } };
  assert.equal(j.runSummaries.count, 1);
  const values = j.runSummaries.kept[0]?.values ?? {};
  assert.equal(values['e2e_avg_tokens_per_s'], null);
  assert.equal(values['stages.1.total_time_ms'], null);
  assert.equal(values['stages.1.avg_tokens_per_s'], 'nan');
  assert.equal(values['stages.0.total_time_ms'], 812.3455047607422);
  assert.equal('final_stage_id' in values, false);
});

// Fixture 06's dict repeated with other values: five requests, one without transfer totals, one
// with a negative transfers_total_time_ms, and edge 0->1 printed for two of them.
const SEVERAL = path.join(ROOT, 'test', 'fixtures', 'logs', 'legacy-request-level-metrics-several.log');
const REAL_07 = path.join(ROOT, 'test', 'fixtures', 'real-logs', '07-issue693-legacy-log_utils.log');

/** The table's row for `label`, its cells split on the column gaps. */
function rowOf(table: string, label: string): string[] | undefined {
  const line = table.split('\n').find((l) => l.startsWith(`${label}  `));
  return line?.trim().split(/\s{2,}/);
}

test("--format table: each request's transfer totals (time and size) beside end to end, as the notice says; the real cut-off pastes", () => {
  const t06 = cli(['analyze', LEGACY]);
  assert.equal(t06.status, 0, t06.stderr);
  assert.match(t06.stdout.replace(/\n(?=\S)/g, ' '), /the transfer totals and each edge's transfer_total_stats/);
  assert.match(
    t06.stdout,
    /\nStage time \(stage_gen_time_ms\), end to end \(e2e_time_ms\) and transfers \(transfers_total_time_ms; size: transfers_total_bytes in KB\) from the request_level_metrics dicts/,
  );
  // transfers_total_time_ms 244.57550048828125; transfers_total_bytes 55386232 = 54,088 KB.
  assert.deepEqual(rowOf(t06.stdout, 'transfers (total per request)'), [
    'transfers (total per request)',
    '1',
    '244.6',
    '244.6',
    '244.6',
    '244.6',
  ]);
  assert.deepEqual(rowOf(t06.stdout, '  size, KB'), ['size, KB', '1', '54,088', '54,088', '54,088', '54,088']);
  assert.doesNotMatch(t06.stdout, /Values left out/);

  // vllm-omni#693: 10847.53 ms and 4,204,693,901 bytes (4,106,146 KB) moved in one request.
  const t07 = cli(['analyze', REAL_07]);
  assert.equal(t07.status, 0, t07.stderr);
  assert.deepEqual(rowOf(t07.stdout, 'transfers (total per request)'), [
    'transfers (total per request)',
    '1',
    '10,848',
    '10,848',
    '10,848',
    '10,848',
  ]);
  assert.deepEqual(rowOf(t07.stdout, '  size, KB'), [
    'size, KB',
    '1',
    '4,106,146',
    '4,106,146',
    '4,106,146',
    '4,106,146',
  ]);
});

test("--format table, real-logs 08: a request whose only transfers_total_time_ms is negative keeps the transfers row (no value) above its size, which is not the end to end's", () => {
  const out = cli(['analyze', path.join(ROOT, 'test', 'fixtures', 'real-logs', '08-pr500-legacy-omni-summary.log')]);
  assert.equal(out.status, 0, out.stderr);
  const lines = out.stdout.split('\n');
  const at = lines.findIndex((l) => l.startsWith('end to end  '));
  // transfers_total_time_ms -154.683 is no time; transfers_total_bytes 21851977 = 21,340 KB.
  assert.deepEqual(
    lines.slice(at, at + 3).map((l) => l.trim().split(/\s{2,}/)),
    [
      ['end to end', '1', '655,866', '655,866', '655,866', '655,866'],
      ['transfers (total per request)', '0', '-', '-', '-', '-'],
      ['size, KB', '1', '21,340', '21,340', '21,340', '21,340'],
    ],
  );
  assert.match(
    out.stdout,
    /\n {2}transfers \(total per request\): 1 of 1 request printed transfers_total_time_ms below zero, nan or inf: not a time, left out\.\n/,
  );
});

test('--format table, several requests: the totals over measured values only, what was left out counted; the edge over the requests that printed it', () => {
  const out = cli(['analyze', SEVERAL]);
  assert.equal(out.status, 0, out.stderr);
  const table = out.stdout;
  assert.match(table, /^Stage Lens: 5 requests, 2 stages from /);
  assert.deepEqual(rowOf(table, 'end to end'), ['end to end', '5', '58,150', '69,987', '72,978', '73,311']);
  // 120.5, 244.5755, 310.25: the request without the key and the negative one are not 0s.
  assert.deepEqual(rowOf(table, 'transfers (total per request)'), [
    'transfers (total per request)',
    '3',
    '244.6',
    '297.1',
    '308.9',
    '310.3',
  ]);
  // 20,000, 54,088, 80,000 and 4,000 KB (the negative time's request printed its bytes).
  assert.deepEqual(rowOf(table, '  size, KB'), ['size, KB', '4', '37,044', '72,226', '79,223', '80,000']);
  assert.match(
    table,
    /\nValues left out of the percentiles:\n {2}transfers \(total per request\): 1 of 5 requests printed no transfers_total_time_ms: left out, not counted as 0\.\n {2}transfers \(total per request\): 1 of 5 requests printed transfers_total_time_ms below zero, nan or inf: not a time, left out\.\n {2}transfers \(total per request\): 1 of 5 requests printed no transfers_total_bytes \(or not a size\): left out of the size, not counted as 0\.\n/,
  );
  // The edge's transfer_total_stats, total_time_ms included; no [OmniTiming] column in that format.
  assert.match(table, /\nTransfers per edge from the transfer_total_stats dicts, ms /);
  const header = table.split('\n').find((l) => l.startsWith('edge '));
  assert.deepEqual(header?.trim().split(/\s{2,}/), [
    'edge',
    'n',
    'table',
    'send',
    'in flight',
    'recv decode',
    'total',
    'size KB',
  ]);
  assert.deepEqual(rowOf(table, '0 → 1'), ['0 → 1', '2', '2', 'p50', '135.4', '9.375', '37.79', '182.5', '37,044']);
  assert.match(
    table,
    /\n {2}0 → 1: 3 of 5 requests printed no transfer_total_stats dict for it \(printed with --log-stats only; an edge printed twice for a request is left out\): not counted as 0\.\n/,
  );
});

test("--format json, several requests: each request's totals as printed, and their summary under endToEnd", () => {
  const out = cli(['analyze', SEVERAL, '--format', 'json']);
  assert.equal(out.status, 0, out.stderr);
  const j = JSON.parse(out.stdout) as {
    requests: { requestId: string; e2e: CellJson; transfers: Record<string, { fields: CellJson }> }[];
    endToEnd: { count: number; transfersTotal?: unknown } | null;
    edgeSummary: Record<string, { requestCount: number; fields: Record<string, { count: number; max: number }> }>;
  };
  assert.deepEqual(
    j.requests.map((r) => [
      r.requestId,
      r.e2e['transfers_total_time_ms'],
      r.e2e['transfers_total_bytes'],
      Object.keys(r.transfers),
    ]),
    [
      ['chatcmpl-8f71eb7cb1b37da6', 244.57550048828125, 55386232, ['0->1']],
      ['chatcmpl-1a2b3c4d5e6f7081', 120.5, 20480000, ['0->1']],
      ['chatcmpl-92ab43cd54ef6501', 310.25, 81920000, []],
      ['chatcmpl-0c1d2e3f4a5b6c7d', undefined, undefined, []],
      ['chatcmpl-77aa88bb99cc00dd', -154.68335151672363, 4096000, []],
    ],
  );
  assert.equal(j.endToEnd?.count, 5);
  assert.deepEqual(j.endToEnd?.transfersTotal, {
    timeMs: { count: 3, mean: 225.109, p50: 244.576, p90: 297.115, p99: 308.937, max: 310.25 },
    kbytes: { count: 4, mean: 39522.029, p50: 37044.059, p90: 72226.435, p99: 79222.644, max: 80000 },
    requests: 5,
    timeNotATime: 1,
  });
  assert.equal(j.edgeSummary['0->1']?.requestCount, 2);
  assert.equal(j.edgeSummary['0->1']?.fields['total_time_ms']?.max, 244.57);
});
