// The request table's header in the built bundle in headless Chromium (real HTML shell, VS
// Code's 13 px UI font), over the synthetic session whose downstream stages print the input
// split (input wait, ready queued): every column's label is whole, sorted (with its arrow) too.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { WebviewHarness, waitUntil } from '../fixtures/webview/browserHarness';
import { syntheticSession } from '../fixtures/webview/syntheticSession';

let harness: WebviewHarness;

before(async () => {
  harness = await WebviewHarness.start(syntheticSession(60));
});

after(async () => {
  await harness?.close();
});

/** Header labels cut with an ellipsis: `col "text"`. */
const cutLabels = `[...document.querySelectorAll('.head-row [data-testid="sort"]')]
  .filter((b) => b.scrollWidth > b.clientWidth)
  .map((b) => b.dataset.sortKey + ' ' + JSON.stringify(b.textContent))`;

test('every header label is whole, "ready queued" included, and still when sorted by it', async () => {
  const view = await harness.open('latencyPanel', { width: 1000, height: 600 });
  try {
    const page = view.page;
    await waitUntil(page, `document.querySelector('[data-testid="request-total"]')?.dataset.total === '60'`);
    const ready = (await page.evaluate(
      `[...document.querySelectorAll('.head-row [data-testid="sort"]')].map((b) => b.dataset.sortKey).filter((k) => k.endsWith('.readyQueuedMs'))`,
    )) as string[];
    assert.ok(ready.length > 0, 'the session has a ready queued column');
    assert.deepEqual(await page.evaluate(cutLabels), []);
    for (const key of ready) {
      await page.locator(`.head-row [data-testid="sort"][data-sort-key="${key}"]`).click();
      await waitUntil(
        page,
        `document.querySelector('.head-row [data-col="${key}"]').getAttribute('aria-sort') !== 'none'`,
      );
      assert.deepEqual(await page.evaluate(cutLabels), []);
    }
  } finally {
    await view.close();
  }
});
