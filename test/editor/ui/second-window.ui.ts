// A second window of the same browser, as a reviewer opened one: Open Session there shows
// the Latency Summary and Latency Details together. Both webviews of that window, and the
// first window's, share VS Code for the Web's webview service worker, which each of them
// registers again as it is created; a page that loaded its code from its asWebviewUri could
// then have that request go out uncaught and fail, and the side bar stayed blank. Every
// page must render with no request for a bundle file failing.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { uiTest } from '../harness/ui';
import type { Workbench } from '../harness/workbench';
import { importLog, sideBarWebview, waitText } from './uiHelpers';

const LOG = path.resolve(__dirname, '../../fixtures/logs/b7-examples-plain.log');
const TITLE = /^b7-examples-plain\.log(?: \(\d+\))? · logged 08-21 18:00:00$/;

/** Requests for a webview bundle (dist/webview/...) that failed or were answered with an error. */
function watchBundleRequests(page: Page, failed: string[]): void {
  const isBundle = (url: string): boolean => url.includes('/dist/webview/');
  page.on('requestfailed', (r) => {
    if (isBundle(r.url())) failed.push(`${r.url()} ${r.failure()?.errorText ?? ''}`);
  });
  page.on('response', (r) => {
    if (isBundle(r.url()) && r.status() >= 400) failed.push(`${r.url()} ${r.status()}`);
  });
}

/**
 * A new window lists the extension's commands some seconds after it shows (its extension host
 * starts then), and an open palette does not take them in: opened again until it does.
 */
async function runWhenOffered(wb: Workbench, title: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      await wb.runCommandOpeningPicker(title, 3_000);
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await wb.page.keyboard.press('Escape');
      await wb.page.waitForTimeout(1_000);
    }
  }
}

async function sessionTitle(wb: Workbench): Promise<string> {
  const side = await sideBarWebview(wb, 60_000);
  return waitText(side, '[data-testid="session-title"]', (t) => TITLE.test(t), 'the imported log in the side bar');
}

uiTest(
  'a second window: Open Session shows the Latency Summary and Latency Details, no bundle request failing',
  async (wb) => {
    await wb.page.setViewportSize({ width: 1400, height: 900 });
    const failed: string[] = [];
    watchBundleRequests(wb.page, failed);
    await wb.openFile('qwen3_tts.yaml');
    await importLog(wb, LOG);
    assert.match(await sessionTitle(wb), TITLE);

    const folder = path.join(wb.workspace, 'second-window');
    fs.mkdirSync(folder);
    const second = await wb.openWindow(folder);
    watchBundleRequests(second.page, failed);
    await runWhenOffered(second, 'Stage Lens: Open Session...');
    await second.page
      .locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: 'b7-examples-plain.log' })
      .first()
      .click();
    assert.match(await sessionTitle(second), TITLE);
    const details = await second.webview('Stage Lens: Latency Details', 60_000);
    await waitText(details, '[data-testid="request-total"]', (t) => t.length > 0, 'the request table');
    await second.screenshot('second-window');
    assert.deepEqual(failed, [], 'requests for webview bundles failed');
  },
  { timeoutMs: 240_000 },
);
