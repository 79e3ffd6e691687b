// Opening a request from the keyboard, in the built Latency Details bundle in headless
// Chromium on the Qwen3-TTS log before the codec stats fix: arrows and Enter in the Requests
// grid open the timeline with the focus on the request's heading (not lost on the hidden
// grid), and Escape there goes back to the grid, its row still the selected one.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { REPO_ROOT, WebviewHarness, waitUntil } from '../fixtures/webview/browserHarness';
import { sessionOfLog } from '../fixtures/webview/logSession';

const LOG = path.join(REPO_ROOT, 'test/fixtures/upstream-rendered/qwen3tts-talker-first-audio-before-fix.log');
let harness: WebviewHarness;

before(async () => {
  harness = await WebviewHarness.start(sessionOfLog(LOG));
});

after(async () => {
  await harness?.close();
});

const FOCUSED = `(() => { const e = document.activeElement; return e === null ? '' : (e.dataset.testid ?? e.tagName); })()`;

describe('Requests grid: Enter opens a request, Escape comes back', () => {
  test("the focus moves to the timeline's heading, then back to the grid on its row", async () => {
    const view = await harness.open('latencyPanel', { width: 900, height: 600 });
    try {
      const page = view.page;
      await waitUntil(
        page,
        `document.querySelector('[data-testid="request-id"][data-index="5"]')?.dataset.state === 'text'`,
      );
      await page.getByTestId('request-table').focus();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      await waitUntil(
        page,
        `document.querySelector('[data-testid="request-table"]').getAttribute('aria-activedescendant') === 'request-row-1'`,
      );
      const id = (await page.locator('[data-testid="request-id"][data-index="1"]').textContent()) ?? '';
      await page.keyboard.press('Enter');
      await waitUntil(
        page,
        `document.querySelector('[data-testid="tab-timeline"]').getAttribute('aria-selected') === 'true'`,
      );
      assert.equal(await page.evaluate(FOCUSED), 'waterfall-title', 'the focus is on the opened request');
      assert.equal(await page.getByTestId('waterfall-title').textContent(), id);
      await waitUntil(page, `!document.querySelector('[data-testid="waterfall-legend"]').hidden`);
      assert.equal(await page.evaluate(FOCUSED), 'waterfall-title', 'still there once its timeline is drawn');

      await page.keyboard.press('Escape');
      await waitUntil(
        page,
        `document.querySelector('[data-testid="tab-requests"]').getAttribute('aria-selected') === 'true'`,
      );
      assert.equal(await page.evaluate(FOCUSED), 'request-table');
      assert.equal(await page.getByTestId('request-table').getAttribute('aria-activedescendant'), 'request-row-1');
      assert.equal(
        await page.locator('[data-testid="request-row"][data-index="1"]').getAttribute('aria-selected'),
        'true',
      );
      // The arrows go on from that row.
      await page.keyboard.press('ArrowDown');
      await waitUntil(
        page,
        `document.querySelector('[data-testid="request-table"]').getAttribute('aria-activedescendant') === 'request-row-2'`,
      );
    } finally {
      await view.close();
    }
  });
});
