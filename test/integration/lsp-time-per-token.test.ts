// The end-to-end time per token (e2e_tpt of the request_level_metrics dicts) over a real
// connection to the language server: the summary the side panel gets carries analyze's numbers,
// over measured values only, and a 0.0 (the no-output-token default) as a count with its reason,
// never a 0 ms; the side panel's end-to-end rows show it in the CLI table's words, in the legacy
// table, or, for a log with stage tables (the vllm-omni#891 branch), in the table under its phases.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { SummaryResult } from '../../server/protocol';
import { endToEndModel } from '../../webview/sidePanel/endToEndModel';
import { legacyStatsOnly, timingModel } from '../../webview/sidePanel/timingModel';
import { cliStdout } from './support/cliProcess';
import { startLanguageServer, storageForFile } from './support/lspProcess';
import { tempFolder } from './support/tempFolder';

const LOGS = path.resolve(__dirname, '..', 'fixtures', 'logs');
const storage = storageForFile('stage-lens-time-per-token-');
const PR891 = path.join(LOGS, 'pr891-stage-wall-time-list.log');

/** analyze --format json's time per token (its numbers rounded to 3 decimals). */
function cliTimePerToken(log: string): unknown {
  const json = JSON.parse(cliStdout(['analyze', log, '--format', 'json'])) as {
    endToEnd: { timePerToken?: unknown };
  };
  return json.endToEnd.timePerToken;
}

const rounded = (t: NonNullable<SummaryResult['endToEnd']>['timePerToken']): unknown =>
  t === undefined
    ? undefined
    : {
        ...t,
        ms:
          t.ms === null
            ? null
            : Object.fromEntries(Object.entries(t.ms).map(([k, v]) => [k, Math.round(v * 1000) / 1000])),
      };

test(
  'five requests with an e2e_tpt: the summary has their time per token, as analyze prints it',
  { timeout: 90_000 },
  async () => {
    const log = path.join(LOGS, 'legacy-request-level-metrics-several.log');
    const lsp = await startLanguageServer(storage);
    const session = await lsp.importLog(log);
    const summary = await lsp.request('stageLens/summary', { sessionId: session.id });
    const perToken = summary.endToEnd?.timePerToken;
    // e2e_tpt 20.04, 18.75, 21.5, 16.0, 19.5: `time per token  5  19.50  20.92  21.44  21.50`.
    assert.deepEqual([perToken?.requests, perToken?.notRecorded], [5, {}]);
    assert.deepEqual([perToken?.ms?.count, perToken?.ms?.p50, perToken?.ms?.max], [5, 19.5, 21.5]);
    assert.deepEqual(rounded(perToken), cliTimePerToken(log));
    assert.equal(legacyStatsOnly(summary), true);
    const model = timingModel(summary, 'p90', {}, true);
    const row = model.rows.find((r) => r.key === 'timePerToken');
    assert.deepEqual(
      [row?.label, row?.requestCount, row?.cells['time']?.text, row?.cells['time']?.state],
      ['time per token', 5, '20.9', 'measured'],
    );
    assert.equal(model.leftOut, undefined);
  },
);

test(
  'a request with no output token: its 0.0 is counted and said, never a 0 ms time per token',
  { timeout: 90_000 },
  async () => {
    const log = path.join(LOGS, 'legacy-offline-one-request.log');
    const lsp = await startLanguageServer(storage);
    const session = await lsp.importLog(log);
    const summary = await lsp.request('stageLens/summary', { sessionId: session.id });
    assert.deepEqual(summary.endToEnd?.timePerToken, { ms: null, requests: 1, notRecorded: { noOutput: 1 } });
    assert.deepEqual(summary.endToEnd?.timePerToken, cliTimePerToken(log));
    const model = timingModel(summary, 'p50', {}, true);
    const row = model.rows.find((r) => r.key === 'timePerToken');
    assert.deepEqual(
      [row?.requestCount, row?.cells['time']?.text, row?.cells['time']?.state, row?.cells['time']?.value],
      [0, 'not recorded', 'notRecorded', null],
    );
    // The sentence under the table is the CLI table's, word for word.
    const table = cliStdout(['analyze', log]);
    assert.equal(model.leftOut?.length, 1);
    assert.ok(table.includes(`  ${model.leftOut?.[0]}\n`), table);
    assert.match(model.leftOut?.[0] ?? '', /^time per token: 1 of 1 request printed 0\.0, .*not counted as 0 ms\.$/);
  },
);

