// A log of the per-request stats dicts of vLLM-Omni before February 2026, over a real connection
// to the language server: the legacy-stats-format finding (no phase split in that format, and
// what prints one) is on every summary of its requests, the whole session's and a window's or a
// scope's alike, so a view of the last minutes says what the whole-session view says.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import type { SummaryParams } from '../../server/protocol';
import { legacyStatsOnly } from '../../webview/sidePanel/timingModel';
import { startLanguageServer, storageForFile } from './support/lspProcess';

const LOGS = path.resolve(__dirname, '..', 'fixtures', 'logs');
const storage = storageForFile('stage-lens-legacy-format-');

test(
  'five request_level_metrics dicts: the whole session, a window and a scope carry the same legacy-stats-format warning',
  { timeout: 90_000 },
  async () => {
    const lsp = await startLanguageServer(storage);
    const session = await lsp.importLog(path.join(LOGS, 'legacy-request-level-metrics-several.log'));
    const whole = await lsp.request('stageLens/summary', { sessionId: session.id });
    const wholeFinding = whole.findings.find((f) => f.code === 'legacy-stats-format');
    assert.equal(wholeFinding?.severity, 'warning');
    assert.match(
      wholeFinding?.message ?? '',
      /^The log has \d+ stats dicts in vLLM-Omni's format before February 2026 .*: 5 requests are read from its request_level_metrics dicts/,
    );
    const narrower: Omit<SummaryParams, 'sessionId'>[] = [{ windowSeconds: 3600 }, { scope: { excludeCold: true } }];
    for (const params of narrower) {
      const summary = await lsp.request('stageLens/summary', { sessionId: session.id, ...params });
      const what = JSON.stringify(params);
      assert.equal(summary.requestCount, 5, what);
      assert.deepEqual(
        summary.findings.filter((f) => f.code === 'legacy-stats-format'),
        [wholeFinding],
        `${what}: ${summary.findings.map((f) => f.code).join(' ')}`,
      );
      // So the side panel shows the stage time, end to end and transfer totals of that format, not empty phase columns.
      assert.equal(legacyStatsOnly(summary), true, what);
    }
  },
);

test(
  'a window of a log whose requests are read from their tables and dicts: the finding is information, as for the whole session',
  { timeout: 90_000 },
  async () => {
    const lsp = await startLanguageServer(storage);
    const session = await lsp.importLog(path.join(LOGS, 'pr891-stage-wall-time-list.log'));
    const whole = await lsp.request('stageLens/summary', { sessionId: session.id });
    const windowed = await lsp.request('stageLens/summary', { sessionId: session.id, windowSeconds: 3600 });
    const legacy = (s: typeof whole): unknown => s.findings.find((f) => f.code === 'legacy-stats-format');
    assert.equal(windowed.requestCount, 1);
    assert.equal((legacy(whole) as { severity?: string } | undefined)?.severity, 'info');
    assert.deepEqual(legacy(windowed), legacy(whole));
    assert.equal(legacyStatsOnly(windowed), false);
  },
);
