// Helpers shared by the UI tests (test/editor/ui/*.ui.ts): the side bar's webview, text
// polled until a live webview shows what a test waits for, sashes dragged like a person.
import type { FrameLocator, Locator } from 'playwright-core';
import type { Workbench } from '../harness/workbench';

// The few DOM shapes used inside page.evaluate (the tsconfig has no "dom" lib).
interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
  width: number;
  height: number;
}
interface El {
  readonly id: string;
  readonly parentElement: El | null;
  getBoundingClientRect(): Box;
}
interface Doc {
  querySelector(s: string): El | null;
  querySelectorAll(s: string): ArrayLike<El>;
}

/**
 * The webview of the view shown in the side bar. Stage Lens's container holds one view, so
 * VS Code shows no pane header (the side bar's title reads "STAGE LENS: LATENCY"), and a
 * view's webview frame sits in a plain overlay div: find the ready webview frame that lies
 * over the side bar.
 */
export async function sideBarWebview(wb: Workbench, timeoutMs: number): Promise<FrameLocator> {
  const locate = (): Promise<string | null> =>
    wb.page.evaluate(() => {
      const document = (globalThis as unknown as { document: Doc }).document;
      const bar = document.querySelector('.part.sidebar .content');
      if (bar === null) return null;
      const box = bar.getBoundingClientRect();
      for (const frame of Array.from(document.querySelectorAll('iframe.webview.ready'))) {
        const r = frame.getBoundingClientRect();
        const cx = r.left + r.width / 2;
        const cy = r.top + r.height / 2;
        const holder = frame.parentElement;
        if (
          holder !== null &&
          holder.id !== '' &&
          r.width > 0 &&
          cx >= box.left &&
          cx <= box.right &&
          cy >= box.top &&
          cy <= box.bottom
        )
          return holder.id;
      }
      return null;
    });
  return wb.findWebview('in the side bar', locate, timeoutMs);
}

/** Text of a webview element, polled until `accept` is happy with it (the webview updates live). */
export async function waitText(
  view: FrameLocator,
  selector: string,
  accept: (text: string) => boolean,
  what: string,
  timeoutMs = 60_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    const el = view.locator(selector).first();
    if ((await el.count()) > 0) {
      last = ((await el.textContent()) ?? '').trim();
      if (accept(last)) return last;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last text: "${last}"`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** A measured number as the cells print it ("1,451", "13.4"), or NaN for words. */
export const numberOf = (text: string): number =>
  /^[\d,]+(\.\d+)?$/.test(text) ? Number(text.replace(/,/g, '')) : Number.NaN;

/** Drags the vertical sash (a split between side bar, editor groups...) nearest to x = `near` to x = `to`, as a person would with the mouse. */
export async function dragSash(wb: Workbench, near: number, to: number): Promise<void> {
  const sashes = wb.page.locator('.monaco-workbench .monaco-sash.vertical');
  let best: { x: number; y: number } | null = null;
  for (let i = 0; i < (await sashes.count()); i++) {
    const box = await sashes.nth(i).boundingBox();
    if (box === null || box.height < 200) continue;
    const x = box.x + box.width / 2;
    if (best === null || Math.abs(x - near) < Math.abs(best.x - near)) best = { x, y: box.y + box.height / 2 };
  }
  if (best === null || Math.abs(best.x - near) > 8) throw new Error(`no vertical sash near x=${near}`);
  await wb.page.mouse.move(best.x, best.y);
  await wb.page.mouse.down();
  await wb.page.mouse.move((best.x + to) / 2, best.y, { steps: 4 });
  await wb.page.mouse.move(to, best.y, { steps: 4 });
  await wb.page.mouse.up();
}

/** The editor group (1-based, left to right) whose tab has this title. */
export async function groupOfTab(wb: Workbench, title: string): Promise<number> {
  const groups = wb.page.locator('.part.editor .editor-group-container');
  const n = await groups.count();
  for (let i = 0; i < n; i++) {
    const tabs = groups.nth(i).locator('.tabs-container .tab');
    for (let j = 0; j < (await tabs.count()); j++) {
      const label = (await tabs.nth(j).getAttribute('aria-label')) ?? '';
      if (label === title || label.startsWith(`${title}, `)) return i + 1;
    }
  }
  return 0;
}

/**
 * Command palette -> Import Log..., the path typed into VS Code's own file dialog (the web
 * host's) as a person would, and accepted once the typed path has stayed in the box (the
 * dialog fills in its start folder and lists it after it opens), typed again if the dialog
 * stays open.
 */
export async function importLog(wb: Workbench, file: string): Promise<void> {
  // The dialog opens in the palette's own widget, at times before the palette was seen to close.
  const dialogTitle = wb.page.locator('.quick-input-widget .quick-input-title', {
    hasText: 'Stage Lens: import a server log',
  });
  await wb.runCommand('Stage Lens: Import Log...', 10_000).catch(async (e: unknown) => {
    if (!(await dialogTitle.isVisible())) throw e;
  });
  const input = wb.page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible' });
  await wb.page
    .locator('.quick-input-widget .quick-input-list .monaco-list-row')
    .first()
    .waitFor({ state: 'visible', timeout: 30_000 });
  const widget = wb.page.locator('.quick-input-widget');
  const deadline = Date.now() + 45_000;
  for (;;) {
    await input.fill(file);
    await wb.page.waitForTimeout(700);
    // A late listing of the start folder may put its path back after Enter too: then type again.
    if ((await input.inputValue()) === file) {
      await input.press('Enter');
      const closed = await widget
        .waitFor({ state: 'hidden', timeout: 5_000 })
        .then(() => true)
        .catch(() => false);
      if (closed) return;
    }
    if (Date.now() > deadline)
      throw new Error(`the file dialog did not take the path; it shows "${await input.inputValue()}"`);
  }
}

/**
 * The Explorer's row of `name` in the workspace's root, once shown: a file written after the
 * window opened is shown when the Explorer's watcher sees it, else after a Refresh Explorer.
 */
export async function explorerRow(wb: Workbench, name: string): Promise<Locator> {
  await wb.runCommand('View: Show Explorer');
  const row = wb.page.getByRole('treeitem', { name, exact: true });
  for (let tries = 0; ; tries++) {
    const shown = await row
      .waitFor({ state: 'visible', timeout: 5_000 })
      .then(() => true)
      .catch(() => false);
    if (shown) return row;
    if (tries === 5) throw new Error(`the Explorer does not show ${name}`);
    await wb.page.locator('.action-label[aria-label="Refresh Explorer"]').first().click({ force: true });
  }
}

/** Right-click on `row` (a file, or one of the files selected), then Import Log... on its context menu. */
export async function importFromContextMenu(wb: Workbench, row: Locator): Promise<void> {
  const item = wb.page.locator('.monaco-menu .action-item', { hasText: 'Import Log...' });
  // A menu opened before the workbench has the extension's contributions lacks the item: it is
  // closed and opened again (seen on a loaded machine, a window's first seconds).
  const deadline = Date.now() + 45_000;
  for (;;) {
    await row.click({ button: 'right' });
    const shown = await item
      .waitFor({ state: 'visible', timeout: 5_000 })
      .then(() => true)
      .catch(() => false);
    if (shown) break;
    if (Date.now() > deadline) await item.waitFor({ state: 'visible', timeout: 1 });
    await wb.page.keyboard.press('Escape');
  }
  await item.hover();
  await item.click();
  // A click while the menu still settles can be lost; the item is then the highlighted one.
  if (await item.isVisible().catch(() => false)) await wb.page.keyboard.press('Enter');
}
