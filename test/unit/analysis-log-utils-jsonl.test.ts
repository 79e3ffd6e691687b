// The JSON lines log_utils.py of vLLM-Omni before February 2026 appends to files of their own
// (`<log file>.overall.stats.jsonl`, `.orchestrator.stats.jsonl`): read by content as the
// request_level_metrics dicts are, a broken line a counted problem, a null not measured.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { StreamAnalysis } from '../../server/core/analysis/streamAnalysis';
import { LogStreamParser } from '../../server/core/log';
import type { AnalyzedRequest } from '../../server/core/analysis/types';
import { cellToJson, type FieldMap } from '../../server/core/values';
import { readPythonLiteral } from '../../server/core/log/pythonLiteral';
import { analysedStream } from './support/analysedLog';
import { assertLinear } from './support/linearity';
import { summaryResultOf } from './support/summaryResult';
import { legacyStatsOnly, timingModel } from '../../webview/sidePanel/timingModel';
import { edgeModel } from '../../webview/sidePanel/edgeModel';

const LOGS = path.join(__dirname, '../fixtures/logs');
const OVERALL = path.join(LOGS, 'log-utils-overall.stats.jsonl');
const ORCHESTRATOR = path.join(LOGS, 'log-utils-orchestrator.stats.jsonl');
const FIRST = '0_5d0b5a4e-7c1f-4d8e-9a43-2f6c1b7e9d10';
const SECOND = '1_a81f3c22-0b6e-4f7a-8d5c-6e2a9f41c3b7';

const analysis = (text: string): StreamAnalysis => analysedStream(Buffer.from(text));

function values(fields: FieldMap): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k in fields) out[k] = cellToJson(fields[k] as FieldMap[string]);
  return out;
}

function byId(requests: readonly AnalyzedRequest[], id: string): AnalyzedRequest {
  const r = requests.find((q) => q.requestId === id);
  assert.ok(r !== undefined, `request ${id}`);
  return r;
}

test('overall file: each overall_request is a request with its stages, end to end and transfer totals', () => {
  const a = analysis(fs.readFileSync(OVERALL, 'utf8'));
  const snap = a.snapshot();
  assert.equal(snap.legacyRecords, 3);
  assert.equal(snap.legacyJsonRecords, 3);
  assert.equal(snap.legacyRequests, 2);
  assert.deepEqual(snap.problems, []);
  const r = byId(a.snapshot().requests, FIRST);
  assert.equal(r.legacyDict, true);
  assert.equal(r.complete, true);
  assert.deepEqual(
    r.stages.map((s) => [s.stageKey, values(s.fields)]),
    [
      ['0', { stage_gen_time_ms: 412.25, num_tokens_out: 96 }],
      ['1', { stage_gen_time_ms: 1103.75, num_tokens_out: 512 }],
    ],
  );
  const e2e = values(r.e2e);
  assert.equal(e2e['e2e_time_ms'], 1712.5);
  assert.equal(e2e['transfers_total_time_ms'], 11.5);
  assert.equal(e2e['transfers_total_bytes'], 2457600);
  assert.equal(e2e['num_tokens_out'], 512);
  // The final stage's id names a stage: no measured value.
  assert.equal(e2e['final_stage_id'], undefined);
  for (const s of r.stages) assert.equal(s.split.states.prefillMs, 'notMeasured');
  assert.equal(values(byId(a.snapshot().requests, SECOND).e2e)['e2e_time_ms'], 2405);
  // overall_summary: the run's figures, without one value per request.
  const kept = snap.runSummaries?.kept ?? [];
  assert.equal(kept.length, 1);
  assert.equal(kept[0]?.format, 'log_utils overall_summary');
  assert.equal(kept[0]?.values['e2e_requests'], 2);
  assert.equal(kept[0]?.values['stages.1.service_time_ms'], 2594.25);
  assert.equal(
    Object.keys(kept[0]?.values ?? {}).some((k) => k.startsWith('final_stage_id')),
    false,
  );
  const finding = snap.findings.find((f) => f.code === 'legacy-stats-format');
  assert.ok(finding !== undefined);
  assert.match(finding.message, /^The input has 3 JSON records of the stats files log_utils\.py/);
  assert.doesNotMatch(finding.message, /printed at INFO/);
});

test('orchestrator file: end to end per request with the edges of its transfer_total_stats records', () => {
  const a = analysis(fs.readFileSync(ORCHESTRATOR, 'utf8'));
  assert.equal(a.snapshot().legacyRequests, 2);
  const r = byId(a.snapshot().requests, SECOND);
  assert.deepEqual(r.stages, []);
  assert.deepEqual(values(r.e2e), { e2e_time_ms: 2405, num_tokens_out: 688, e2e_time_per_token_ms: 3.495639534883721 });
  const edge = r.transfers.find((e) => e.edge === '0->1');
  assert.ok(edge !== undefined);
  assert.deepEqual(values(edge.fields), {
    size_bytes: 3276800,
    tx_time_ms: 8.5,
    in_flight_time_ms: 2,
    rx_decode_time_ms: 4.5,
    total_time_ms: 15,
    total_time_per_kb_ms: 0.0046875,
    size_kbytes: 3200,
  });
});

