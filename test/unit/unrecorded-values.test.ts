// Printed numbers that are not measurements (server/core/analysis/unrecordedValues.ts), read
// from real logs by the core: what the language server's histogram query and the webviews'
// cells and hovers make of them. Never binned, never averaged, shown with their reason.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { LogStreamParser } from '../../server/core/log';
import { StreamAnalysis, type AnalysisSnapshot } from '../../server/core/analysis/streamAnalysis';
import { histogramOf } from '../../server/capture/requestQueries';
import {
  endToEndCellView,
  endToEndView,
  fieldCellView,
  fieldValueView,
  splitValueView,
  summaryFieldView,
} from '../../webview/shared/valueState';
import { edgeModel } from '../../webview/sidePanel/edgeModel';

const LOGS = path.join(__dirname, '..', 'fixtures', 'logs');

function analyse(
  file: string,
  text: string | Buffer = readFileSync(path.join(LOGS, file)),
  keepRequests = true,
): AnalysisSnapshot {
  const analysis = new StreamAnalysis({ keepRequests });
  const parser = new LogStreamParser();
  analysis.ingest(parser.push(text));
  analysis.ingest(parser.end());
  analysis.flush();
  return analysis.snapshot();
}

const FIRST_OUTPUT = 'serving_time_to_first_output_ms';

test('a first output of 0.000 (no output): counted as not recorded in the histogram, never binned', () => {
  const snap = analyse('first-output-default-zero.log');
  const h = histogramOf(snap.requests, { sessionId: 's', stageKey: '1', metric: `field:${FIRST_OUTPUT}`, bins: 10 });
  assert.deepEqual([h.notRecorded, h.notMeasured, h.hidden], [1, 0, 0]);
  assert.deepEqual([h.distribution?.count, h.distribution?.p50], [3, 122]);
  assert.equal(h.edges[0], 121);
});

test("a first output of 0.000 (no output): the request's cell says not recorded, with the printed value and why", () => {
  const snap = analyse('first-output-default-zero.log');
  const stage = snap.requests.find((r) => r.requestId === 'req-S0')?.stages.find((s) => s.stageKey === '1');
  const view = fieldValueView(stage, FIRST_OUTPUT, 'ms');
  assert.deepEqual([view.text, view.state, view.value], ['not recorded', 'notRecorded', null]);
  assert.match(view.title, /printed 0 ms, not recorded: no output \(0\.0 is the field's default, not a time\)/);
  assert.equal(fieldCellView(stage, FIRST_OUTPUT).state, 'notRecorded');
  const measuredStage = snap.requests.find((r) => r.requestId === 'req-S1')?.stages.find((s) => s.stageKey === '1');
  assert.deepEqual(
    [fieldCellView(measuredStage, FIRST_OUTPUT).state, fieldCellView(measuredStage, FIRST_OUTPUT).value],
    ['measured', 121],
  );
});

test("a first output of 0.000 (no output): the stage summary's hover says why a request is left out", () => {
  const snap = analyse('first-output-default-zero.log');
  const stage = snap.stages.find((s) => s.stageKey === '1');
  assert.ok(stage !== undefined);
  const view = summaryFieldView(stage, FIRST_OUTPUT, 'ms', 'p50', 'hidden');
  assert.equal(view.value, 122);
  assert.match(
    view.title,
    /1 of 4 requests are not recorded and left out: no output \(0\.0 is the field's default, not a time\)\./,
  );
  assert.doesNotMatch(view.title, /hidden or None/);
});

test("a negative prefill: the request's cell is not recorded, its hover keeps the printed number and says why", () => {
  const snap = analyse('negative-intervals.log');
  const stage = snap.requests.find((r) => r.requestId === 'req-N0')?.stages[0];
  const view = splitValueView(stage, 'prefillMs');
  assert.deepEqual([view.text, view.state, view.value], ['not recorded', 'notRecorded', null]);
  assert.match(view.title, /Printed: -154\.683 ms\. Not recorded: negative \(below zero: not a real time\)/);
  const first = fieldValueView(stage, FIRST_OUTPUT, 'ms');
  assert.equal(first.state, 'notRecorded');
  assert.match(first.title, /printed -143\.683 ms, not recorded: negative/);
  // The histogram counts it, never bins it.
  const h = histogramOf(snap.requests, { sessionId: 's', stageKey: '0', metric: 'split:prefillMs', bins: 10 });
  assert.deepEqual([h.notRecorded, h.distribution?.count, h.distribution?.p50], [1, 2, 35]);
});

test('a negative transfer time and e2e_total_ms: the side panel and the request views say not recorded', () => {
  const snap = analyse('negative-transfer.log');
  const send = edgeModel(snap.edges, 'p50', {}).rows[0]?.cells['field:tx_time_ms'];
  assert.equal(send?.value, 75.701);
  assert.match(send?.title ?? '', /1 not recorded \(printed below zero, nan or inf: not a time\)/);
  const request = snap.requests.find((r) => r.requestId === 'chatcmpl-ae4840a79e5b9ea1');
  assert.ok(request !== undefined);
  const e2e = endToEndView(request);
  assert.deepEqual([e2e.state, e2e.value], ['notRecorded', null]);
  assert.match(e2e.title, /printed -6,637\.25 ms, not recorded: negative/);
  assert.equal(endToEndCellView(request).state, 'notRecorded');
});

test('nan and inf in a request: not recorded, the hover shows them as the server printed them', () => {
  const snap = analyse('nonfinite-values.log');
  const [s0, s1] = snap.requests[0]?.stages ?? [];
  const decode = fieldValueView(s0, 'vllm_decode_ms', 'ms');
  assert.deepEqual([decode.state, decode.value], ['notRecorded', null]);
  assert.match(decode.title, /printed nan, not recorded: not a number \(printed nan, inf or -inf\)/);
  assert.match(splitValueView(s1, 'decodeMs').title, /Printed: inf\. Not recorded: not a number/);
  const h = histogramOf(snap.requests, { sessionId: 's', stageKey: '1', metric: 'split:decodeMs', bins: 10 });
  assert.deepEqual([h.notRecorded, h.distribution], [1, null]);
});

test('replica_id None: no replica id, in no per-replica summary, kept or summarized as the requests come', () => {
  // Stage 1 runs on replica 2 (r1), on no replica id (r2), then on replica 3 (r3: r1's tables again).
  const base = readFileSync(path.join(LOGS, 'replica-none.log'), 'utf8');
  const r1 = base.split('\n').slice(0, 29).join('\n');
  const r3 = r1.replaceAll('request_id=r1', 'request_id=r3').replace('|       0 |       2 |', '|       0 |       3 |');
  const text = `${base}${r3}\n`;
  for (const keep of [true, false]) {
    const snap = analyse('', text, keep);
    const stage1 = snap.replicas.filter((s) => s.stageKey === '1');
    assert.deepEqual(
      stage1.map((s) => [s.replicaId, s.requestCount]),
      [
        [2, 1],
        [3, 1],
      ],
      `keepRequests ${keep}`,
    );
    assert.equal(snap.stages.find((s) => s.stageKey === '1')?.requestCount, 3);
    assert.equal(snap.replicas.filter((s) => s.stageKey === '0').length, 0, 'stage 0 ran on replica 0 only');
  }
});
