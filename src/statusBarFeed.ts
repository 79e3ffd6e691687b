// Asks the language server for the summary of the session on screen whenever it changes, for
// the status bar item. An answer that fails or does not come within SUMMARY_WAIT_MS leaves the
// item with the last numbers it had, marked not current with the reason, and is logged once per
// outage (answerHealth.ts); a timed-out answer is waited for again, and the next answer that
// comes makes the item current again. Only the latest round shows what it got: an older answer
// that comes late is dropped. No vscode runtime (unit-tested in Node).
import type { SessionInfo, SummaryResult } from '../server/protocol';
import { AnswerHealth, seconds, type FeedLog } from './views/answerHealth';
import type { LatencyDataSource } from './views/dataSource';
import { SUMMARY_WAIT_MS, TIMED_OUT, within } from './views/sessionFeed';

/** What the item shows: null session hides it; `outage`: why the numbers are not current, or null. */
export type StatusBarSink = (session: SessionInfo | null, summary: SummaryResult | null, outage: string | null) => void;

export class StatusBarFeed {
  private generation = 0;
  /** The last summary the server gave (of whichever session it was). */
  private last: SummaryResult | null = null;
  private readonly health: AnswerHealth;
  private readonly subscription: { dispose(): void };
  private disposed = false;

  constructor(
    private readonly source: Pick<LatencyDataSource, 'currentSession' | 'summary' | 'onDidChangeSession'>,
    private readonly show: StatusBarSink,
    log: FeedLog,
    private readonly waitMs = SUMMARY_WAIT_MS,
  ) {
    this.health = new AnswerHealth(log, 'status bar: session summary');
    this.subscription = source.onDidChangeSession(() => void this.round());
  }

  /** One round: resolves when it has shown what it got (or was superseded). Never rejects. */
  async round(): Promise<void> {
    const generation = ++this.generation;
    const session = this.source.currentSession();
    if (session === null) {
      this.show(null, null, null);
      return;
    }
    const stale = (): boolean => this.disposed || generation !== this.generation;
    const lastOf = (): SummaryResult | null => (this.last?.sessionId === session.id ? this.last : null);
    let summary: SummaryResult | typeof TIMED_OUT;
    try {
      summary = await within(this.source.summary(session), this.waitMs);
    } catch (err) {
      if (stale()) return;
      this.health.failed(err);
      this.show(session, lastOf(), err instanceof Error ? err.message : String(err));
      return;
    }
    if (summary !== TIMED_OUT) this.health.answered();
    if (stale()) return;
    if (summary === TIMED_OUT) {
      this.health.timedOut(this.waitMs);
      this.show(session, lastOf(), `no answer within ${seconds(this.waitMs)}`);
      // Wait for it again (the same request while the session has not changed).
      void this.round();
      return;
    }
    this.last = summary;
    this.show(session, summary, null);
  }

  dispose(): void {
    this.disposed = true;
    this.subscription.dispose();
  }
}
