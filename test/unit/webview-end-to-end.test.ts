// The side panel's end-to-end table under a phase table: a log of the vllm-omni#891 branch prints
// its stats tables and, before them, a request_level_metrics dict with the request's e2e_tpt. Its
// phase table has no end-to-end row, so the end to end and the time per token are a table of their
// own, in the CLI's words, a 0.0 (no output token) said under it and never a 0 ms.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { analysedLog } from './support/analysedLog';
import { FIXTURES, fixtureLog, utf8 } from './support/logHelpers';
import { summaryResultOf } from './support/summaryResult';
import { tableReport } from '../../server/core/report/tableReport';
import { endToEndModel } from '../../webview/sidePanel/endToEndModel';
import { legacyStatsOnly } from '../../webview/sidePanel/timingModel';

const PR891 = fixtureLog('pr891-stage-wall-time-list.log');
const TPT = "'e2e_tpt': 5.667160445952497,";

test('a #891 log: end to end and time per token, as analyze prints them', () => {
  const summary = summaryResultOf(analysedLog(utf8(PR891)));
  // Its requests have stage tables: the side panel shows the phase table, not the legacy one.
  assert.equal(legacyStatsOnly(summary), false);
  assert.equal(summary.tablesMissing, null);
  const model = endToEndModel(summary, 'p50');
  assert.ok(model !== null);
  assert.deepEqual(
    model.rows.map((r) => [r.key, r.label, r.requestCount, r.cells['time']?.text, r.cells['time']?.state]),
    [
      // analyze: `end to end      1  11,691  11,691  11,691  11,691`, `time per token  1   5.667 ...`.
      ['e2e', 'end to end', 1, '11,691', 'measured'],
      ['timePerToken', 'time per token', 1, '5.67', 'measured'],
    ],
  );
  assert.equal(model.rows[1]?.cells['time']?.value, 5.667160445952497);
  assert.deepEqual(
    model.rows.map((r) => r.countTitle?.('1')),
    ['1 requests with a measured end-to-end time', '1 requests with a measured time per token'],
  );
  assert.equal(model.leftOut, undefined);
  assert.deepEqual(
    model.columns.map((c) => [c.id, c.label]),
    [['time', 'time']],
  );
});

test('a #891 request with no output token: its 0.0 time per token is said under the table, never 0 ms', () => {
  assert.ok(PR891.includes(TPT));
  // Upstream prints 0.0 for a request without output tokens (it divides only when there are some).
  const snapshot = analysedLog(utf8(PR891.replace(TPT, "'e2e_tpt': 0.0,")));
  const model = endToEndModel(summaryResultOf(snapshot), 'p90');
  assert.ok(model !== null);
  const row = model.rows.find((r) => r.key === 'timePerToken');
  assert.deepEqual(
    [row?.requestCount, row?.cells['time']?.text, row?.cells['time']?.state, row?.cells['time']?.value],
    [0, 'not recorded', 'notRecorded', null],
  );
  // The end to end is still measured.
  assert.equal(model.rows.find((r) => r.key === 'e2e')?.cells['time']?.text, '11,691');
  const table = tableReport(snapshot, { source: 'x.log' }).join('\n');
  assert.equal(model.leftOut?.length, 1);
  assert.ok(table.includes(`  ${model.leftOut?.[0]}`), table);
  assert.match(model.leftOut?.[0] ?? '', /^time per token: 1 of 1 request printed 0\.0, .*not counted as 0 ms\.$/);
});

test('a log with stage tables and no time per token: end to end alone, as analyze prints it', () => {
  const summary = summaryResultOf(
    analysedLog(join(FIXTURES, 'upstream-rendered', 'qwen3-omni-three-stage-transfers.log')),
  );
  assert.equal(summary.endToEnd?.timePerToken, undefined);
  // analyze: `end to end  3  33,726  39,397  40,673  40,815`.
  for (const [pct, text] of [
    ['p50', '33,726'],
    ['p90', '39,397'],
    ['p99', '40,673'],
  ] as const) {
    const model = endToEndModel(summary, pct);
    assert.ok(model !== null);
    assert.deepEqual(
      model.rows.map((r) => [r.key, r.requestCount, r.cells['time']?.text, r.cells['time']?.state]),
      [['e2e', 3, text, 'measured']],
    );
    assert.equal(model.leftOut, undefined);
    assert.doesNotMatch(model.columns[0]?.help ?? '', /time per token/);
  }
});

test('a log with stage tables and no end to end nor time per token has no end-to-end table', () => {
  // Stage tables without their RequestE2EStats table: nothing end to end is printed.
  const log = fixtureLog('two-stage-sequential.log')
    .split('\n')
    .filter((line, i, lines) => !isE2ETableLine(lines, i))
    .join('\n');
  const summary = summaryResultOf(analysedLog(utf8(log)));
  assert.equal(summary.endToEnd === null || summary.endToEnd.ms.count === 0, true);
  assert.ok(summary.stages.length > 0);
  assert.equal(endToEndModel(summary, 'p50'), null);
});

/** Whether line i belongs to a [RequestE2EStats] table (its title, borders and rows up to the next title). */
function isE2ETableLine(lines: readonly string[], i: number): boolean {
  for (let j = i; j >= 0; j--) {
    const line = lines[j] ?? '';
    if (line.includes('[RequestE2EStats')) return true;
    if (/\[(StageRequestStats|TransferEdgeStats|Overall Summary)/.test(line)) return false;
  }
  return false;
}
