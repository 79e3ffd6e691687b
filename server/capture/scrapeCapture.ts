// A /metrics scrape as one of a session's sources: good scrapes update the session's
// histogram rows, errors go to the session's lastError (the last good rows are kept), but
// not a launched server's refusals while it starts (scrapeStartup.ts).
import type { Session } from './session';
import { ScrapeSource } from './scrapeSource';
import { ScrapeStartup, type StartupGrace } from './scrapeStartup';

/** An endpoint not launched by us: no time grace (its log, if one is captured, still says when the server loads). */
const NO_STARTUP_GRACE: StartupGrace = { graceMs: 0, afterListeningMs: 0 };
import type { CaptureListener, CaptureSource } from './source';
import { histogramSummariesOf } from '../core/metricsText/scrapeSummary';
import { scrapeLifeOf } from '../core/metricsText/counterReset';
import type { ParseProblem } from '../core/metricsText/model';

/** The terminal's line for a scrape's unreadable lines; null when it has none. */
export function malformedNotice(url: string, problems: readonly ParseProblem[]): string | null {
  const first = problems[0];
  if (first === undefined) return null;
  const lines = problems.length === 1 ? '1 malformed line' : `${problems.length} malformed lines`;
  return `${url}: ${lines} skipped (first: line ${first.line}: ${first.message})`;
}

export class ScrapeCaptureSource implements CaptureSource {
  readonly description: string;
  private source: ScrapeSource | null = null;
  /** What was last said of the scrapes' unreadable lines (null: the last scrape had none). */
  private lastMalformed: string | null = null;

  constructor(
    private readonly url: string,
    private readonly intervalMs: number | undefined,
    private readonly session: Session,
    /** For a launched server's endpoint: how long a refused connection is the server starting (ScrapeStartup). */
    private readonly startupGrace: StartupGrace = NO_STARTUP_GRACE,
  ) {
    this.description = url;
  }

  start(listener: CaptureListener): void {
    this.lastMalformed = null;
    try {
      this.source = new ScrapeSource({
        url: this.url,
        ...(this.intervalMs === undefined ? {} : { intervalMs: this.intervalMs }),
      });
    } catch (err) {
      listener.onStatus('error', err instanceof Error ? err.message : String(err));
      return;
    }
    const startup = new ScrapeStartup(this.startupGrace, () => this.session.serverStartLine());
    this.source.onScrape((result) => {
      startup.up();
      this.session.applyScrapeGauges(result.exposition, result.at);
      // Before the rows: applyScrape says the session changed, its problem count with it.
      this.session.applyScrapeProblems(result.exposition);
      // The rows of a family stuck at 0 carry the finding applyScrapeGauges just made.
      this.session.applyScrape(
        histogramSummariesOf(result.exposition, this.session.metricFindings()),
        'endpoint',
        scrapeLifeOf(result.exposition),
        result.text,
      );
      // Said when it changes, not at every scrape: the same body's lines would fill the terminal.
      const malformed = malformedNotice(this.url, result.exposition.problems);
      if (malformed !== this.lastMalformed && malformed !== null) listener.onNotice(malformed);
      this.lastMalformed = malformed;
    });
    this.source.onError((error) => {
      const message = startup.report(error);
      if (message !== null) this.session.setLastError(message);
    });
    this.source.start();
  }

  async stop(): Promise<void> {
    await this.source?.stop();
    this.source = null;
  }
}
