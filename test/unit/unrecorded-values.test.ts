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
import { fieldCellView, fieldValueView, summaryFieldView } from '../../webview/shared/valueState';

const LOGS = path.join(__dirname, '..', 'fixtures', 'logs');

function analyse(file: string): AnalysisSnapshot {
  const analysis = new StreamAnalysis();
  const parser = new LogStreamParser();
  analysis.ingest(parser.push(readFileSync(path.join(LOGS, file))));
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
  assert.match(view.title, /1 of 4 requests are not recorded and left out: no output \(0\.0 is the field's default, not a time\)\./);
  assert.doesNotMatch(view.title, /hidden or None/);
});
