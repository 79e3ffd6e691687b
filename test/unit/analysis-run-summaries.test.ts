// Run-level summaries printed as dicts or blocks (omni.py's [Summary] dict, the single-line
// summary dict, the "Omni Metrics Summary" block of the unmerged vllm-omni#3069): they name no
// request, but they are the run's figures, so the table and the JSON show them as printed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tableReport } from '../../server/core/report/tableReport';
import { analysisJsonRest } from '../../server/core/report/jsonReport';
import { analysedLog } from './support/analysedLog';

const REAL = path.join(__dirname, '../fixtures/real-logs');
const OMNI_SUMMARY_LOG = path.join(REAL, '08-pr500-legacy-omni-summary.log');
const UNMERGED_BLOCK_LOG = path.join(REAL, '12-pr3069-unmerged-omni-metrics-summary.log');
const SUMMARY_DICT_LOG = path.join(REAL, '14-issue533-legacy-summary-dict.log');
/** omni.py's [Summary] dict with values printed as None and a nan. */
const NONE_LOG = path.join(__dirname, '../fixtures/logs/legacy-summary-none.log');

/**
 * The table's rows under the title line matching `title` as `field  value` (a `stages.<n>` row's
 * stage column left out), up to the next blank line or the note under the table.
 */
function rowsUnder(lines: readonly string[], title: RegExp): string[][] {
  const at = lines.findIndex((l) => title.test(l));
  assert.ok(at >= 0, `no line matching ${title} in:\n${lines.join('\n')}`);
  const rows: string[][] = [];
  for (let i = at + 3; i < lines.length && lines[i] !== '' && !lines[i]?.startsWith('stages.<n>:'); i++) {
    const cells = (lines[i] as string).split(/\s{2,}/);
    rows.push([cells[0] as string, cells[cells.length - 1] as string]);
  }
  return rows;
}

test("omni.py's [Summary] dict: its run totals as printed in the table and the JSON, beside the request it does not belong to", () => {
  const snap = analysedLog(OMNI_SUMMARY_LOG);
  assert.equal(snap.requestCount, 1);
  assert.equal(snap.runSummaries?.count, 1);
  const [summary] = snap.runSummaries?.kept ?? [];
  assert.equal(summary?.line, 11);
  assert.equal(summary?.complete, false);
  assert.deepEqual(summary?.values, {
    e2e_requests: 3,
    e2e_total_time_ms: 655866.8031692505,
    e2e_sum_time_ms: 1967503.7143230438,
    e2e_total_tokens: 0,
    e2e_avg_time_per_request_ms: 655834.5714410146,
    e2e_avg_tokens_per_s: 0,
    wall_time_ms: 655866.8031692505,
  });
  const lines = tableReport(snap, { source: 'x.log' });
  assert.deepEqual(rowsUnder(lines, /^From omni\.py's \[Summary\] dict .* at line 11, as printed/), [
    ['e2e_requests', '3'],
    ['e2e_total_time_ms', '655,866.803'],
    ['e2e_sum_time_ms', '1,967,503.714'],
    ['e2e_total_tokens', '0'],
    ['e2e_avg_time_per_request_ms', '655,834.571'],
    ['e2e_avg_tokens_per_s', '0.000'],
    ['wall_time_ms', '655,866.803'],
  ]);
  assert.ok(lines.includes('It was cut off (see Input problems): the values after the cut are unknown, not 0.'));
  // The request's own figures are unchanged by it.
  assert.equal(snap.requests[0]?.e2e['e2e_time_ms']?.state, 'measured');
  const json = analysisJsonRest(snap, [], []);
  assert.equal(json.runSummaries?.kept[0]?.values['e2e_avg_time_per_request_ms'], 655834.5714410146);
  assert.equal(json.runSummaries?.kept[0]?.format, 'omni [Summary]');
});

