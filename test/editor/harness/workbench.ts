// Driving the VS Code workbench like a person, for UI tests (test/editor/ui/*.ui.ts).
//
//   const wb = await startWorkbench({ install, server, workspace: dir, name: 'my-test' });
//   await wb.openFile('qwen3_tts.yaml');                 // Ctrl+P, pick the exact file
//   await wb.runCommand('Stage Lens: Open Timeline');    // F1, pick the exact command title
//   const view = await wb.webview('Stage Lens Timeline'); // the webview's own document (#active-frame)
//   await view.locator('#chart').waitFor();
//   await wb.screenshot('timeline');                     // test-output/screenshots/timeline.png
//
// Selectors were checked against VS Code 1.100.3 (and 1.139.1 for the webview frames).
import * as path from 'node:path';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { openBrowser, type BrowserPage } from './browser';
import { repoRoot, screenshotDir, type VSCodeInstall } from './config';
import type { VSCodeServer } from './server';

export interface WorkbenchOptions {
  install: VSCodeInstall;
  server: VSCodeServer;
  /** Folder opened in the workbench. */
  workspace: string;
  /** Extension loaded in development mode (default: this repo); null: none, the installed extensions only. */
  extensionDevelopmentPath?: string | null;
  viewport?: { width: number; height: number };
}

const DEFAULT_TIMEOUT = 30_000;
/** How long a found webview may show nothing before the workbench is asked to reload it. */
const WEBVIEW_CONTENT_MS = 15_000;

// The few DOM shapes used in page.evaluate() callbacks (the project's tsconfig has no "dom" lib;
// those callbacks run in the browser, where globalThis.document exists).
interface DomRect {
  left: number;
  right: number;
  top: number;
  bottom: number;
  width: number;
  height: number;
}
interface DomElement {
  readonly id: string;
  readonly textContent: string | null;
  readonly parentElement: DomElement | null;
  readonly style: { visibility: string };
  getAttribute(name: string): string | null;
  closest(selector: string): DomElement | null;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
  getBoundingClientRect(): DomRect;
}
interface DomWindow {
  document: { title: string; querySelectorAll(selector: string): ArrayLike<DomElement> };
}

/** The quick input closed before its row was picked: the command was not run. */
class QuickInputClosed extends Error {
  constructor(label: string) {
    super(`quick input: closed before its row "${label}" was picked`);
  }
}

/** CSS attribute-value escaping for use inside "..." */
function cssString(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
}

/** List rows / tabs whose aria-label is `label`, or `label, <suffix>` (VS Code appends e.g. ", file results"). */
function byAriaLabel(scope: string, label: string): string {
  const l = cssString(label);
  return `${scope}[aria-label="${l}"], ${scope}[aria-label^="${l}, "]`;
}

export class Workbench {
  /** Browser console errors and page errors seen so far (printed when a UI test fails). */
  readonly consoleErrors: string[] = [];
  /** What the harness did beyond the test's steps, and why (printed after the test's line). */
  readonly notes: string[] = [];

  private constructor(
    readonly page: Page,
    readonly workspace: string,
    private readonly browser: BrowserPage,
    private readonly opts: WorkbenchOptions,
  ) {}

  /** Opens the workbench on `workspace` with our extension in development mode and waits until it is ready. */
  static async start(opts: WorkbenchOptions): Promise<Workbench> {
    return Workbench.loaded(await openBrowser(opts.install, opts.viewport), opts);
  }

  /** The workbench of `browser`'s page once it is ready; the page is closed if it never is. */
  private static async loaded(browser: BrowserPage, opts: WorkbenchOptions): Promise<Workbench> {
    const wb = new Workbench(browser.page, opts.workspace, browser, opts);
    try {
      await wb.load();
      return wb;
    } catch (err) {
      await browser.close();
      throw err;
    }
  }

  /**
   * Another window of the same browser on `workspace`, as a person opens one (File > New
   * Window): same profile, so the webviews of both share their service worker. Closed with this one.
   */
  async openWindow(workspace: string): Promise<Workbench> {
    const page = await this.browser.context.newPage();
    const browser: BrowserPage = { context: this.browser.context, page, close: () => page.close() };
    return Workbench.loaded(browser, { ...this.opts, workspace });
  }

