// A p90 / p99 from fewer values than it needs (n ≥ 1/(1 − q), compare's rule) is the largest
// value or an interpolation towards it: the terminal table says which rows and columns.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import type { AnalysisSnapshot } from '../../server/core/analysis/streamAnalysis';
import { analysedLog } from './support/analysedLog';
import { tableReport } from '../../server/core/report/tableReport';
import { fewValuesLines } from '../../server/core/report/fewValues';
import { valuesAbovePercentile } from '../../server/core/reportedPercentiles';
import { quantileMinSamples } from '../../server/core/compare/metricCompare';
import { summaryModel } from '../../webview/sidePanel/summaryModel';
import type { SummaryResult } from '../../server/protocol';

const DIR = path.join(__dirname, '..', 'fixtures', 'upstream-rendered');

const analyse = (file: string): AnalysisSnapshot => analysedLog(path.join(DIR, file));

/** The note's lines in a table report: from its heading to the next blank line. */
function noteOf(lines: readonly string[]): string[][] {
  const notes: string[][] = [];
  lines.forEach((line, i) => {
    if (!line.startsWith('Few values:')) return;
    const end = lines.indexOf('', i);
    notes.push(lines.slice(i, end === -1 ? lines.length : end));
  });
  return notes;
}

describe('few values behind a percentile', () => {
  test('the rule is compare’s: p50 2, p90 10, p99 100 values', () => {
    assert.deepEqual(
      (['p50', 'p90', 'p99'] as const).map((p) => valuesAbovePercentile(p)),
      [2, 10, 100],
    );
    assert.equal(quantileMinSamples('p99'), 100);
    assert.equal(quantileMinSamples('p50'), 10);
  });

  test('rows below 10 values name p90 and p99, below 100 only p99, and at 100 nothing', () => {
    const lines = fewValuesLines([
      { label: 'stage 0', columns: [{ column: 'queued', count: 9 }] },
      { label: 'stage 1', columns: [{ column: 'queued', count: 10 }] },
      { label: 'stage 2', columns: [{ column: 'queued', count: 100 }] },
    ]);
    assert.deepEqual(lines.slice(1), ['  stage 0 (n = 9): p90 and p99', '  stage 1 (n = 10): p99']);
    assert.deepEqual(fewValuesLines([{ label: 'stage 0', columns: [{ column: 'queued', count: 100 }] }]), []);
  });

  test('a column with fewer values than the rest of its row is named, with its count; unshown columns are not', () => {
    const lines = fewValuesLines([
      {
        label: 'stage 1',
        columns: [
          { column: 'queued', count: 500 },
          { column: 'input wait', count: 3 },
          { column: 'ready queued', count: 3 },
          { column: 'decode', count: 40 },
          { column: 'TTFT', count: 0 },
        ],
      },
    ]);
    assert.deepEqual(lines.slice(1), ['  stage 1 input wait, ready queued (n = 3): p90 and p99, decode (n = 40): p99']);
  });

  test('the upstream-rendered logs: every stage and edge of 3 or 6 requests, and the [OmniTiming]-only table', () => {
    const three = noteOf(tableReport(analyse('qwen3-omni-three-stage-transfers.log'), { source: 'x' }));
    assert.deepEqual(
      three.map((n) => n.slice(1)),
      [
        [
          '  stage 0 (n = 3): p90 and p99',
          '  stage 1 (n = 3): p90 and p99',
          // Stage 1 ran on replica 1 in one request (a hidden replica_id row reads as replica 0).
          '  stage 1 replica 0 (n = 2): p90 and p99',
          '  stage 1 replica 1 (n = 1): p90 and p99',
          '  stage 2 (n = 3): p90 and p99',
          // Each request's e2e_total_ms, beside the phase table.
          '  end to end (n = 3): p90 and p99',
        ],
        ['  edge 0 → 1 (n = 3): p90 and p99', '  edge 1 → 2 (n = 3): p90 and p99'],
      ],
    );
    const info = noteOf(tableReport(analyse('qwen3tts-info-level-omnitiming-only.log'), { source: 'x' }));
    assert.deepEqual(info[0]?.slice(1), [
      '  stage 0 (n = 6): p90 and p99',
      '  stage 1 (n = 6): p90 and p99',
      '  end to end (n = 6): p90 and p99',
    ]);
  });

  test('a one-output stage counts its prefill+decode values; a column with none shown is not counted', () => {
    // Stage 0's prefill and decode are one number (prefill+decode); before the fix, stage 1's
    // TTFT is not recorded (no distribution): both rows have 6 values behind every column shown.
    for (const file of ['qwen3tts-talker-first-audio-after-fix.log', 'qwen3tts-talker-first-audio-before-fix.log']) {
      const snapshot = analyse(file);
      assert.equal(snapshot.stages[0]?.split.prefillMs, undefined, file);
      assert.equal(snapshot.stages[0]?.prefillDecodeMs?.count, 6, file);
      assert.deepEqual(noteOf(tableReport(snapshot, { source: 'x' }))[0]?.slice(1), [
        '  stage 0 (n = 6): p90 and p99',
        '  stage 1 (n = 6): p90 and p99',
        '  end to end (n = 6): p90 and p99',
      ]);
    }
    assert.equal(analyse('qwen3tts-talker-first-audio-before-fix.log').stages[1]?.split.ttftMs, undefined);
  });

  test('the side panel marks a p90 / p99 of 6 values and says why in the hover; p50 and 100 values are not marked', () => {
    const snapshot = analyse('qwen3tts-talker-first-audio-after-fix.log');
    const summary: SummaryResult = {
      sessionId: 's',
      requestCount: snapshot.requestCount,
      stages: snapshot.stages,
      findings: snapshot.findings,
      histograms: [],
      prometheus: null,
      endToEnd: snapshot.endToEnd,
      tablesMissing: snapshot.tablesMissing,
      edges: snapshot.edges,
    };
    const p99 = summaryModel(summary, 'p99', {});
    const queued = p99.rows[1]?.cells['queuedMs'];
    assert.equal(queued?.fewValues, true);
    assert.match(
      queued?.title ?? '',
      / From 6 values, a p99 is the largest value or an interpolation towards it, not a tail estimate \(a p99 needs 100\)\./,
    );
    // The one-output stage's prefill+decode is marked too; a state without a number is not.
    assert.equal(p99.rows[0]?.cells['prefillMs']?.state, 'combined');
    assert.equal(p99.rows[0]?.cells['prefillMs']?.fewValues, true);
    assert.equal(p99.rows[0]?.cells['decodeMs']?.fewValues, undefined);
    assert.equal(p99.rows[1]?.cells['field:stage_gen_time_ms']?.fewValues, true);
    assert.equal(summaryModel(summary, 'p90', {}).rows[1]?.cells['queuedMs']?.fewValues, true);
    const p50 = summaryModel(summary, 'p50', {}).rows[1]?.cells['queuedMs'];
    assert.equal(p50?.fewValues, false);
    assert.doesNotMatch(p50?.title ?? '', /From 6 values/);
    // 100 values are enough for a p99.
    const many = summaryModel(
      {
        ...summary,
        stages: summary.stages.map((s) => ({
          ...s,
          split: { ...s.split, queuedMs: s.split.queuedMs && { ...s.split.queuedMs, count: 100 } },
        })),
      },
      'p99',
      {},
    );
    assert.equal(many.rows[1]?.cells['queuedMs']?.fewValues, false);
  });
});
