// Feeds a webview with the current session and its summary. The data source already
// throttles its change event; the feed still coalesces: one summary request at a time,
// and changes that arrive meanwhile are folded into one more round. A summary equal to
// the last one posted is not posted again. A target that wants it also gets the session's
// tail attribution (the side panel's "Why p99 is slow") after each new summary, at most
// once a second. A view that picked one server boot of the session, or one server of a merged
// log, gets the summary and tail of those requests instead. No vscode runtime (unit-tested in Node).
//
// Nothing may hold the feed: VS Code keeps webview.postMessage's promise unsettled until the
// webview's frame is ready, which a frame that is replaced or never shown may never be, so
// posts are not waited for (their order is kept by VS Code). A server answer is waited for
// at most SUMMARY_WAIT_MS, then asked again; a page that (re)loads starts a round at once,
// and a round it supersedes posts nothing more. An answer that times out or fails is logged
// (answerHealth.ts: once per outage, and when answers come again).
import type { HostToWebview, SessionInfo } from '../../server/protocol';
import { AnswerHealth, SILENT_LOG, type FeedLog } from './answerHealth';
import type { LatencyDataSource } from './dataSource';

export interface FeedTarget {
  post(message: HostToWebview): PromiseLike<boolean> | boolean | void;
  /** Hidden webviews are not fed; they get one round when shown again. */
  isVisible(): boolean;
  /** Also post the main target's p99 tail attribution (`tail` messages, seq 0). */
  readonly wantsTail?: boolean;
  /** The view, as the log names it ("side panel"). */
  readonly name?: string;
}

/** The language server answers from incremental columns; once a second is still plenty for a glance. */
export const TAIL_REFRESH_MS = 1000;

/** How long a round waits for a summary or tail answer before it gives up and asks again. */
export const SUMMARY_WAIT_MS = 10_000;

export const TIMED_OUT = Symbol('timed out');

