// One headline stage for the side panel's trend, the status bar and explain's main target: the
// last stage that measured a time to first output. A log whose last stage records none (its
// printed first output is below zero, left out) once had the trend on stage 0 and the status bar
// on end to end.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { headlineStage } from '../../server/core/analysis/headlineStage';
import { ExplainIndex } from '../../server/core/explain/explainIndex';
import { mainTargetOf } from '../../server/core/explain/mainTarget';
import type { StageSummary } from '../../server/protocol';
import { headlineWords } from '../../webview/shared/sessionStatus';
import { headline, trendLabel } from '../../webview/sidePanel/summaryModel';
import { sessionOfLog } from '../fixtures/webview/logSession';

const NON_FINITE = path.join(__dirname, '..', 'fixtures', 'logs', 'nonfinite-values.log');

test('a last stage with no measured first output: the trend, the status bar and explain name stage 0', () => {
  const { summary, requests } = sessionOfLog(NON_FINITE, { stageNames: {} });
  // The fixture as the analysis reads it: stage 1 printed -154.683 ms, not a time.
  assert.deepEqual(
    summary.stages.map((s) => [s.stageKey, s.fields['serving_time_to_first_output_ms']?.count ?? 0]),
    [
      ['0', 1],
      ['1', 0],
    ],
  );
  assert.equal(headlineStage(summary.stages)?.stageKey, '0');
  const trend = headline(summary);
  assert.equal(trendLabel(trend, 'p50'), 'p50 stage 0 time to first output');
  assert.equal(trend?.p50, 1240.881);
  assert.deepEqual(headlineWords(summary), {
    text: '1st output p50 1.24 s',
    name: 'p50 stage 0 time to first output',
    short: '1st output',
  });
  const index = new ExplainIndex();
  for (const r of requests) index.add(r);
  assert.equal(mainTargetOf(index), 'stage0.firstOutput');
});

test("of a stage's segments the first that measured one, as explain's main target; replicas never", () => {
  const dist = (v: number) => ({ count: 2, mean: v, p50: v, p90: v, p99: v, max: v });
  const stage = (stageKey: string, firstOutput: number | null, replicaId: number | null = null) =>
    ({
      stageKey,
      stageId: Number(stageKey.split('_')[0]),
      replicaId,
      fields: firstOutput === null ? {} : { serving_time_to_first_output_ms: dist(firstOutput) },
    }) as unknown as StageSummary;
  const keyOf = (stages: StageSummary[]) => headlineStage(stages)?.stageKey ?? null;
  assert.equal(keyOf([stage('0', 10), stage('1', 80), stage('1_2', 900)]), '1');
  assert.equal(keyOf([stage('0', 10), stage('1', null), stage('1_2', 900)]), '1_2');
  assert.equal(keyOf([stage('0', 10), stage('1', 80), stage('1', 70, 0), stage('2', null)]), '1');
  assert.equal(keyOf([stage('0', null)]), null);
});
