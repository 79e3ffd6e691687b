// Reloads a webview page whose script never said `ready`. In a fresh window the first webview
// can load before the webview's service worker serves its resources: the page keeps its HTML,
// its script never runs, and the view stays blank until it is hidden and shown again. Each
// load (the HTML set, or a hidden webview view shown again, which VS Code reloads) expects a
// `ready` within `waitMs` while the page is visible; without one the page is loaded again, at
// most `maxReloads` times in a row. No vscode runtime (unit-tested in Node).

export interface PageReadyTarget {
  /** Sets the page's HTML again (a fresh nonce: the webview loads it anew). */
  reload(): void;
  /** A hidden webview view has no page to wait for; it loads again when shown. */
  isVisible(): boolean;
}

export class PageReadyWatchdog {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private reloads = 0;
  private isReady = false;
  private disposed = false;

  constructor(
    private readonly target: PageReadyTarget,
    private readonly waitMs = 6000,
    private readonly maxReloads = 2,
  ) {}

  /** The page was (re)loaded: its script should say `ready` soon. */
  loaded(): void {
    this.isReady = false;
    this.arm();
  }

  /** A page whose context is kept while hidden is shown: wait for it if it has not said `ready` yet. */
  shown(): void {
    if (!this.isReady && this.timer === undefined) this.arm();
  }

  private arm(): void {
    this.clear();
    if (this.disposed || !this.target.isVisible()) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.disposed || !this.target.isVisible() || this.reloads >= this.maxReloads) return;
      this.reloads++;
      this.target.reload();
      this.arm();
    }, this.waitMs);
  }

  /** The page's script runs. */
  ready(): void {
    this.isReady = true;
    this.clear();
    this.reloads = 0;
  }

  private clear(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  dispose(): void {
    this.disposed = true;
    this.clear();
  }
}
