// The side panel's and status bar's words for a session of [Overall Summary] tables only (real
// public logs): the table model's rows and cells, the trend's headline and the status bar's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { analysedLog } from './support/analysedLog';
import { overallCaption, overallModel } from '../../webview/sidePanel/overallModel';
import { headline, trendLabel } from '../../webview/sidePanel/summaryModel';
import { stageRolesOf } from '../../server/shared';
import { statusBarWords, statusHeadline } from '../../webview/shared/sessionStatus';
import { overallNoRequestsText, overallOnly, sessionCountText } from '../../webview/shared/overallOnly';
import { STATS_TABLES_FIX } from '../../server/core/analysis/tablesMissing';
import { summaryResultOf } from './support/summaryResult';

const IMPORT = { kind: 'import' } as const;
const REAL = path.resolve(__dirname, '..', 'fixtures', 'real-logs');

test('one table (real-logs 04, two stages): each wall time as printed at every percentile', () => {
  const s = analysedLog(path.join(REAL, '04-pr1977-diffusion-overall-glued-to-tqdm.log'));
  const overall = s.overallSummaries;
  assert.ok(overall !== null);
  assert.deepEqual(overallCaption(overall), {
    heading: "From the log's [Overall Summary] table",
    note: 'as printed, no per-request split',
  });
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
    // Wall times run to minutes: each cell says its unit, as the trend does.
    assert.deepEqual(
      model.rows.map((r) => r.cells['wall']?.text),
      ['40.3 s', '34.1 s', '1 min 14 s'],
    );
    // e2e_requests 1: the mean per request is the wall time again, no column for it.
    assert.deepEqual(
      model.columns.map((c) => c.id),
      ['wall', 'rate'],
    );
    assert.ok(model.rows.every((r) => r.cells['wall']?.fewValues === false));
  }
  assert.equal(statusHeadline(summaryResultOf(s)), 'summary e2e wall 1 min 14 s');
  const head = headline(summaryResultOf(s));
  assert.deepEqual(head, {
    label: 'e2e wall time of the [Overall Summary] table',
    percentiles: false,
    p50: 74410.325,
    p90: 74410.325,
    p99: 74410.325,
  });
  // One value is not named a percentile at any of them.
  for (const pct of ['p50', 'p90', 'p99'] as const)
    assert.equal(trendLabel(head, pct), 'e2e wall time of the [Overall Summary] table');
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
  assert.equal(statusHeadline(summaryResultOf(s)), 'summary e2e wall p50 24.6 s (2 summaries)');
  assert.deepEqual(overallCaption(overall), {
    heading: "From the log's 2 [Overall Summary] tables",
    note: 'one value per table, no per-request split',
  });
  const head = headline(summaryResultOf(s));
  assert.equal(head?.percentiles, true);
  assert.equal(trendLabel(head, 'p90'), 'p90 e2e wall time over 2 [Overall Summary] tables');
  // 02 covers 1 request, 03 covers 1.
  assert.equal(sessionCountText(s.requestCount, summaryResultOf(s), IMPORT), '2 [Overall Summary] tables (2 requests)');
});

test('a session with per-request stage tables keeps its own headline (the summaries are not used)', () => {
  const s = analysedLog(
    path.resolve(__dirname, '..', 'fixtures', 'upstream-rendered', 'qwen3-omni-three-stage-transfers.log'),
  );
  assert.equal(s.overallSummaries, null);
  assert.match(statusHeadline(summaryResultOf(s)) ?? '', /^1st output p50 /);
  const summary = summaryResultOf(s);
  assert.equal(overallOnly(summary), null);
  assert.equal(sessionCountText(s.requestCount, summary, IMPORT), `${s.requestCount} requests`);
  const session = { kind: 'import', status: 'exited', exit: null, requestCount: s.requestCount } as const;
  assert.deepEqual(statusBarWords(session, summary), {
    text: `${s.requestCount} req · ${statusHeadline(summary) ?? ''}`,
    label: `Stage Lens: imported, ${s.requestCount} requests, ${statusHeadline(summary) ?? ''}`,
  });
  assert.equal(headline(summary)?.percentiles, true);
  // Named as the tail and explain name the figure: the omni pipeline's last stage outputs audio.
  const roles = stageRolesOf('qwen3-omni-three-stage-transfers.log');
  assert.equal(trendLabel(headline(summary, roles), 'p99'), 'p99 time to first audio (stage 2 · code2wav)');
  assert.equal(trendLabel(headline(summary), 'p99'), 'p99 stage 2 time to first output');
});

