// The side panel (Latency Summary) as it is used in a real VS Code: the demo running, a
// sample log imported beside it, the two shown in turn, the side bar at its default width
// and narrowed to 240 px. Nothing runs out sideways (no horizontal scrollbar, no text past
// its card); the demo's trend keeps its points while the imported log is shown, and after
// the side bar was hidden and shown again (the view's page is then a new one).
import assert from 'node:assert/strict';
import * as path from 'node:path';
import type { FrameLocator } from 'playwright-core';
import { uiTest } from '../harness/ui';
import type { Workbench } from '../harness/workbench';
import { screenshotDir } from '../harness/config';
import { horizontalOverflows } from '../../fixtures/webview/overflowProbe';
import { dragSash, importLog, sideBarWebview, waitText } from './uiHelpers';

const SAMPLE = path.resolve(__dirname, '../../../samples/qwen3-tts-first-audio-cold-start.log');

interface Trend {
  readonly sessionId: string;
  /** The request count of each point: one per summary with a new count. */
  readonly counts: readonly number[];
}

/** Both attributes in one read: two reads could pair one session's counts with the next one's id. */
async function trendOf(side: FrameLocator): Promise<Trend> {
  const { sessionId, counts } = await side
    .locator('[data-testid="trend"]')
    .evaluate((el: { getAttribute(name: string): string | null }) => ({
      sessionId: el.getAttribute('data-session-id') ?? '',
      counts: el.getAttribute('data-counts') ?? '',
    }));
  return { sessionId, counts: counts === '' ? [] : counts.split(',').map(Number) };
}

/**
 * `later` continues `earlier`'s line: it holds earlier's last two points (two request counts:
 * a line started anew holds at most the last of them, when no request came in between).
 */
function continues(later: Trend, earlier: Trend): boolean {
  const last2 = earlier.counts.slice(-2);
  const at = later.counts.indexOf(last2[0] ?? Number.NaN);
  return last2.length === 2 && at >= 0 && later.counts[at + 1] === last2[1];
}