test('the single-line summary dict: per-stage and per-edge totals as printed, though no request is read', () => {
  const snap = analysedLog(SUMMARY_DICT_LOG);
  assert.equal(snap.requestCount, 0);
  const lines = tableReport(snap, { source: 'x.log' });
  const rows = new Map(
    rowsUnder(lines, /^From the single-line summary dict .* at line 2, as printed/).map((r) => [r[0], r[1]]),
  );
  assert.equal(rows.size, 46);
  assert.equal(rows.get('e2e_total_time_ms'), '497,714.531');
  assert.equal(rows.get('stages.1.total_time_ms'), '438,871.449');
  assert.equal(rows.get('transfers.0.total_bytes'), '39,589,010');
  assert.equal(rows.get('transfers.1.rx_samples'), '1');
});

test('the PR #3069 block: its totals shown as printed', () => {
  const lines = tableReport(analysedLog(UNMERGED_BLOCK_LOG), { source: 'x.log' });
  const rows = new Map(
    rowsUnder(lines, /^From the "Omni Metrics Summary" block .* at line 2, as printed/).map((r) => [r[0], r[1]]),
  );
  assert.equal(rows.size, 20);
  assert.equal(rows.get('successful_requests'), '5');
  assert.equal(rows.get('overall_time_breakdown.stage_0_queue_wait_time_ms'), '208,619.139');
  assert.equal(rows.get('average_time_breakdown.average_stage_0_execution_time_ms'), '25,357.023');
});

test('several summaries: the table shows the latest and says how many there are', () => {
  const both = analysedLog(Buffer.concat([fs.readFileSync(SUMMARY_DICT_LOG), fs.readFileSync(UNMERGED_BLOCK_LOG)]));
  assert.equal(both.runSummaries?.count, 2);
  assert.deepEqual(
    both.runSummaries?.kept.map((s) => s.format),
    ['summary dict', 'omni metrics summary (unmerged PR #3069)'],
  );
  assert.match(
    tableReport(both, { source: 'x.log' }).join('\n'),
    /^From the "Omni Metrics Summary" block .* as printed \(the latest of 2\)/m,
  );
});

test('a value printed as None is its own state: a row saying not measured, null in JSON; a key not printed has none', () => {
  const snap = analysedLog(NONE_LOG);
  const [summary] = snap.runSummaries?.kept ?? [];
  assert.equal(summary?.complete, true);
  const values = summary?.values ?? {};
  assert.equal(values['e2e_avg_tokens_per_s'], null);
  assert.equal(values['stages.1.total_time_ms'], null);
  assert.equal(values['stages.1.avg_time_per_request_ms'], null);
  assert.equal(values['stages.0.total_time_ms'], 812.3455047607422);
  assert.ok(Number.isNaN(values['stages.1.avg_tokens_per_s']));
  // The dict it was made from prints final_stage_id; this one does not: absent, not None.
  assert.equal('final_stage_id' in values, false);
  const rows = new Map(
    rowsUnder(tableReport(snap, { source: 'x.log' }), /^From omni\.py's \[Summary\] dict .* at line 2, as printed/).map(
      (r) => [r[0], r[1]],
    ),
  );
  assert.equal(rows.get('e2e_avg_tokens_per_s'), 'not measured (None)');
  assert.equal(rows.get('stages.1.total_time_ms'), 'not measured (None)');
  assert.equal(rows.get('stages.0.total_time_ms'), '812.346');
  assert.equal(rows.get('stages.1.avg_tokens_per_s'), 'nan');
  assert.equal(rows.has('final_stage_id'), false);
  const json = JSON.parse(JSON.stringify(analysisJsonRest(snap, [], []))) as {
    runSummaries: { kept: { values: Record<string, unknown> }[] };
  };
  const printed = json.runSummaries.kept[0]?.values ?? {};
  assert.equal(printed['e2e_avg_tokens_per_s'], null);
  assert.equal(printed['stages.1.total_time_ms'], null);
  // A nan is the text printed: null in this JSON is None only.
  assert.equal(printed['stages.1.avg_tokens_per_s'], 'nan');
  assert.equal('final_stage_id' in printed, false);
});