test('a log that prints no time per token has no such row', { timeout: 90_000 }, async () => {
  const log = path.join(LOGS, 'log-utils-overall.stats.jsonl');
  const lsp = await startLanguageServer(storage);
  const session = await lsp.importLog(log);
  const summary = await lsp.request('stageLens/summary', { sessionId: session.id });
  assert.equal(summary.endToEnd?.timePerToken, undefined);
  assert.equal(cliTimePerToken(log), undefined);
  assert.deepEqual(
    timingModel(summary, 'p50', {}, true).rows.map((r) => r.key),
    ['0', '1', 'e2e', 'transfers'],
  );
});

test(
  'a #891 log (stage tables and the dict): the phase table and, under it, end to end and time per token as analyze prints them',
  { timeout: 90_000 },
  async () => {
    const lsp = await startLanguageServer(storage);
    const session = await lsp.importLog(PR891);
    const summary = await lsp.request('stageLens/summary', { sessionId: session.id });
    // e2e_tpt 5.667160445952497: `time per token  1   5.667   5.667   5.667   5.667`.
    assert.deepEqual(rounded(summary.endToEnd?.timePerToken), cliTimePerToken(PR891));
    assert.equal(summary.endToEnd?.timePerToken?.ms?.p50, 5.667160445952497);
    // Its requests have stage tables: the side panel shows its phase table, not the legacy one.
    assert.equal(legacyStatsOnly(summary), false);
    assert.equal(summary.tablesMissing, null);
    const model = endToEndModel(summary, 'p90');
    assert.deepEqual(
      model?.rows.map((r) => [r.label, r.requestCount, r.cells['time']?.text, r.cells['time']?.state]),
      [
        ['end to end', 1, '11,691', 'measured'],
        ['time per token', 1, '5.67', 'measured'],
      ],
    );
    assert.equal(model?.leftOut, undefined);
  },
);

test(
  'a #891 request with no output token: its 0.0 is counted and said under the end-to-end table, never a 0 ms',
  { timeout: 90_000 },
  async () => {
    const tpt = "'e2e_tpt': 5.667160445952497,";
    const text = fs.readFileSync(PR891, 'utf8');
    assert.ok(text.includes(tpt));
    // Upstream prints 0.0 for a request without output tokens (it divides only when there are some).
    const log = path.join(tempFolder('stage-lens-pr891-no-token-'), 'pr891-no-output-token.log');
    fs.writeFileSync(log, text.replace(tpt, "'e2e_tpt': 0.0,"));
    const lsp = await startLanguageServer(storage);
    const session = await lsp.importLog(log);
    const summary = await lsp.request('stageLens/summary', { sessionId: session.id });
    assert.deepEqual(summary.endToEnd?.timePerToken, { ms: null, requests: 1, notRecorded: { noOutput: 1 } });
    assert.deepEqual(summary.endToEnd?.timePerToken, cliTimePerToken(log));
    const model = endToEndModel(summary, 'p50');
    const row = model?.rows.find((r) => r.key === 'timePerToken');
    assert.deepEqual(
      [row?.requestCount, row?.cells['time']?.text, row?.cells['time']?.state, row?.cells['time']?.value],
      [0, 'not recorded', 'notRecorded', null],
    );
    // The sentence under the table is the CLI table's, word for word.
    const table = cliStdout(['analyze', log]);
    assert.equal(model?.leftOut?.length, 1);
    assert.ok(table.includes(`  ${model?.leftOut?.[0]}\n`), table);
    assert.match(model?.leftOut?.[0] ?? '', /^time per token: 1 of 1 request printed 0\.0, .*not counted as 0 ms\.$/);
  },
);
