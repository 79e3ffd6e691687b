// The Latency Summary side panel scrolled down to a session's findings, then another session is
// shown (a second import, a session picked): the panel starts at the new session's top, its name
// and headline in view; an update of the same session keeps where the reader is. Built bundle
// in headless Chromium, fed through the core's own analysis.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { WebviewPage } from '../fixtures/webview/browserHarness';
import { REPO_ROOT, WebviewHarness, waitUntil } from '../fixtures/webview/browserHarness';
import { sessionOfLog } from '../fixtures/webview/logSession';
import type { SyntheticSession } from '../fixtures/webview/syntheticSession';

const LOG = path.join(REPO_ROOT, 'test/fixtures/upstream-rendered/qwen3tts-talker-first-audio-after-fix.log');

let data: SyntheticSession;
let harness: WebviewHarness;
let view: WebviewPage;

before(async () => {
  data = sessionOfLog(LOG);
  harness = await WebviewHarness.start(data);
  view = await harness.open('sidePanel', { width: 320, height: 500 });
  await view.page.locator('[data-testid="stage-row"]').first().waitFor();
});

after(async () => {
  await view?.close();
  await harness?.close();
});

// Expressions as strings: the tests compile without the DOM library.
const scrollY = async (): Promise<number> => (await view.page.evaluate('window.scrollY')) as number;

async function scrollToEnd(): Promise<number> {
  await view.page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
  await waitUntil(view.page, 'window.scrollY > 300');
  return scrollY();
}

test('an update of the shown session keeps the scroll position', async () => {
  const at = await scrollToEnd();
  await view.dispatch({ type: 'session', session: { ...data.session, requestCount: 7 }, stageNames: data.stageNames });
  await view.dispatch({ type: 'summary', summary: data.summary });
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(await scrollY(), at);
});

test('another session shown starts at its top, its name in view', async () => {
  await scrollToEnd();
  const other = { ...data.session, id: 'imported-2', title: 'second.log' };
  await view.dispatch({ type: 'session', session: other, stageNames: data.stageNames });
  await view.dispatch({ type: 'summary', summary: { ...data.summary, sessionId: 'imported-2' } });
  await waitUntil(view.page, `document.body.innerText.includes('second.log')`);
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(await scrollY(), 0);
});

test('another session shown before its summary: nothing of the last one, then its own numbers', async () => {
  assert.ok(data.summary.findings.length > 0, 'the log has findings to be left behind');
  const stageRow = view.page.locator('[data-testid="stage-row"]').first();
  assert.equal(await stageRow.isVisible(), true);
  assert.equal(await view.page.locator('[data-testid="findings"]').isVisible(), true);
  const third = { ...data.session, id: 'imported-3', title: 'third.log', requestCount: 0 };
  await view.dispatch({ type: 'session', session: third, stageNames: data.stageNames });
  await waitUntil(view.page, `document.body.innerText.includes('third.log')`);
  assert.equal(await view.page.locator('[data-testid="waiting"]').isVisible(), true);
  // The last session's stage rows, end to end and findings are not shown as this one's.
  assert.equal(await stageRow.isVisible(), false);
  assert.equal(await view.page.locator('[data-testid="e2e-section"]').isVisible(), false);
  assert.equal(await view.page.locator('[data-testid="findings"]').isVisible(), false);
  assert.equal(await view.page.locator('[data-testid="findings-none"]').isVisible(), false);
  await view.dispatch({ type: 'summary', summary: { ...data.summary, sessionId: 'imported-3' } });
  await stageRow.waitFor({ state: 'visible' });
  assert.equal(await view.page.locator('[data-testid="waiting"]').isVisible(), false);
  assert.equal(await view.page.locator('[data-testid="findings"]').isVisible(), true);
});
