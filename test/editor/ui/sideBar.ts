// Finding Stage Lens's side-bar webview in the workbench and reading its text as it updates:
// shared by the UI tests (this file is not a test: only *.ui.ts files are loaded as tests).
import type { FrameLocator } from 'playwright-core';
import type { Workbench } from '../harness/workbench';

// The few DOM shapes used inside page.evaluate (the tsconfig has no "dom" lib).
export interface Box { left: number; right: number; top: number; bottom: number; width: number; height: number }
export interface El { readonly id: string; readonly parentElement: El | null; getBoundingClientRect(): Box }
export interface Doc { querySelector(s: string): El | null; querySelectorAll(s: string): ArrayLike<El> }

/**
 * The webview of the view shown in the side bar. Stage Lens's container holds one view, so
 * VS Code shows no pane header (the side bar's title reads "STAGE LENS: LATENCY"), and a
 * view's webview frame sits in a plain overlay div: find the ready webview frame that lies
 * over the side bar.
 */
export async function sideBarWebview(wb: Workbench, timeoutMs: number): Promise<FrameLocator> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const id = await wb.page.evaluate(() => {
      const document = (globalThis as unknown as { document: Doc }).document;
      const bar = document.querySelector('.part.sidebar .content');
      if (bar === null) return null;
      const box = bar.getBoundingClientRect();
      for (const frame of Array.from(document.querySelectorAll('iframe.webview.ready'))) {
        const r = frame.getBoundingClientRect();
        const cx = r.left + r.width / 2;
        const cy = r.top + r.height / 2;
        const holder = frame.parentElement;
        if (holder !== null && holder.id !== '' && r.width > 0 && cx >= box.left && cx <= box.right && cy >= box.top && cy <= box.bottom) return holder.id;
      }
      return null;
    });
    if (id !== null) return wb.page.frameLocator(`[id="${id}"] > iframe.webview.ready`).frameLocator('#active-frame');
    if (Date.now() > deadline) throw new Error(`no webview in the side bar after ${timeoutMs} ms`);
    await wb.page.waitForTimeout(200);
  }
}

/** Text of a webview element, polled until `accept` is happy with it (the webview updates live). */
export async function waitText(view: FrameLocator, selector: string, accept: (text: string) => boolean, what: string, timeoutMs = 60_000): Promise<string> {
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