/** The request both files describe: the overall file's stages and split, the orchestrator file's edge and per-token time. */
function assertJoinedFirst(r: AnalyzedRequest): void {
  assert.equal(r.repeat, undefined);
  assert.equal(r.complete, true);
  assert.deepEqual(
    r.stages.map((s) => [s.stageKey, values(s.fields)]),
    [
      ['0', { stage_gen_time_ms: 412.25, num_tokens_out: 96 }],
      ['1', { stage_gen_time_ms: 1103.75, num_tokens_out: 512 }],
    ],
  );
  assert.deepEqual(values(r.e2e), {
    e2e_time_ms: 1712.5,
    num_tokens_out: 512,
    service_time_ms: 1516,
    transfer_time_ms: 11.5,
    queue_time_ms: 185,
    transfers_total_time_ms: 11.5,
    transfers_total_bytes: 2457600,
    e2e_time_per_token_ms: 3.3447265625,
  });
  const edge = r.transfers.find((e) => e.edge === '0->1');
  assert.deepEqual(values(edge?.fields ?? {})['total_time_ms'], 11.5);
  assert.deepEqual(values(edge?.fields ?? {})['tx_time_ms'], 6.25);
}

for (const [name, files] of [
  ['overall file then orchestrator file', [OVERALL, ORCHESTRATOR]],
  ['orchestrator file then overall file', [ORCHESTRATOR, OVERALL]],
] as const) {
  test(`the two files as one input (${name}): each request once, its two records joined`, () => {
    const a = analysis(files.map((f) => fs.readFileSync(f, 'utf8')).join(''));
    const snap = a.snapshot();
    assert.deepEqual(
      snap.requests.map((r) => r.requestId),
      [FIRST, SECOND],
    );
    assert.equal(snap.legacyRequests, 2);
    assert.equal(snap.legacyJsonRecords, 12);
    assertJoinedFirst(byId(snap.requests, FIRST));
    const second = byId(snap.requests, SECOND);
    assert.equal(values(second.e2e)['e2e_time_ms'], 2405);
    assert.equal(values(second.stages[1]?.fields ?? {})['stage_gen_time_ms'], 1490.5);
    assert.equal(values(second.transfers.find((e) => e.edge === '0->1')?.fields ?? {})['total_time_ms'], 15);
    // Each request counted once: the end to end over 1712.5 and 2405, no repeat.
    assert.deepEqual([snap.endToEnd?.ms.count, snap.endToEnd?.ms.p50, snap.endToEnd?.ms.max], [2, 2058.75, 2405]);
    assert.equal(snap.edges[0]?.requestCount, 2);
    assert.deepEqual(
      snap.findings.map((f) => f.code),
      ['legacy-stats-format'],
    );
    const finding = snap.findings[0]?.message ?? '';
    assert.match(
      finding,
      /2 requests are read from its overall_request and orchestrator_request_e2e records \(2 requests from both files, each one's overall_request and orchestrator_request_e2e joined into one request/,
    );
    assert.doesNotMatch(finding, /The two files of one run read as one input/);
  });
}

test('one file alone: the finding says the other one, given with it, joins each request', () => {
  const finding = analysis(fs.readFileSync(ORCHESTRATOR, 'utf8'))
    .snapshot()
    .findings.find((f) => f.code === 'legacy-stats-format');
  assert.match(
    finding?.message ?? '',
    /The two files of one run read as one input \(cat <log file>\.overall\.stats\.jsonl <log file>\.orchestrator\.stats\.jsonl \| stage-lens analyze -\) give each request once/,
  );
});

test('a file read twice is still a repeat: the same record kind twice for an id is two requests', () => {
  const overall = fs.readFileSync(OVERALL, 'utf8');
  const twice = analysis(overall + overall).snapshot();
  assert.deepEqual(
    twice.requests.map((r) => [r.requestId, r.repeat ?? null]),
    [
      [FIRST, null],
      [SECOND, null],
      [`${FIRST}#2`, 'first'],
      [`${SECOND}#2`, 'first'],
    ],
  );
  assert.ok(twice.findings.some((f) => f.code === 'repeated-request-ids'));
  // Both files, twice over: each pair joined, the second pair a repeat of the first.
  const pair = overall + fs.readFileSync(ORCHESTRATOR, 'utf8');
  const pairs = analysis(pair + pair).snapshot();
  assert.deepEqual(
    pairs.requests.map((r) => [r.requestId, r.repeat ?? null, r.stages.length, r.transfers.length]),
    [
      [FIRST, null, 2, 1],
      [SECOND, null, 2, 1],
      [`${FIRST}#2`, 'first', 2, 1],
      [`${SECOND}#2`, 'first', 2, 1],
    ],
  );
  assert.ok(pairs.findings.some((f) => f.code === 'repeated-request-ids'));
});

test('joined values: a None never replaces a number; where both measure, the overall_request wins', () => {
  const text = [
    '{"type": "overall_request", "request_id": "7", "final_stage_id": 1, "e2e_time_ms": null, "num_tokens_out": 12, "stages": {"0": {"stage_gen_time_ms": 10.0, "num_tokens_out": 12}}}',
    '{"type": "overall_request", "request_id": "8", "final_stage_id": 1, "e2e_time_ms": 55.0, "num_tokens_out": 4, "stages": {"0": {"stage_gen_time_ms": 30.0, "num_tokens_out": 4}}}',
    '{"type": "orchestrator_request_e2e", "request_id": 7, "final_stage_id": 1, "e2e_time_ms": 40.0, "num_tokens_out": null, "e2e_time_per_token_ms": null}',
    '{"type": "orchestrator_request_e2e", "request_id": 8, "final_stage_id": 1, "e2e_time_ms": 56.0, "num_tokens_out": 4, "e2e_time_per_token_ms": 14.0}',
  ].join('\n');
  const snap = analysis(text).snapshot();
  assert.deepEqual(
    snap.requests.map((r) => [r.requestId, values(r.e2e)]),
    [
      ['7', { e2e_time_ms: 40, num_tokens_out: 12, e2e_time_per_token_ms: null }],
      ['8', { e2e_time_ms: 55, num_tokens_out: 4, e2e_time_per_token_ms: 14 }],
    ],
  );
  assert.equal(snap.requests[0]?.e2e['e2e_time_per_token_ms']?.state, 'notMeasured');
});

test('side panel of the orchestrator file: the end-to-end row and the edge, the numbers the CLI prints', () => {
  const summary = summaryResultOf(analysis(fs.readFileSync(ORCHESTRATOR, 'utf8')).snapshot());
  assert.deepEqual(summary.stages, []);
  assert.equal(legacyStatsOnly(summary), true);
  const model = timingModel(summary, 'p50', {}, legacyStatsOnly(summary));
  // The CLI's `end to end  2  2,059  2,336  2,398  2,405` and `time per token  2  3.420  3.481  3.494  3.496` rows.
  assert.deepEqual(
    model.rows.map((r) => [r.label, r.requestCount, r.cells['time']?.text, r.cells['time']?.value]),
    [
      ['end to end', 2, '2,059', 2058.75],
      ['time per token', 2, '3.42', 3.4201830486918605],
    ],
  );
  assert.deepEqual(
    timingModel(summary, 'p90', {}, true).rows.map((r) => r.cells['time']?.value),
    [2335.75, 3.480548237645349],
  );
  const edges = edgeModel(summary.edges ?? [], 'p50', {});
  assert.deepEqual(
    edges.rows.map((r) => [r.label, r.cells['field:total_time_ms']?.value, r.cells['field:tx_time_ms']?.value]),
    [['0 → 1', 13.25, 7.375]],
  );
});

test('past 100,000 requests waiting, a record is read alone: only the requests past that are read twice', () => {
  const n = 100_002;
  const lines: string[] = [];
  for (let i = 0; i < n; i++)
    lines.push(
      `{"type": "overall_request", "request_id": "r${i}", "e2e_time_ms": 100.0, "stages": {"0": {"stage_gen_time_ms": 10.0}}}`,
    );
  for (let i = 0; i < n; i++)
    lines.push(
      `{"type": "orchestrator_request_e2e", "request_id": "r${i}", "e2e_time_ms": 100.0, "num_tokens_out": 3}`,
    );
  const snap = analysis(lines.join('\n')).snapshot();
  assert.equal(snap.requestCount, n + 2);
  const repeats = snap.requests.filter((r) => r.repeat !== undefined).map((r) => r.requestId);
  assert.deepEqual(repeats, ['r100000#2', 'r100001#2']);
  const joined = snap.requests.find((r) => r.requestId === 'r99999');
  assert.deepEqual(values(joined?.e2e ?? {}), { e2e_time_ms: 100, num_tokens_out: 3 });
  assert.equal(joined?.stages.length, 1);
});

test('a live stream of one file: a record waiting for its other one comes out when the stream goes quiet', () => {
  const a = new StreamAnalysis();
  const parser = new LogStreamParser();
  assert.deepEqual(a.ingest(parser.push(fs.readFileSync(ORCHESTRATOR))), []);
  // Quiet: the orchestrator file is being written alone, so its requests are shown as they are.
  assert.deepEqual(
    a.flushIdle([parser]).map((r) => [r.requestId, values(r.e2e)['e2e_time_ms']]),
    [
      [FIRST, 1712.5],
      [SECOND, 2405],
    ],
  );
  assert.equal(a.requestCount, 2);
  assert.deepEqual(a.flush(), []);
});

test('a broken line is a counted problem and the lines after it are still read', () => {
  const lines = fs.readFileSync(OVERALL, 'utf8').split('\n');
  // Line 2 cut mid-write (the process died), line 3 not JSON past its start.
  const broken = [
    lines[0],
    (lines[1] as string).slice(0, (lines[1] as string).indexOf('"service_time_ms"')),
    '{"type": "overall_request", "request_id": "x", "e2e_time_ms": oops}',
    lines[2],
    lines[3],
  ].join('\n');
  const a = analysis(broken);
  const snap = a.snapshot();
  assert.equal(snap.problems.length, 2);
  assert.match(
    snap.problems[0]?.message ?? '',
    /overall_request JSON line .* starting at line 2 was cut off at line 2/,
  );
  assert.match(snap.problems[1]?.message ?? '', /overall_request JSON line .* starting at line 3 could not be read/);
  // The cut request keeps what was read, marked incomplete; the whole one after it is read whole.
  const cut = byId(a.snapshot().requests, FIRST);
  assert.equal(cut.complete, false);
  assert.equal(values(cut.e2e)['e2e_time_ms'], 1712.5);
  assert.equal(byId(a.snapshot().requests, SECOND).complete, true);
  assert.equal(snap.runSummaries?.count, 1);
});

test('null is an explicit None, never 0; an integer request id names the same request as its text', () => {
  const text = [
    '{"type": "transfer_total_stats", "from_stage": 0, "to_stage": 1, "request_id": 7, "size_bytes": 2048, "tx_time_ms": 1.5, "in_flight_time_ms": null, "rx_decode_time_ms": 0.5, "total_time_ms": 2.0, "total_time_per_kb_ms": 1.0}',
    '{"type": "overall_request", "request_id": "7", "final_stage_id": 1, "e2e_time_ms": 40.0, "num_tokens_out": null, "transfers_total_time_ms": 2.0, "transfers_total_bytes": 2048, "stages": {"0": {"stage_gen_time_ms": 10.0, "num_tokens_out": null}, "1": {"stage_gen_time_ms": 20.0, "num_tokens_out": 3}}}',
  ].join('\n');
  const a = analysis(text);
  const r = byId(a.snapshot().requests, '7');
  assert.equal(values(r.e2e)['num_tokens_out'], null);
  assert.equal(r.e2e['num_tokens_out']?.state, 'notMeasured');
  assert.deepEqual(values(r.stages[0]?.fields ?? {}), { stage_gen_time_ms: 10, num_tokens_out: null });
  const edge = r.transfers.find((e) => e.edge === '0->1');
  assert.ok(edge !== undefined);
  assert.equal(edge.fields['in_flight_time_ms']?.state, 'notMeasured');
  assert.equal(values(edge.fields)['tx_time_ms'], 1.5);
});

test('JSON words and escapes read as Python literals read', () => {
  const read = readPythonLiteral('{"a": null, "b": true, "c": NaN, "d": -Infinity, "e": "caf\\u00e9", "f": -inf}');
  assert.equal(read.complete, true);
  assert.deepEqual(read.values, { a: 'None', b: 'True', c: NaN, d: -Infinity, e: 'café', f: -Infinity });
  // A bare word JSON does not have ends a JSON value there; a Python literal keeps it (an enum).
  assert.equal(readPythonLiteral('{"a": 1, "b": Stage.AR, "c": 2}', undefined, true).complete, false);
  assert.equal(readPythonLiteral("{'a': 1, 'b': Stage.AR, 'c': 2}").values['b'], 'Stage.AR');
});

test("another program's JSON lines with a type are no stats records", () => {
  const a = analysis('{"type": "request", "request_id": "a", "e2e_time_ms": 5}\n{"type": "overall_requests"}\n');
  const snap = a.snapshot();
  assert.equal(snap.legacyRecords, 0);
  assert.equal(snap.requestCount, 0);
});

test('reading is linear in the number of lines, broken or not', () => {
  const good = fs.readFileSync(OVERALL, 'utf8').split('\n')[1] as string;
  const line = (i: number): string => (i % 3 === 0 ? good.slice(0, 90) : good.replace(FIRST, `r${i}`));
  assertLinear(
    'log_utils.py JSON lines, every third one cut',
    (n) => Array.from({ length: n }, (_, i) => line(i)).join('\n'),
    (text) => analysis(text).snapshot(),
    { start: 64, maxN: 65_536 },
  );
});