/** The promise's value, or TIMED_OUT after `ms` (the promise itself is left to settle). */
export function within<T>(promise: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export interface Disposable {
  dispose(): void;
}

function sessionKey(s: SessionInfo | null): string {
  return s === null ? 'null' : JSON.stringify(s);
}

export class SessionFeed implements Disposable {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running: Promise<void> | null = null;
  /** Bumped by each round: a round that is no longer the latest posts nothing more. */
  private generation = 0;
  private dirty = false;
  private lastSession: string | null = null;
  private lastSummary: string | null = null;
  private lastTail: string | null = null;
  private tailTimer: ReturnType<typeof setTimeout> | undefined;
  private tailAt = Number.NEGATIVE_INFINITY;
  private tailRunning = false;
  private tailAgain = false;
  private readonly subscription: Disposable;
  private disposed = false;
  private readonly summaryHealth: AnswerHealth;
  private readonly tailHealth: AnswerHealth;
  /** The server boot the view picked, in the session it picked it in; null: every boot. */
  private boot: { readonly sessionId: string; readonly boot: number } | null = null;
  /** The server of a merged log the view picked, in the session it picked it in; null: every server. */
  private server: { readonly sessionId: string; readonly server: string } | null = null;

  constructor(
    private readonly source: LatencyDataSource,
    private readonly target: FeedTarget,
    private readonly delayMs = 50,
    log: FeedLog = SILENT_LOG,
    private readonly waitMs = SUMMARY_WAIT_MS,
  ) {
    const name = target.name ?? 'Stage Lens view';
    this.summaryHealth = new AnswerHealth(log, `${name}: session summary`);
    this.tailHealth = new AnswerHealth(log, `${name}: tail attribution`);
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

  /** The view picked one server boot of the session (null: every boot): its summary and tail are that boot's from now on. */
  selectBoot(sessionId: string, boot: number | null): void {
    this.boot = boot === null ? null : { sessionId, boot };
    this.scopeChanged();
  }

  /** The view picked one server of the session's merged log (null: every server): its summary and tail are that server's from now on. */
  selectServer(sessionId: string, server: string | null): void {
    this.server = server === null ? null : { sessionId, server };
    this.scopeChanged();
  }

  private scopeChanged(): void {
    this.lastSummary = null;
    this.lastTail = null;
    this.tailAt = Number.NEGATIVE_INFINITY;
    this.changed();
  }

  /** The scope of the boot and server picked in `session`, as query params (both picked: the server's requests of that boot). */
  private scopeOf(session: SessionInfo): { readonly scope?: { readonly boot?: number; readonly server?: string } } {
    const boot = this.bootOf(session);
    const server = this.serverOf(session);
    if (boot === null && server === null) return {};
    return { scope: { ...(boot === null ? {} : { boot }), ...(server === null ? {} : { server }) } };
  }

  /** The boot picked in `session`; null: every boot (none picked, or picked in another session). */
  private bootOf(session: SessionInfo): number | null {
    return this.boot !== null && this.boot.sessionId === session.id ? this.boot.boot : null;
  }

  /** The server picked in `session`; null: every server (none picked, or picked in another session). */
  private serverOf(session: SessionInfo): string | null {
    return this.server !== null && this.server.sessionId === session.id ? this.server.server : null;
  }

  /** The webview (re)loaded: post session and summary again, now. Resolves when posted. */
  async resend(): Promise<void> {
    this.lastSession = null;
    this.lastSummary = null;
    this.lastTail = null;
    this.tailAt = Number.NEGATIVE_INFINITY;
    // A round in flight is superseded, not waited for: it may wait on an answer for a long time.
    await this.startRound();
  }

  private push(): Promise<void> {
    if (this.running !== null) {
      this.dirty = true;
      return this.running;
    }
    return this.startRound();
  }

  private startRound(): Promise<void> {
    this.dirty = false;
    const generation = ++this.generation;
    const round: Promise<void> = this.round(generation).finally(() => {
      if (this.running !== round) return;
      this.running = null;
      if (this.dirty && !this.disposed) this.changed();
    });
    this.running = round;
    return round;
  }

  private stale(generation: number): boolean {
    return this.disposed || generation !== this.generation;
  }

  /** Posted without waiting (see the top of the file). A post fails only for a webview that is gone: nothing to tell. */
  private post(message: HostToWebview): void {
    try {
      const posted = this.target.post(message);
      if (posted !== undefined && typeof posted !== 'boolean') posted.then(undefined, () => undefined);
    } catch {
      // The webview was disposed meanwhile; its host disposes this feed too.
    }
  }

  private async round(generation: number): Promise<void> {
    const session = this.source.currentSession();
    const key = sessionKey(session);
    if (key !== this.lastSession) {
      this.lastSession = key;
      this.post({
        type: 'session',
        session,
        stageNames: session === null ? {} : this.source.stageNames(session),
      });
    }
    if (session === null || this.disposed) return;
    try {
      // One boot's or server's summary is this view's alone; the whole session's is asked once for all views.
      const scoped = this.scopeOf(session);
      const asked =
        scoped.scope === undefined
          ? this.source.summary(session)
          : this.source.request('stageLens/summary', { sessionId: session.id, ...scoped });
      const summary = await within(asked, this.waitMs);
      if (summary !== TIMED_OUT && !this.disposed) this.summaryHealth.answered();
      if (this.stale(generation)) return;
      if (summary === TIMED_OUT) {
        // Ask again (a change meanwhile asks anyway); the page keeps what it shows.
        this.dirty = true;
        this.summaryHealth.timedOut(this.waitMs);
        return;
      }
      // The user may have switched sessions while the summary was computed.
      if (this.source.currentSession()?.id !== session.id) return;
      const text = JSON.stringify(summary);
      if (text === this.lastSummary) return;
      this.lastSummary = text;
      this.post({ type: 'summary', summary });
      this.scheduleTail();
    } catch (err) {
      if (this.stale(generation)) return;
      this.summaryHealth.failed(err);
      this.post({
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
      this.tailAgain = true;
      return;
    }
    const session = this.source.currentSession();
    if (session === null || this.disposed) return;
    this.tailRunning = true;
    this.tailAgain = false;
    this.tailAt = Date.now();
    try {
      const tail = await within(
        this.source.request('stageLens/tailAttribution', { sessionId: session.id, ...this.scopeOf(session) }),
        this.waitMs,
      );
      if (tail === TIMED_OUT) {
        this.tailAgain = true;
        if (!this.disposed) this.tailHealth.timedOut(this.waitMs);
        return;
      }
      if (!this.disposed) this.tailHealth.answered();
      if (this.disposed || this.source.currentSession()?.id !== session.id) return;
      const text = JSON.stringify(tail);
      if (text === this.lastTail) return;
      this.lastTail = text;
      this.post({ type: 'tail', seq: 0, tail });
    } catch (err) {
      // The summary still shows; the section says it could not be computed.
      if (!this.disposed) this.tailHealth.failed(err);
    } finally {
      this.tailRunning = false;
      if (this.tailAgain) this.scheduleTail();
    }
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    if (this.tailTimer !== undefined) clearTimeout(this.tailTimer);
    this.subscription.dispose();
  }
}
