// Real public logs whose only run-level figures are a summary dict vLLM-Omni printed itself
// (the December 2025 single-line dict; omni.py's [Summary] beside a request_level_metrics
// dict), imported through the language server (dist/server.js over stdio): the session's
// summary carries that dict's numbers as printed, so the editor can show what the server
// summarized, and nothing of it becomes a request or a stage.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { startLanguageServer, storageForFile, type LspProcess } from './support/lspProcess';
import type { SummaryResult } from '../../server/protocol';

const ROOT = path.resolve(__dirname, '..', '..');
const REAL = path.join(ROOT, 'test', 'fixtures', 'real-logs');
const storage = storageForFile('stage-lens-run-summaries-');

async function importedSummary(lsp: LspProcess, log: string): Promise<{ id: string; summary: SummaryResult }> {
  const session = await lsp.importLog(log);
  return { id: session.id, summary: await lsp.request('stageLens/summary', { sessionId: session.id }) };
}

test(
  'an imported log of one summary dict: the summary has its numbers as printed, no request',
  { timeout: 60_000 },
  async () => {
    const lsp = await startLanguageServer(storage);
    const { id, summary } = await importedSummary(lsp, path.join(REAL, '14-issue533-legacy-summary-dict.log'));
    assert.equal(summary.requestCount, 0);
    assert.deepEqual(summary.stages, []);
    const run = summary.runSummaries;
    assert.ok(run !== null && run !== undefined, 'the summary carries the run summaries');
    assert.equal(run.count, 1);
    assert.equal(run.kept.length, 1);
    const dict = run.kept[0];
    assert.ok(dict !== undefined);
    assert.equal(dict.format, 'summary dict');
    assert.equal(dict.title, 'the single-line summary dict (vLLM-Omni, December 2025)');
    assert.equal(dict.line, 2);
    // The paste ends inside the dict: what follows the cut is unknown, and said so.
    assert.equal(dict.complete, false);
    assert.equal(dict.values['e2e_requests'], 1);
    assert.equal(dict.values['e2e_total_time_ms'], 497714.5309448242);
    assert.equal(dict.values['stages.1.total_time_ms'], 438871.4487552643);
    assert.equal(dict.values['stages.0.avg_tokens_per_s'], 16.049234718088286);
    assert.equal(dict.values['transfers.0.total_bytes'], 39589010);
    // Printed 0.0 is a printed 0; a key after the cut is absent, not 0.
    assert.equal(dict.values['e2e_avg_tokens_per_s'], 0);
    assert.equal(dict.values['transfers.1.rx_total_bytes'], undefined);
    assert.equal(Object.keys(dict.values).length, 46);
    // A window of requests has none of the log's summaries.
    const windowed = await lsp.request('stageLens/summary', { sessionId: id, windowSeconds: 60 });
    assert.equal(windowed.runSummaries, null);
  },
);

test(
  "omni.py's [Summary] beside a request's dict: the request from its dict, the run's totals from the summary",
  { timeout: 60_000 },
  async () => {
    const lsp = await startLanguageServer(storage);
    const { summary } = await importedSummary(lsp, path.join(REAL, '08-pr500-legacy-omni-summary.log'));
    assert.equal(summary.requestCount, 1);
    const run = summary.runSummaries;
    assert.ok(run !== null && run !== undefined);
    assert.equal(run.count, 1);
    const dict = run.kept[0];
    assert.ok(dict !== undefined);
    assert.equal(dict.title, "omni.py's [Summary] dict (vLLM-Omni before February 2026)");
    assert.equal(dict.line, 11);
    assert.deepEqual(dict.values, {
      e2e_requests: 3,
      e2e_total_time_ms: 655866.8031692505,
      e2e_sum_time_ms: 1967503.7143230438,
      e2e_total_tokens: 0,
      e2e_avg_time_per_request_ms: 655834.5714410146,
      e2e_avg_tokens_per_s: 0,
      wall_time_ms: 655866.8031692505,
    });
    // The summary's 3 requests are the run's; the session has the one request its dicts
    // describe, whose end to end is its own e2e_time_ms, not the summary's average.
    assert.equal(summary.endToEnd?.ms.count, 1);
    assert.equal(summary.endToEnd?.ms.max, 655865.7915592194);
  },
);
