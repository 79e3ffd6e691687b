// A webview's first render must not depend on its resource URIs being served. In VS Code for
// the Web (code-server), a webview shown while another registers the shared webview service
// worker (the Latency Summary and Latency Details shown together, in a second window) can
// find its page's requests no longer intercepted: they go to the network and fail, and a page
// that loaded its bundle from its `asWebviewUri` stayed blank. Here the pages are built as
// the hosts build them (src/views/webviewBundle.ts, webviewHtml.ts) with every resource URI
// on a loopback port nobody listens on: each page must still run its code, with its styles,
// and say `ready`.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { CompareResult, WebviewToHost } from '../../server/protocol';
import { REPO_ROOT, WebviewHarness, waitUntil } from '../fixtures/webview/browserHarness';
import { sessionOfLog } from '../fixtures/webview/logSession';
import { unusedPort } from './support/unusedPort';

const LOG = path.join(REPO_ROOT, 'test/fixtures/upstream-rendered/qwen3tts-talker-first-audio-before-fix.log');

let harness: WebviewHarness;
let deadOrigin: string;

before(async () => {
  harness = await WebviewHarness.start(sessionOfLog(LOG));
  deadOrigin = `http://127.0.0.1:${await unusedPort()}`;
});

after(async () => {
  await harness?.close();
});

/** What the page loads from URIs: nothing, its code and styles are in it. */
function loadedByUri(page: Page): Promise<number> {
  return page.evaluate(`document.querySelectorAll('script[src], link[rel="stylesheet"]').length`) as Promise<number>;
}

async function postedTypes(page: Page): Promise<string[]> {
  return ((await page.evaluate('window.__posted')) as WebviewToHost[]).map((m) => m.type);
}

describe('webview pages whose resource URIs are not served', () => {
  test('the Latency Summary renders the session, styled, and says ready', async () => {
    const data = sessionOfLog(LOG);
    const view = await harness.open('sidePanel', { width: 300, height: 700, resourceOrigin: deadOrigin });
    try {
      await waitUntil(view.page, `document.querySelector('[data-testid="session-title"]')?.textContent !== ''`);
      assert.equal(await view.page.getByTestId('session-title').textContent(), data.session.title);
      assert.equal((await postedTypes(view.page))[0], 'ready');
      // Its stylesheet applies (style.css: `.side-panel { padding: 6px 8px 12px }`).
      assert.equal(
        await view.page.evaluate(`getComputedStyle(document.getElementById('side-panel')).padding`),
        '6px 8px 12px',
      );
      assert.equal(await loadedByUri(view.page), 0);
    } finally {
      await view.close();
    }
  });

  test('Latency Details renders its request table and says ready', async () => {
    const view = await harness.open('latencyPanel', { width: 1000, height: 600, resourceOrigin: deadOrigin });
    try {
      await waitUntil(view.page, `document.querySelector('[data-testid="request-total"]')?.dataset.total === '6'`);
      assert.ok((await postedTypes(view.page)).includes('ready'));
      assert.equal(await loadedByUri(view.page), 0);
    } finally {
      await view.close();
    }
  });

  test('Compare Sessions says ready', async () => {
    // Only its start is checked: the comparison it is answered with is not drawn here.
    const page = await harness.openCompare({} as CompareResult, { resourceOrigin: deadOrigin });
    try {
      await waitUntil(page, `window.__posted.some((m) => m.type === 'ready')`);
    } finally {
      await page.context().close();
    }
  });
});
