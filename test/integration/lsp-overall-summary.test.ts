// A real public log of [Overall Summary] tables only, imported through the language server
// (dist/server.js over stdio): the session's summary carries the tables' digest that the side
// panel and the status bar show, with no stage and no request invented from it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { startLanguageServer, storageForFile } from './support/lspProcess';

const ROOT = path.resolve(__dirname, '..', '..');
const storage = storageForFile('stage-lens-overall-');

test(
  'an imported log of one [Overall Summary] table: the summary has its values, no stage',
  { timeout: 60_000 },
  async () => {
    const lsp = await startLanguageServer(storage);
    const log = path.join(ROOT, 'test', 'fixtures', 'real-logs', '02-pr891-overall-apiserver-prefix.log');
    const session = await lsp.importLog(log);
    const summary = await lsp.request('stageLens/summary', { sessionId: session.id });
    assert.equal(summary.requestCount, 0);
    assert.deepEqual(summary.stages, []);
    assert.equal(summary.endToEnd, null);
    const o = summary.overallSummaries;
    assert.ok(o !== null && o !== undefined);
    assert.deepEqual([o.tables, o.cutOffTables, o.coveringSeveral, o.cellsLeftOut], [1, 0, 0, 0]);
    assert.deepEqual(o.fields['e2e_wall_time_ms'], {
      count: 1,
      mean: 40828.324,
      p50: 40828.324,
      p90: 40828.324,
      p99: 40828.324,
      max: 40828.324,
    });
    assert.equal(o.fields['e2e_stage_2_wall_time_ms']?.max, 625.227);
    assert.equal(o.fields['e2e_avg_tokens_per_s']?.max, 125.036);
    // A window of requests has none of the log's tables.
    const windowed = await lsp.request('stageLens/summary', { sessionId: session.id, windowSeconds: 60 });
    assert.equal(windowed.overallSummaries, null);
  },
);