test('the count says what there is: the tables and the requests they cover, not "0 requests" (real-logs 02)', () => {
  const s = analysedLog(path.join(REAL, '02-pr891-overall-apiserver-prefix.log'));
  const summary = summaryResultOf(s);
  assert.equal(s.requestCount, 0);
  assert.equal(sessionCountText(s.requestCount, summary, IMPORT), '1 [Overall Summary] table (1 request)');
  const session = { kind: 'import', status: 'exited', exit: null, requestCount: 0 } as const;
  assert.deepEqual(statusBarWords(session, summary), {
    text: '1 [Overall Summary] table (1 request) · summary e2e wall 40.8 s',
    label: 'Stage Lens: imported, 1 [Overall Summary] table (1 request), summary e2e wall 40.8 s',
  });
  const overall = overallOnly(summary);
  assert.ok(overall !== null);
  assert.equal(
    overallNoRequestsText(overall),
    `This log has no per-request tables, only 1 [Overall Summary] table (1 request): the side panel shows its values. Fix: ${STATS_TABLES_FIX}.`,
  );
});

test('a table covering 10 requests (real-logs 01): its count, and the mean per request beside the wall time', () => {
  const s = analysedLog(path.join(REAL, '01-pr891-overall-e2e-noprefix.log'));
  const summary = summaryResultOf(s);
  // The one request is a RequestE2EStats cut off after its title: no number of its own.
  assert.equal(s.requestCount, 1);
  assert.equal(sessionCountText(s.requestCount, summary, IMPORT), '1 [Overall Summary] table (10 requests)');
  const overall = s.overallSummaries;
  assert.ok(overall !== null);
  const model = overallModel(overall, 'p99', {});
  assert.deepEqual(
    model.columns.map((c) => c.id),
    ['wall', 'perRequest', 'rate'],
  );
  const e2e = model.rows.find((r) => r.key === 'e2e');
  assert.equal(e2e?.cells['perRequest']?.value, 8143.07);
  assert.equal(e2e?.cells['perRequest']?.text, '8.14 s');
  assert.equal(
    e2e?.cells['perRequest']?.title,
    'e2e_avg_time_per_request_ms: 8,143.07 ms as printed by the one table.',
  );
  assert.equal(e2e?.cells['wall']?.text, '1 min 21 s');
  // A stage's row has no mean per request: not printed, not 0.
  const stage0 = model.rows.find((r) => r.key === '0')?.cells['perRequest'];
  assert.equal(stage0?.value, null);
  assert.equal(stage0?.state, 'empty');
});

test('a session of some tables that did not print e2e_requests says so, no request count made up', () => {
  const overall = {
    tables: 2,
    cutOffTables: 1,
    coveringSeveral: 0,
    fields: { e2e_requests: { count: 1, mean: 3, p50: 3, p90: 3, p99: 3, max: 3 } },
    fieldStates: {},
    cellsLeftOut: 0,
  };
  const summary = { stages: [], endToEnd: null, overallSummaries: overall, histograms: [] };
  assert.equal(sessionCountText(0, summary, IMPORT), '2 [Overall Summary] tables (3 requests in 1 of them)');
  const none = { ...overall, fields: {} };
  assert.equal(sessionCountText(0, { ...summary, overallSummaries: none }, IMPORT), '2 [Overall Summary] tables');
});
