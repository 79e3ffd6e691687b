// The orchestrator stats file log_utils.py of vLLM-Omni before February 2026 writes beside its
// log (`<log file>.orchestrator.stats.jsonl`: end to end and edges per request, no stage) in
// the built side panel in headless Chromium: the end-to-end row and the edge's row with the
// numbers `analyze` prints for it, not an empty phase table waiting for a first request.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { REPO_ROOT, WebviewHarness } from '../fixtures/webview/browserHarness';
import { importedSessionOfLog } from '../fixtures/webview/logSession';

const LOG = path.join(REPO_ROOT, 'test/fixtures/logs/log-utils-orchestrator.stats.jsonl');

let harness: WebviewHarness;

before(async () => {
  harness = await WebviewHarness.start(importedSessionOfLog(fs.readFileSync(LOG), 'log-utils-orchestrator'));
});

after(async () => {
  await harness?.close();
});

test('side panel: the end to end of each request and its edge, as analyze prints them', async () => {
  const view = await harness.open('sidePanel', { width: 420, height: 900 });
  try {
    const page = view.page;
    await page.locator('[data-testid="stage-row"][data-stage-key="e2e"]').waitFor();
    const rows = (await page.evaluate(
      `[...document.querySelectorAll('[data-testid="stage-row"]')].map((tr) => [tr.dataset.stageKey, tr.querySelector('.stage-id').textContent, [...tr.querySelectorAll('td')].map((td) => td.dataset.col + '=' + td.querySelector('.v').textContent).join(' ')])`,
    )) as string[][];
    // analyze: `end to end  2  2,059  2,336  2,398  2,405`, `time per token  2  3.420  3.481  3.494  3.496`.
    assert.deepEqual(rows, [
      ['e2e', 'end to end', 'time=2,059'],
      ['timePerToken', 'time per token', 'time=3.42'],
    ]);
    assert.equal(await page.locator('[data-testid="waiting"]').isVisible(), false);
    assert.equal(await page.locator('[data-testid="edge-section"]').isVisible(), true);
    // analyze: `0 → 1  2  2  p50  7.375  1.750  4.125  13.25  2,800`.
    const total = await page
      .locator('[data-testid="edge-row"] td[data-col="field:total_time_ms"] .v')
      .first()
      .textContent();
    assert.equal(total, '13.3');
  } finally {
    await view.close();
  }
});
