// The side panel's and status bar's words for a session of [Overall Summary] tables only (real
// public logs): the table model's rows and cells, the trend's headline and the status bar's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { analysedLog } from './support/analysedLog';
import { overallCaption, overallModel } from '../../webview/sidePanel/overallModel';
import { headline } from '../../webview/sidePanel/summaryModel';
import { statusHeadline } from '../../webview/shared/sessionStatus';
import { summaryResultOf } from './support/summaryResult';

const REAL = path.resolve(__dirname, '..', 'fixtures', 'real-logs');

test('one table (real-logs 04, two stages): each wall time as printed at every percentile', () => {
  const s = analysedLog(path.join(REAL, '04-pr1977-diffusion-overall-glued-to-tqdm.log'));
  const overall = s.overallSummaries;
  assert.ok(overall !== null);
  assert.equal(overallCaption(overall), 'from one [Overall Summary] table, no per-request split');
  for (const pct of ['p50', 'p99'] as const) {
    const model = overallModel(overall, pct, { '0': 'AR', '1': 'diffusion' });
    assert.deepEqual(
      model.rows.map((r) => [r.key, r.label, r.role, r.cells['wall']?.value, r.cells['rate']?.value ?? null]),
      [
        ['0', 'stage 0', 'AR', 40252.345, null],
        ['1', 'stage 1', 'diffusion', 34140.089, null],
        ['e2e', 'end to end', '', 74410.325, 17.296],
      ],
    );
    assert.ok(model.rows.every((r) => r.cells['wall']?.fewValues === false));
  }
  assert.equal(statusHeadline(summaryResultOf(s)), 'summary e2e wall 74,410 ms');
  assert.deepEqual(headline(summaryResultOf(s)), {
    label: 'e2e wall time, [Overall Summary]',
    p50: 74410.325,
    p90: 74410.325,
    p99: 74410.325,
  });
});

test('two tables (real-logs 02 and 03): p50 over the tables, a p90 from 2 marked as few', () => {
  const bytes = Buffer.concat([
    readFileSync(path.join(REAL, '02-pr891-overall-apiserver-prefix.log')),
    Buffer.from('\n'),
    readFileSync(path.join(REAL, '03-pr1468-overall-empty-first-line.log')),
  ]);
  const s = analysedLog(bytes);
  const overall = s.overallSummaries;
  assert.ok(overall !== null);
  const e2e = (pct: 'p50' | 'p90') => overallModel(overall, pct, {}).rows.find((r) => r.key === 'e2e')?.cells['wall'];
  // numpy's linear p50 of 8,407.655 and 40,828.324.
  assert.equal(e2e('p50')?.value, 8407.655 + 0.5 * (40828.324 - 8407.655));
  assert.equal(e2e('p50')?.fewValues, false);
  assert.equal(e2e('p90')?.fewValues, true);
  assert.match(e2e('p90')?.title ?? '', /^e2e_wall_time_ms p90: 37,586\.257 ms over 2 tables\. From 2 values/);
  assert.equal(statusHeadline(summaryResultOf(s)), 'summary e2e wall p50 24,618 ms (2 summaries)');
});

test('a session with per-request stage tables keeps its own headline (the summaries are not used)', () => {
  const s = analysedLog(
    path.resolve(__dirname, '..', 'fixtures', 'upstream-rendered', 'qwen3-omni-three-stage-transfers.log'),
  );
  assert.equal(s.overallSummaries, null);
  assert.match(statusHeadline(summaryResultOf(s)) ?? '', /^1st output p50 /);
});
