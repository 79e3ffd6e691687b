// A log in vLLM-Omni's format before February 2026 (request_level_metrics dicts only) in the built
// side panel in headless Chromium: the stage times, the end to end and each request's transfer
// total, as the CLI's table shows them, instead of phase columns the format never prints; the
// requests without a measured total are said in the hover, never taken as 0.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { REPO_ROOT, WebviewHarness } from '../fixtures/webview/browserHarness';
import { importedSessionOfLog } from '../fixtures/webview/logSession';

// Fixture 06's dict repeated with other values: five requests, one without transfer totals, one
// with a negative transfers_total_time_ms.
const LOG = path.join(REPO_ROOT, 'test/fixtures/logs/legacy-request-level-metrics-several.log');

let harness: WebviewHarness;

before(async () => {
  harness = await WebviewHarness.start(importedSessionOfLog(fs.readFileSync(LOG), 'legacy-several'));
});

after(async () => {
  await harness?.close();
});

test('side panel: stage time, end to end and the transfer total per request, over measured values only', async () => {
  const view = await harness.open('sidePanel', { width: 420, height: 900 });
  try {
    const page = view.page;
    await page.locator('[data-testid="stage-row"][data-stage-key="transfers"]').waitFor();
    assert.equal(
      await page.locator('.table-caption').textContent(),
      'From the log stage time, end to end and transfer totals from the per-request stats of vLLM-Omni before February 2026 (request_level_metrics dicts or .stats.jsonl records), no phase split',
    );
    const rows = (await page.evaluate(
      `[...document.querySelectorAll('[data-testid="stage-row"]')].map((tr) => [tr.dataset.stageKey, tr.querySelector('.stage-id').textContent, [...tr.querySelectorAll('td')].map((td) => td.dataset.col + '=' + td.querySelector('.v').textContent).join(' ')])`,
    )) as string[][];
    assert.deepEqual(rows, [
      ['0', 'stage 0', 'time=62.9'],
      ['1', 'stage 1', 'time=57,911'],
      ['e2e', 'end to end', 'time=58,150'],
      // 120.5, 244.5755, 310.25 ms: the p50 is the middle one.
      ['transfers', 'transfers (total per request)', 'time=245'],
      // analyze: `time per token  5  19.50  20.92  21.44  21.50`.
      ['timePerToken', 'time per token', 'time=19.5'],
    ]);
    assert.equal(await page.locator('[data-testid="left-out-note"]').isVisible(), false);
    // Each count's tooltip says what it counts: a stage's requests, or those that measured the row's figure.
    const counts = (await page.evaluate(
      `[...document.querySelectorAll('[data-testid="stage-row"] .stage-count')].map((c) => c.textContent + ': ' + c.title)`,
    )) as string[];
    assert.deepEqual(counts, [
      'n=5: 5 requests measured in this stage',
      'n=5: 5 requests measured in this stage',
      'n=5: 5 requests with a measured end-to-end time',
      'n=3: 3 requests with a measured transfer total',
      'n=5: 5 requests with a measured time per token',
    ]);
    const title = await page
      .locator('[data-testid="stage-row"][data-stage-key="transfers"] td[data-col="time"]')
      .getAttribute('title');
    assert.equal(
      title,
      'transfers_total_time_ms p50: 244.576 ms over 3 requests. Size (transfers_total_bytes) p50: 37,044.059 KB over 4 requests. 1 of 5 requests printed no time: left out, not counted as 0. 1 of 5 requests printed one below zero, nan or inf: not a time, left out.',
    );
  } finally {
    await view.close();
  }
});
