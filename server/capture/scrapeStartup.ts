// A launched server's /metrics refuses connections until the server listens (a simulator for
// a moment, a real vLLM-Omni server while it loads its models): a refused scrape before the
// first good one is the server starting, not an error, for `graceMs` from the launch. After
// that, or once the endpoint has answered, every failure is reported; other failures (an HTTP
// error, a body that is not Prometheus text) at once, since something answered.
import type { ScrapeError } from './scrapeSource';

export class ScrapeStartup {
  private answered = false;

  constructor(
    private readonly graceMs: number,
    private readonly startedAt = Date.now(),
  ) {}

  /** A scrape succeeded: the server is up. */
  up(): void {
    this.answered = true;
  }

  /** The message to report for a failed scrape, or null while a refusal is only the server starting. */
  report(error: ScrapeError): string | null {
    if (this.answered || error.kind !== 'refused') return error.message;
    const waitedMs = error.at - this.startedAt;
    if (waitedMs < this.graceMs) return null;
    return `${error.message} No answer in the ${Math.round(waitedMs / 1000)} s since the server started: still loading, or not serving /metrics on this port?`;
  }
}
