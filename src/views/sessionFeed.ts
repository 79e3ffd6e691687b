// Feeds a webview with the current session and its summary. The data source already
// throttles its change event; the feed still coalesces: one summary request at a time,
// and changes that arrive meanwhile are folded into one more round. A summary equal to
// the last one posted is not posted again. A target that wants it also gets the session's
// tail attribution (the side panel's "Why p99 is slow") after each new summary, at most
// once a second. No vscode runtime (unit-tested in Node).
import type { HostToWebview, SessionInfo } from '../../server/protocol';
import type { LatencyDataSource } from './dataSource';

export interface FeedTarget {
  post(message: HostToWebview): PromiseLike<boolean> | boolean | void;
  /** Hidden webviews are not fed; they get one round when shown again. */
  isVisible(): boolean;
  /** Also post the main target's p99 tail attribution (`tail` messages, seq 0). */
  readonly wantsTail?: boolean;
}

/** The language server answers from incremental columns; once a second is still plenty for a glance. */
export const TAIL_REFRESH_MS = 1000;

export interface Disposable {
  dispose(): void;
}

function sessionKey(s: SessionInfo | null): string {
  return s === null ? 'null' : JSON.stringify(s);
}

export class SessionFeed implements Disposable {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running: Promise<void> | null = null;
  private dirty = false;
  private lastSession: string | null = null;
  private lastSummary: string | null = null;
  private lastTail: string | null = null;
  private tailTimer: ReturnType<typeof setTimeout> | undefined;
  private tailAt = Number.NEGATIVE_INFINITY;
  private tailRunning = false;
  private readonly subscription: Disposable;
  private disposed = false;

  constructor(
    private readonly source: LatencyDataSource,
    private readonly target: FeedTarget,
    private readonly delayMs = 50,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {
    this.subscription = source.onDidChangeSession(() => this.changed());
  }

  /** Something changed: push soon (coalesced). */
  changed(): void {
    if (this.disposed) return;
    if (!this.target.isVisible()) {
      this.dirty = true;
      return;
    }
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.push();
    }, this.delayMs);
  }

  /** The webview became visible again: catch up if something changed while hidden. */
  visibilityChanged(): void {
    if (this.dirty && this.target.isVisible()) this.changed();
  }

  /** The webview (re)loaded: post session and summary again, now. Resolves when posted. */
  async resend(): Promise<void> {
    // Let a round in flight finish first, so the session message is the first one posted.
    while (this.running !== null) await this.running;
    this.lastSession = null;
    this.lastSummary = null;
    this.lastTail = null;
    this.tailAt = Number.NEGATIVE_INFINITY;
    await this.push();
  }

  private async push(): Promise<void> {
    if (this.running !== null) {
      this.dirty = true;
      return this.running;
    }
    this.dirty = false;
    this.running = this.round().finally(() => {
      this.running = null;
      if (this.dirty && !this.disposed) this.changed();
    });
    return this.running;
  }

  private async round(): Promise<void> {
    const session = this.source.currentSession();
    const key = sessionKey(session);
    if (key !== this.lastSession) {
      this.lastSession = key;
      await this.target.post({
        type: 'session',
        session,
        stageNames: session === null ? {} : this.source.stageNames(session),
      });
    }
    if (session === null || this.disposed) return;
    try {
      const summary = await this.source.summary(session);
      // The user may have switched sessions while the summary was computed.
      if (this.disposed || this.source.currentSession()?.id !== session.id) return;
      const text = JSON.stringify(summary);
      if (text === this.lastSummary) return;
      this.lastSummary = text;
      await this.target.post({ type: 'summary', summary });
      this.scheduleTail();
    } catch (err) {
      this.onError(err);
      await this.target.post({
        type: 'error',
        message: `Could not get the session summary: ${err instanceof Error ? err.message : String(err)}`,
      });
    }
  }

  /** Throttled: one tail query at a time, at most every TAIL_REFRESH_MS, the last change never lost. */
  private scheduleTail(): void {
    if (this.target.wantsTail !== true || this.disposed || this.tailTimer !== undefined) return;
    const wait = Math.max(0, this.tailAt + TAIL_REFRESH_MS - Date.now());
    this.tailTimer = setTimeout(() => {
      this.tailTimer = undefined;
      void this.pushTail();
    }, wait);
  }

  private async pushTail(): Promise<void> {
    if (this.tailRunning) {
      this.scheduleTail();
      return;
    }
    const session = this.source.currentSession();
    if (session === null || this.disposed) return;
    this.tailRunning = true;
    this.tailAt = Date.now();
    try {
      const tail = await this.source.request('stageLens/tailAttribution', { sessionId: session.id });
      if (this.disposed || this.source.currentSession()?.id !== session.id) return;
      const text = JSON.stringify(tail);
      if (text === this.lastTail) return;
      this.lastTail = text;
      await this.target.post({ type: 'tail', seq: 0, tail });
    } catch (err) {
      // The summary still shows; the section says it could not be computed.
      this.onError(err);
    } finally {
      this.tailRunning = false;
    }
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    if (this.tailTimer !== undefined) clearTimeout(this.tailTimer);
    this.subscription.dispose();
  }
}
