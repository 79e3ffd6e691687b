// A launched server's /metrics refuses connections until the server listens (a simulator for
// a moment, a real vLLM-Omni server while it loads its models, often minutes): a refused
// scrape before the first good one is the server starting, not an error. The server's own log
// says how far it is: after vLLM's `vLLM API server version` line (or the orchestrator's) and
// before `Starting vLLM API server on ...` it is loading, however long that takes; after that
// line the port should open at once, so refusals are reported after a short grace. A log
// without those lines (another build, or output not captured) falls back to a grace from
// the launch. Once the endpoint has answered every failure is reported, and other failures
// (an HTTP error, a body that is not Prometheus text) at once, since something answered.
import type { BootMarkerName } from '../core/log/bootMarkers';
import type { ScrapeError } from './scrapeSource';

/** The last start-up line the launched server's log printed, and when it was captured (ms). */
export interface ServerStartLine {
  readonly marker: BootMarkerName;
  readonly at: number;
}

/** After the log says the API server starts, how long a refusal may still be its port opening. */
export const AFTER_LISTENING_GRACE_MS = 10_000;

/** How long refusals are a launched server starting (ms). */
export interface StartupGrace {
  /** From the launch, while the log has said nothing of its start. */
  readonly graceMs: number;
  /** From the log's `Starting vLLM API server` line. */
  readonly afterListeningMs: number;
}

export const LAUNCH_STARTUP_GRACE: StartupGrace = { graceMs: 60_000, afterListeningMs: AFTER_LISTENING_GRACE_MS };

export class ScrapeStartup {
  private answered = false;

  constructor(
    private readonly grace: StartupGrace,
    private readonly startLine: () => ServerStartLine | null = () => null,
    private readonly startedAt = Date.now(),
  ) {}

  /** A scrape succeeded: the server is up. */
  up(): void {
    this.answered = true;
  }

  /** The message to report for a failed scrape, or null while a refusal is only the server starting. */
  report(error: ScrapeError): string | null {
    if (this.answered || error.kind !== 'refused') return error.message;
    const line = this.startLine();
    if (line !== null && line.marker !== 'api-server-start') return null;
    if (line !== null) {
      const sinceMs = error.at - line.at;
      if (sinceMs < this.grace.afterListeningMs) return null;
      return `${error.message} The server's log said "Starting vLLM API server" ${Math.round(sinceMs / 1000)} s ago: is /metrics served on this port?`;
    }
    const waitedMs = error.at - this.startedAt;
    if (waitedMs < this.grace.graceMs) return null;
    return `${error.message} No answer in the ${Math.round(waitedMs / 1000)} s since the server started, and its log has not said it is loading: still loading, or not serving /metrics on this port?`;
  }
}
