// Asks the language server for the summary of the session on screen whenever it changes, for
// the status bar item. An answer that fails or does not come within SUMMARY_WAIT_MS leaves the
// item with the last numbers it had, marked not current with the reason, and is logged once per
// outage (answerHealth.ts); a timed-out answer is waited for again, and the next answer that
// comes makes the item current again. Only the latest round shows what it got: an older answer
// that comes late is dropped. No vscode runtime (unit-tested in Node).
import type { SessionInfo, SummaryResult } from '../server/protocol';
import { pipelinesDiffer } from '../server/shared';
import { AnswerHealth, seconds, type FeedLog } from './views/answerHealth';
import type { LatencyDataSource } from './views/dataSource';
import { SUMMARY_WAIT_MS, TIMED_OUT, within } from './views/sessionFeed';

/**
 * What the item shows: null session hides it; `outage`: why the numbers are not current, or null;
 * `lastBoot`: the summary of the session's last boot, when its boots served different pipelines.
 */
export type StatusBarSink = (
  session: SessionInfo | null,
  summary: SummaryResult | null,
  outage: string | null,
  lastBoot: SummaryResult | null,
) => void;

export class StatusBarFeed {
  private generation = 0;
  /** The last summary the server gave (of whichever session it was). */
  private last: SummaryResult | null = null;
  /** The last summary of one boot it gave (the session's last boot, when its boots served different pipelines). */
  private lastBoot: SummaryResult | null = null;
  private readonly health: AnswerHealth;
  private readonly subscription: { dispose(): void };
  private disposed = false;

  constructor(
    private readonly source: Pick<LatencyDataSource, 'currentSession' | 'summary' | 'onDidChangeSession' | 'request'>,
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
      this.show(null, null, null, null);
      return;
    }
    const stale = (): boolean => this.disposed || generation !== this.generation;
    const lastOf = (): SummaryResult | null => (this.last?.sessionId === session.id ? this.last : null);
    const lastBootOf = (): SummaryResult | null => (this.lastBoot?.sessionId === session.id ? this.lastBoot : null);
    let summary: SummaryResult | typeof TIMED_OUT;
    try {
      summary = await within(this.source.summary(session), this.waitMs);
    } catch (err) {
      if (stale()) return;
      this.health.failed(err);
      this.show(session, lastOf(), err instanceof Error ? err.message : String(err), lastBootOf());
      return;
    }
    if (summary !== TIMED_OUT) this.health.answered();
    if (stale()) return;
    if (summary === TIMED_OUT) {
      this.health.timedOut(this.waitMs);
      this.show(session, lastOf(), `no answer within ${seconds(this.waitMs)}`, lastBootOf());
      // Wait for it again (the same request while the session has not changed).
      void this.round();
      return;
    }
    this.last = summary;
    const boots = summary.boots;
    const lastBoot = pipelinesDiffer(boots) ? boots.boots[boots.boots.length - 1] : undefined;
    if (lastBoot === undefined) {
      this.show(session, summary, null, null);
      return;
    }
    // Boots of different pipelines: the headline is the last boot's, asked apart (the whole summary shows meanwhile without one).
    this.show(session, summary, null, lastBootOf());
    const scope = { boot: lastBoot.boot };
    let ofBoot: SummaryResult | typeof TIMED_OUT | null;
    try {
      ofBoot = await within(this.source.request('stageLens/summary', { sessionId: session.id, scope }), this.waitMs);
    } catch {
      // The session's summary came (its health is what is logged): the item keeps the boot's last headline, or none.
      ofBoot = null;
    }
    if (stale() || ofBoot === TIMED_OUT || ofBoot === null) return;
    this.lastBoot = ofBoot;
    this.show(session, summary, null, ofBoot);
  }

  dispose(): void {
    this.disposed = true;
    this.subscription.dispose();
  }
}
