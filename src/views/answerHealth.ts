// Leaves a trace in the Output channel when a view's feed stops getting answers from the
// language server, and says when it gets them again: otherwise a stale panel is silent. A
// slow server is asked again every round for as long as it is slow, so each kind of failure
// is logged once per outage, not once per round. No vscode runtime (unit-tested in Node).

/** Where the lines go: the extension's log output channel (a LogOutputChannel fits). */
export interface FeedLog {
  warn(line: string): void;
  info(line: string): void;
}

export const SILENT_LOG: FeedLog = { warn: () => undefined, info: () => undefined };

type Failure = 'timedOut' | 'failed';

/** A wait as the log says it: `400 ms`, `10 s`. */
export const seconds = (ms: number): string => (ms < 1000 ? `${Math.round(ms)} ms` : `${Math.round(ms / 100) / 10} s`);

export class AnswerHealth {
  /** Kinds already logged in the current outage; empty while answers come. */
  private readonly logged = new Set<Failure>();
  private failedRounds = 0;
  private since = 0;

  /** `what`: the view and the answer, e.g. "side panel: session summary". */
  constructor(
    private readonly log: FeedLog,
    private readonly what: string,
    private readonly now: () => number = Date.now,
  ) {}

  timedOut(waitMs: number): void {
    this.failure(
      'timedOut',
      `${this.what}: no answer from the language server within ${seconds(waitMs)}; ` +
        'the view keeps what it shows and asks again (logged once until it answers)',
    );
  }

  failed(err: unknown): void {
    const message = err instanceof Error ? err.message : String(err);
    this.failure(
      'failed',
      `${this.what}: the language server's answer failed: ${message} (logged once until it answers)`,
    );
  }

  answered(): void {
    if (this.failedRounds === 0) return;
    const rounds = this.failedRounds === 1 ? '1 round' : `${this.failedRounds} rounds`;
    this.log.info(
      `${this.what}: answered again, after ${rounds} without an answer over ${seconds(this.now() - this.since)}`,
    );
    this.failedRounds = 0;
    this.logged.clear();
  }

  private failure(kind: Failure, line: string): void {
    if (this.failedRounds === 0) this.since = this.now();
    this.failedRounds++;
    if (this.logged.has(kind)) return;
    this.logged.add(kind);
    this.log.warn(line);
  }
}