/** The trend once `accept` is happy with it (the view updates live). */
async function waitTrend(side: FrameLocator, accept: (t: Trend) => boolean, what: string): Promise<Trend> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const t = await trendOf(side);
    if (accept(t)) return t;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last trend: ${JSON.stringify(t)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The side bar dragged to `width` px; returns the width it took. */
async function sideBarTo(wb: Workbench, width: number): Promise<number> {
  const bar = await wb.page.locator('.part.sidebar').boundingBox();
  assert.ok(bar !== null, 'the side bar is shown');
  if (Math.abs(bar.width - width) > 1) await dragSash(wb, bar.x + bar.width, bar.x + width);
  await wb.page.waitForTimeout(500);
  return (await wb.page.locator('.part.sidebar').boundingBox())?.width ?? 0;
}

/** Asserts nothing of the side panel runs out sideways; a screenshot of the side bar either way. */
async function checkNoOverflow(wb: Workbench, side: FrameLocator, shot: string): Promise<void> {
  await wb.page.locator('.part.sidebar').screenshot({ path: path.join(screenshotDir(), `${shot}.png`) });
  const found = await side.locator('body').evaluate(horizontalOverflows);
  assert.deepEqual(found, [], `${shot}: ${found.join('\n')}`);
}

/**
 * Open Session...: the row of the demo this test started, by its title and "running" (other
 * tests' sessions share the storage folder, and one that failed may have left its demo running).
 */
async function openRunningSession(wb: Workbench, title: string): Promise<void> {
  await wb.runCommandOpeningPicker('Stage Lens: Open Session...');
  const rows = wb.page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
  const running = rows.filter({ hasText: title }).filter({ hasText: /running/ });
  await running
    .first()
    .waitFor({ timeout: 30_000 })
    .catch(async () => {
      throw new Error(`no running "${title}": ${(await rows.allTextContents()).join(' | ')}`);
    });
  // A click while the list is still being laid out (a loaded machine) can miss the row: tried again.
  const picker = wb.page.locator('.quick-input-widget');
  for (let attempt = 1; ; attempt++) {
    await running.first().click();
    const closed = await picker
      .waitFor({ state: 'hidden', timeout: 10_000 })
      .then(() => true)
      .catch(() => false);
    if (closed) return;
    if (attempt === 3) throw new Error(`the session picker stayed open after ${attempt} clicks on "${title}"`);
  }
}

uiTest(
  'side panel at the default and a 240 px side bar: nothing runs out sideways; the demo keeps its trend while an imported log is shown and after the side bar is hidden',
  async (wb) => {
    await wb.page.setViewportSize({ width: 1400, height: 1000 });
    await wb.openFile('qwen3_tts.yaml');
    await wb.runCommand('Stage Lens: Start Demo Server');
    let side = await sideBarWebview(wb, 60_000);
    await waitText(
      side,
      '[data-testid="session-meta"]',
      (t) => Number(/(\d+) requests?/.exec(t)?.[1] ?? 0) >= 3,
      'three captured requests',
      90_000,
    );
    await side.locator('[data-testid="scrape-section"]').waitFor({ timeout: 30_000 });
    await side.locator('[data-testid="tail-part"]').first().waitFor({ timeout: 30_000 });
    const demo = await waitTrend(side, (t) => t.counts.length >= 3, 'three points of the demo trend');
    const demoTitle = (await side.locator('[data-testid="session-title"]').textContent()) ?? '';
    assert.match(demoTitle, /\(demo, /);
    // Room for the side bar: the server's terminal and the latency panel are not looked at here.
    await wb.runCommand('View: Hide Panel');

    // ---------------------------------------------------------------- the default width, then 240 px
    const defaultWidth = (await wb.page.locator('.part.sidebar').boundingBox())?.width ?? 0;
    assert.ok(defaultWidth >= 240, `default side bar ${defaultWidth} px`);
    await checkNoOverflow(wb, side, 'side-panel-default-width');
    assert.ok(Math.abs((await sideBarTo(wb, 240)) - 240) <= 2, 'the side bar at 240 px');
    await checkNoOverflow(wb, side, 'side-panel-240px');
    await side.locator('[data-testid="scrape-section"]').scrollIntoViewIfNeeded();
    await checkNoOverflow(wb, side, 'side-panel-240px-metrics');

    // ---------------------------------------------------------------- another session, then the demo again
    await importLog(wb, SAMPLE);
    await waitText(
      side,
      '[data-testid="session-title"]',
      (t) => t.includes('qwen3-tts-first-audio-cold-start'),
      'the imported log as the session on screen',
    );
    // Its own line, none of the demo's points: the summaries sent while it was read, ending at
    // the whole log's 25 requests (one point, or more when a summary went out mid-import).
    const imported = await waitTrend(
      side,
      (t) => t.sessionId !== demo.sessionId && t.counts[t.counts.length - 1] === 25,
      "the imported log's own trend, at its 25 requests",
    );
    assert.ok(
      imported.counts.every((n, i) => n >= 1 && n <= 25 && (i === 0 || n >= (imported.counts[i - 1] ?? 0))),
      `the imported log's counts only: ${JSON.stringify(imported)}`,
    );
    await checkNoOverflow(wb, side, 'side-panel-240px-imported');
    await openRunningSession(wb, demoTitle);
    const back = await waitTrend(
      side,
      (t) => t.sessionId === demo.sessionId && t.counts.length > 0,
      'the demo trend again',
    );
    // Its points from before the switch are still its line; new ones follow.
    assert.ok(continues(back, demo), `${JSON.stringify(back)} after ${JSON.stringify(demo)}`);

    // ---------------------------------------------------------------- the side bar hidden and shown again
    await side.locator('body').evaluate(() => {
      (globalThis as unknown as { stageLensProbe?: number }).stageLensProbe = 1;
    });
    await wb.runCommand('View: Toggle Primary Side Bar Visibility');
    await wb.page.locator('.part.sidebar').waitFor({ state: 'hidden' });
    await wb.runCommand('View: Toggle Primary Side Bar Visibility');
    side = await sideBarWebview(wb, 30_000);
    const again = await waitTrend(
      side,
      (t) => t.sessionId === demo.sessionId && t.counts.length > 0,
      'the demo trend after the side bar was shown again',
    );
    const reloaded = await side
      .locator('body')
      .evaluate(() => (globalThis as unknown as { stageLensProbe?: number }).stageLensProbe === undefined);
    assert.ok(reloaded, 'the side bar shown again is a new page');
    assert.ok(continues(again, back), `${JSON.stringify(again)} after ${JSON.stringify(back)}`);
    await checkNoOverflow(wb, side, 'side-panel-240px-shown-again');

    await wb.runCommand('Stage Lens: Stop Capture');
  },
  { timeoutMs: 240_000 },
);
