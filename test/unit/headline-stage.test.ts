// One headline figure for the side panel's trend, the status bar and explain's main target: the
// time to first output of the last stage that measured one, else end to end. A log whose last
// stage records none (its printed first output is below zero, left out) once had the trend on
// stage 0 and the status bar on end to end; a log of no first output at all, the trend on the last
// stage's gen time and the status bar on end to end.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { headlineStage } from '../../server/core/analysis/headlineStage';
import { ExplainIndex } from '../../server/core/explain/explainIndex';
import { mainTargetOf } from '../../server/core/explain/mainTarget';
import type { AnalyzedRequest, StageSummary } from '../../server/protocol';
import { headlineWords } from '../../webview/shared/sessionStatus';
import { headline, trendLabel } from '../../webview/sidePanel/summaryModel';
import { sessionOfLog } from '../fixtures/webview/logSession';

const NON_FINITE = path.join(__dirname, '..', 'fixtures', 'logs', 'nonfinite-values.log');
const LEGACY = path.join(__dirname, '..', 'fixtures', 'logs', 'legacy-offline-one-request.log');
const TWO_STAGES = path.join(__dirname, '..', 'fixtures', 'logs', 'two-stage-sequential.log');
const THREE_STAGES = path.join(
  __dirname,
  '..',
  'fixtures',
  'upstream-rendered',
  'qwen3-omni-three-stage-transfers.log',
);

function mainTargetOfSession(requests: readonly AnalyzedRequest[]): string | null {
  const index = new ExplainIndex();
  for (const r of requests) index.add(r);
  return mainTargetOf(index);
}

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
  assert.equal(mainTargetOfSession(requests), 'stage0.firstOutput');
});

test('no stage measured a first output: end to end for the trend, the status bar and explain, not a gen time', () => {
  const { summary, requests } = sessionOfLog(LEGACY, { stageNames: {} });
  // Each stage printed its stage_gen_time_ms; no request its first output; e2e_time_ms 3,759 ms.
  assert.equal(summary.stages.length, 3);
  assert.equal(headlineStage(summary.stages), null);
  assert.equal(summary.stages.at(-1)?.fields['stage_gen_time_ms']?.count, 1);
  const trend = headline(summary);
  assert.equal(trendLabel(trend, 'p50'), 'p50 end to end');
  assert.equal(trend?.p50, summary.endToEnd?.ms.p50);
  assert.equal(Math.round(trend?.p50 ?? 0), 3759);
  assert.equal(headlineWords(summary)?.text, 'e2e p50 3.76 s');
  assert.equal(mainTargetOfSession(requests), 'e2e');
  // Without its end to end: the last stage's gen time, in both.
  const noE2e = { ...summary, endToEnd: null };
  assert.equal(trendLabel(headline(noE2e), 'p50'), 'p50 stage 2 gen time');
  assert.deepEqual(headlineWords(noE2e), { text: 'gen time p50 640 ms', name: 'p50 stage 2 gen time', short: null });
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

test('a summary out of stage order: the last stage by stage id, its first segment, as explain', () => {
  const { summary, requests } = sessionOfLog(TWO_STAGES, { stageNames: {} });
  assert.deepEqual(
    summary.stages.map((s) => [s.stageKey, s.fields['serving_time_to_first_output_ms']?.p50]),
    [
      ['0', 11],
      ['1', 285],
    ],
  );
  assert.equal(mainTargetOfSession(requests), 'stage1.firstOutput');
  assert.equal(headlineStage([...summary.stages].reverse())?.stageKey, '1');
  const reversed = { ...summary, stages: [...summary.stages].reverse() };
  assert.equal(trendLabel(headline(reversed), 'p50'), 'p50 stage 1 time to first output');
  assert.equal(headlineWords(reversed)?.text, '1st output p50 285 ms');

  const dist = (v: number) => ({ count: 2, mean: v, p50: v, p90: v, p99: v, max: v });
  const stage = (stageKey: string, firstOutput: number) =>
    ({
      stageKey,
      stageId: Number(stageKey.split('_')[0]),
      replicaId: null,
      fields: { serving_time_to_first_output_ms: dist(firstOutput) },
    }) as unknown as StageSummary;
  assert.equal(headlineStage([stage('1_2', 900), stage('1', 80), stage('0', 10)])?.stageKey, '1');
  assert.equal(headlineStage([stage('2', 500), stage('10', 70), stage('9', 60)])?.stageKey, '10');
});

test('a stage column with no stage id is never the headline: explain cannot name it', (t) => {
  // The fixture with stage 1's column headed `codec`: a stage whose place in the pipeline is unknown.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-headline-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const log = path.join(dir, 'named-column.log');
  const text = fs.readFileSync(TWO_STAGES, 'utf8');
  fs.writeFileSync(
    log,
    text.replaceAll(
      '| Field                           |       0 |       1 |',
      '| Field                           |       0 |   codec |',
    ),
  );
  const { summary, requests } = sessionOfLog(log, { stageNames: {} });
  assert.deepEqual(
    summary.stages.map((s) => [s.stageKey, s.stageId, s.fields['serving_time_to_first_output_ms']?.p50]),
    [
      ['0', 0, 11],
      ['codec', null, 285],
    ],
  );
  assert.equal(mainTargetOfSession(requests), 'stage0.firstOutput');
  assert.equal(headlineStage(summary.stages)?.stageKey, '0');
  assert.equal(headlineStage([...summary.stages].reverse())?.stageKey, '0');
  assert.equal(trendLabel(headline(summary), 'p50'), 'p50 stage 0 time to first output');
  assert.equal(headlineWords(summary)?.text, '1st output p50 11.0 ms');
});

test("explain's stages are listed in the summary's stage order: a column with no stage id after the numbered ones", (t) => {
  // The three-stage fixture with stage 1's column headed `codec`.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-stage-order-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const log = path.join(dir, 'named-middle-column.log');
  const text = fs.readFileSync(THREE_STAGES, 'utf8');
  fs.writeFileSync(log, text.replace(/^(.*\| Field +\| +0 \| +)    1( \| +2 \|)$/gm, '$1codec$2'));
  const { summary, requests } = sessionOfLog(log, { stageNames: {} });
  assert.deepEqual(
    summary.stages.map((s) => s.stageKey),
    ['0', '2', 'codec'],
  );
  const index = new ExplainIndex();
  for (const r of requests) index.add(r);
  assert.deepEqual(
    index.stages().map((s) => s.stageKey),
    ['0', '2', 'codec'],
  );
});