  private async load(): Promise<void> {
    const { page, opts } = this;
    page.setDefaultTimeout(DEFAULT_TIMEOUT);
    page.on('pageerror', (err) => this.consoleErrors.push(`[pageerror] ${err.message}`));
    page.on('console', (msg) => {
      if (msg.type() === 'error') this.consoleErrors.push(`[console] ${msg.text()}`);
    });
    const devPath = opts.extensionDevelopmentPath === undefined ? repoRoot : opts.extensionDevelopmentPath;
    await page.goto(
      opts.server.workbenchUrl(
        opts.workspace,
        devPath === null ? [] : [['extensionDevelopmentPath', opts.server.remoteUri(devPath)]],
      ),
    );
    await page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout: 60_000 });
    await page.locator('.monaco-workbench .part.editor').waitFor();
  }

  /** document.title, e.g. "[Extension Development Host] qwen3_tts.yaml - stage-lens-ws-x - code-server" */
  windowTitle(): Promise<string> {
    return this.page.title();
  }

  /** Waits until the window title contains `text`. */
  async waitForWindowTitle(text: string, timeout = DEFAULT_TIMEOUT): Promise<string> {
    await this.page.waitForFunction((t) => (globalThis as unknown as DomWindow).document.title.includes(t), text, {
      timeout,
    });
    return this.page.title();
  }

  /** The quick input (Ctrl+P / F1) text box. */
  private quickInput(): Locator {
    return this.page.locator('.quick-input-widget .quick-input-box input');
  }

  /**
   * Picks the row labelled exactly `label` in the open quick input. The list first shows stale
   * rows (history) and re-renders when results arrive, so wait until it has settled (same rows
   * for 300 ms, progress bar done) before clicking the row by its index.
   */
  private async pickQuickInputRow(label: string, timeout: number, closes = true): Promise<void> {
    const deadline = Date.now() + timeout;
    let last = '';
    let stableSince = Date.now();
    for (;;) {
      const snap = await this.page.evaluate((wanted) => {
        const document = (globalThis as unknown as DomWindow).document;
        const rows = Array.from(document.querySelectorAll('.quick-input-widget .quick-input-list .monaco-list-row'));
        const labels = rows.map((r) => `${r.getAttribute('data-index') ?? ''}=${r.getAttribute('aria-label') ?? ''}`);
        const match = rows.find((r) => {
          const l = r.getAttribute('aria-label') ?? '';
          return l === wanted || l.startsWith(`${wanted}, `);
        });
        const busy = document.querySelectorAll('.quick-input-widget .quick-input-progress:not(.done)').length > 0;
        // A closed widget keeps its rows, at no size.
        const widget = document.querySelectorAll('.quick-input-widget')[0];
        const shown = widget !== undefined && widget.getBoundingClientRect().height > 0;
        return { key: labels.join('|'), index: match?.getAttribute('data-index') ?? null, busy, shown };
      }, label);
      const now = Date.now();
      // The palette closed under the typed title (focus taken by a webview that was updating): said
      // apart, so that runCommand types it again instead of clicking a row no one can see.
      if (!snap.shown && now - stableSince >= 300) throw new QuickInputClosed(label);
      if (snap.key !== last) {
        last = snap.key;
        stableSince = now;
      } else if (snap.index !== null && !snap.busy && now - stableSince >= 300) {
        const row = this.page.locator(
          `.quick-input-widget .quick-input-list .monaco-list-row[data-index="${snap.index}"]`,
        );
        await row
          .click({ timeout: Math.max(1000, Math.min(5000, deadline - Date.now())) })
          .catch(async (e: unknown) => {
            // Closed between the look and the click.
            if (await row.isVisible()) throw e;
            throw new QuickInputClosed(label);
          });
        const left = Math.max(1000, deadline - Date.now());
        if (closes) await this.page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: left });
        else
          await this.page.waitForFunction(
            (wanted) =>
              !Array.from(
                (globalThis as unknown as DomWindow).document.querySelectorAll(
                  '.quick-input-widget .quick-input-list .monaco-list-row',
                ),
              ).some((r) => (r.getAttribute('aria-label') ?? '').startsWith(wanted)),
            label,
            { timeout: left },
          );
        return;
      }
      if (now > deadline)
        throw new Error(`quick input: no row "${label}" after ${timeout} ms; rows: ${last.replace(/\|/g, ' | ')}`);
      await this.page.waitForTimeout(50);
    }
  }

  /** Quick Open (Ctrl+P): types the file name and picks that exact file. `name` may be a relative path. */
  async openFile(name: string, timeout = DEFAULT_TIMEOUT): Promise<void> {
    const base = path.basename(name);
    await this.page.keyboard.press('Control+P');
    await this.quickInput().waitFor({ state: 'visible' });
    await this.quickInput().fill(name);
    await this.pickQuickInputRow(base, timeout);
    await this.page.locator(byAriaLabel('.tabs-container .tab.active', base)).waitFor({ timeout });
    await this.page.locator('.part.editor .editor-instance .monaco-editor .view-lines').first().waitFor({ timeout });
  }

  /**
   * Opens the command palette with F1 and returns its input box. A webview (the side panel)
   * can hold the keyboard, and F1 then never reaches the workbench: the editor gets it back
   * and F1 is pressed again.
   */
  async openPalette(): Promise<Locator> {
    const input = this.quickInput();
    for (let attempt = 0; attempt < 5; attempt++) {
      await this.page.keyboard.press('F1');
      const shown = await input.waitFor({ state: 'visible', timeout: 6_000 }).then(
        () => true,
        () => false,
      );
      if (shown) return input;
      await this.page
        .locator('.monaco-editor .view-lines')
        .first()
        .click()
        .catch(() => undefined);
    }
    throw new Error('the command palette did not open after F1, five times');
  }

  /**
   * Opens the palette and types `>title` into it. A focus change the last action set off (a
   * webview or editor taking the focus back) can close the palette just after it showed: it
   * is then opened again.
   */
  private async typeCommand(title: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const input = await this.openPalette();
      try {
        await input.fill(`>${title}`, { timeout: 6_000 });
        return;
      } catch (e) {
        if (attempt === 3 || (await input.isVisible())) throw e;
      }
    }
  }

  /** Command palette (F1): types the title and runs the command with exactly that title, e.g. "View: Toggle Word Wrap". */
  async runCommand(title: string, timeout = DEFAULT_TIMEOUT): Promise<void> {
    const deadline = Date.now() + timeout;
    for (;;) {
      await this.typeCommand(title);
      try {
        await this.pickQuickInputRow(title, Math.max(1000, deadline - Date.now()));
        return;
      } catch (e) {
        if (!(e instanceof QuickInputClosed) || Date.now() > deadline) throw e;
      }
    }
  }

  /**
   * Runs a command that opens a picker of its own (Open Session...): VS Code reuses the quick
   * input for it, so the widget need not be seen hidden in between; returns once the palette's
   * row is gone.
   */
  async runCommandOpeningPicker(title: string, timeout = DEFAULT_TIMEOUT): Promise<void> {
    await this.typeCommand(title);
    await this.pickQuickInputRow(title, timeout, false);
  }

  /** The editor tab with this title (file name or webview panel title). */
  tab(title: string): Locator {
    return this.page.locator(byAriaLabel('.tabs-container .tab', title)).first();
  }

  /** Title of the active editor tab in the active group. */
  async activeTabTitle(): Promise<string | null> {
    const tab = this.page.locator('.editor-group-container.active .tabs-container .tab.active').first();
    return (await tab.count()) > 0 ? tab.getAttribute('aria-label') : null;
  }

  /**
   * The HTML document of the webview titled `title`: an editor tab (WebviewPanel) or a view's
   * header (WebviewView). Brings that tab to the front, then returns the webview's inner frame
   * (`iframe.webview.ready` > `#active-frame`), so `locator()` calls query our own DOM.
   * VS Code draws every webview in an overlay <div id=ID> outside the editor; this matches the
   * visible overlay that lies over the tab's editor group (or the view's pane).
   */
  async webview(title: string, timeout = DEFAULT_TIMEOUT): Promise<FrameLocator> {
    const tab = this.tab(title);
    if ((await tab.count()) > 0 && !((await tab.getAttribute('class')) ?? '').split(/\s+/).includes('active'))
      await tab.click();
    const locate = (): Promise<string | null> =>
      this.page.evaluate((wanted) => {
        const document = (globalThis as unknown as DomWindow).document;
        // (no named helper functions in here: tsx's __name() wrapper does not exist in the page)
        let container: DomElement | null = null;
        for (const t of Array.from(document.querySelectorAll('.tabs-container .tab.active'))) {
          const l = t.getAttribute('aria-label') ?? '';
          if (l === wanted || l.startsWith(`${wanted}, `)) container = t.closest('.editor-group-container');
        }
        if (!container) {
          for (const h of Array.from(document.querySelectorAll('.pane-header'))) {
            const text = h.querySelector('.title')?.textContent?.trim() ?? '';
            if (text.toLowerCase() === wanted.toLowerCase())
              container = h.parentElement?.querySelector('.pane-body') ?? null;
          }
        }
        if (!container) return null;
        const box = container.getBoundingClientRect();
        for (const overlay of Array.from(document.querySelectorAll('div[data-parent-flow-to-element-id]'))) {
          if (overlay.style.visibility === 'hidden') continue;
          if (!overlay.querySelector('iframe.webview.ready')) continue;
          const r = overlay.getBoundingClientRect();
          const cx = r.left + r.width / 2;
          const cy = r.top + r.height / 2;
          if (r.width > 0 && cx >= box.left && cx <= box.right && cy >= box.top && cy <= box.bottom) return overlay.id;
        }
        return null;
      }, title);
    return this.findWebview(`titled "${title}"`, locate, timeout);
  }

  /**
   * The document of the webview in the overlay `locate` finds (its element id; null while there
   * is none), once it shows something. A fresh browser profile installs the webviews' service
   * worker first; on a busy machine a webview can wait on it for good and never load its
   * document. Then, once, the workbench's own remedy: Developer: Reload Webviews (each view
   * restores its state and asks its host again), noted in `notes`.
   */
  async findWebview(
    what: string,
    locate: () => Promise<string | null>,
    timeout = DEFAULT_TIMEOUT,
  ): Promise<FrameLocator> {
    let deadline = Date.now() + timeout;
    let reloaded = false;
    for (;;) {
      const id = await locate();
      if (id) {
        const view = this.page
          .frameLocator(`[id="${cssString(id)}"] > iframe.webview.ready`)
          .frameLocator('#active-frame');
        const wait = Math.max(1000, Math.min(WEBVIEW_CONTENT_MS, deadline - Date.now()));
        const shown = await view
          .locator('body > *')
          .first()
          .waitFor({ state: 'attached', timeout: wait })
          .then(
            () => true,
            () => false,
          );
        if (shown) return view;
        if (reloaded) throw new Error(`the webview ${what} showed nothing, also after Reload Webviews`);
        reloaded = true;
        this.notes.push(`the webview ${what} showed nothing for ${wait} ms: Developer: Reload Webviews`);
        await this.runCommand('Developer: Reload Webviews');
        deadline = Date.now() + timeout;
        continue;
      }
      if (Date.now() > deadline) throw new Error(`no visible webview ${what} after ${timeout} ms`);
      await this.page.waitForTimeout(200);
    }
  }

  /**
   * Each frame of the page that shows a document of its own (the workbench, each webview), with
   * the start of its text: what a person saw when a test failed.
   */
  async describeFrames(): Promise<string[]> {
    const out: string[] = [];
    for (const frame of this.page.frames()) {
      const text = await Promise.race([
        frame
          .evaluate(
            () =>
              (globalThis as unknown as { document: { body: { innerText: string } | null } }).document.body
                ?.innerText ?? '',
          )
          .catch((e: unknown) => `(unreadable: ${e instanceof Error ? e.message.split('\n')[0] : String(e)})`),
        new Promise<string>((r) => setTimeout(() => r('(no answer in 2 s)'), 2000)),
      ]);
      const url = frame.url().replace(/\?.*$/, '');
      out.push(`${url.slice(-60)}: ${JSON.stringify(text.replace(/\s+/g, ' ').trim().slice(0, 160))}`);
    }
    return out;
  }

  /** Saves a PNG of the whole window into test-output/screenshots/ (or $STAGE_LENS_SCREENSHOT_DIR); returns its path. */
  async screenshot(name: string): Promise<string> {
    const file = path.join(screenshotDir(), `${name.replace(/[^\w.-]+/g, '-')}.png`);
    await this.page.screenshot({ path: file });
    return file;
  }

  async close(): Promise<void> {
    await this.browser.close();
  }
}

export function startWorkbench(opts: WorkbenchOptions): Promise<Workbench> {
  return Workbench.start(opts);
}
