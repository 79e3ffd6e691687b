// Scrapes a vLLM-Omni /metrics endpoint at an interval. It keeps the last good scrape and,
// separately, the current error: a dead endpoint does not erase what was last measured,
// and the error clears at the first good scrape after it. Scrapes never overlap: the next
// one is scheduled when the previous one has finished.
import { parseExposition } from '../core/metricsText/exposition';
import type { ParsedExposition } from '../core/metricsText/model';
import { httpGetCapped, type HttpFailureKind } from './httpGetCapped';
import { checkScrapeUrl } from './scrapeUrl';
import { ListenerSet, type Listener } from './listenerSet';
import { PollLoop } from './pollLoop';

export interface ScrapeSourceOptions {
  /** http(s) URL of the /metrics endpoint; a bare `http://host:port` means `/metrics`. */
  readonly url: string;
  /** Time from one scrape's start to the next one's (default 2000 ms). */
  readonly intervalMs?: number;
  /** Deadline for one whole scrape: connect, headers and body (default 1500 ms). */
  readonly timeoutMs?: number;
  /** Largest body accepted; reading stops as soon as it is crossed (default 8 MB). */
  readonly maxBytes?: number;
}

export const SCRAPE_DEFAULTS = Object.freeze({ intervalMs: 2000, timeoutMs: 1500, maxBytes: 8 * 1024 * 1024 });

export interface ScrapeResult {
  readonly url: string;
  /** When the scrape finished, ms since epoch. */
  readonly at: number;
  readonly durationMs: number;
  readonly bytes: number;
  /** Parsed body; its `problems` list lines that were skipped. */
  readonly exposition: ParsedExposition;
  /** The body as text (what a saved copy of the scrape holds). */
  readonly text: string;
}

export type ScrapeErrorKind = Exclude<HttpFailureKind, 'aborted'> | 'malformed';

export interface ScrapeError {
  readonly url: string;
  readonly kind: ScrapeErrorKind;
  /** Names the URL and the cause, for the user. */
  readonly message: string;
  readonly at: number;
  /** HTTP status when the server answered, else null. */
  readonly status: number | null;
  readonly receivedBytes: number;
  /** Failed scrapes in a row, this one included. */
  readonly consecutiveFailures: number;
}

/** Thrown by the constructor for a URL or option that can never work. */
export class ScrapeConfigError extends Error {
  override readonly name = 'ScrapeConfigError';
}

function positive(name: string, value: number | undefined, fallback: number): number {
  const chosen = value ?? fallback;
  if (!Number.isFinite(chosen) || chosen <= 0)
    throw new ScrapeConfigError(`${name} must be a positive number of ms/bytes, got ${chosen}`);
  return chosen;
}

export class ScrapeSource {
  readonly url: string;
  readonly intervalMs: number;
  readonly timeoutMs: number;
  readonly maxBytes: number;

  private readonly target: URL;
  private readonly scrapeListeners = new ListenerSet<ScrapeResult>('scrape');
  private readonly errorListeners = new ListenerSet<ScrapeError>('scrape');
  private readonly loop: PollLoop;
  private good: ScrapeResult | null = null;
  private error: ScrapeError | null = null;
  private failures = 0;

  constructor(options: ScrapeSourceOptions) {
    const checked = checkScrapeUrl(options.url);
    if (!checked.ok) throw new ScrapeConfigError(checked.message);
    this.target = checked.url;
    this.url = checked.url.href;
    this.intervalMs = positive('intervalMs', options.intervalMs, SCRAPE_DEFAULTS.intervalMs);
    this.timeoutMs = positive('timeoutMs', options.timeoutMs, SCRAPE_DEFAULTS.timeoutMs);
    this.maxBytes = positive('maxBytes', options.maxBytes, SCRAPE_DEFAULTS.maxBytes);
    this.loop = new PollLoop(this.intervalMs, (signal) => this.scrapeOnce(signal));
  }

  /** The most recent successful scrape; kept across later errors. */
  get lastGood(): ScrapeResult | null {
    return this.good;
  }

  /** The error of the most recent scrape, or null once a scrape succeeded again. */
  get currentError(): ScrapeError | null {
    return this.error;
  }

  get running(): boolean {
    return this.loop.running;
  }

  /** Called after every successful scrape. Returns an unsubscribe function. */
  onScrape(listener: Listener<ScrapeResult>): () => void {
    return this.scrapeListeners.add(listener);
  }

  /** Called after every failed scrape. Returns an unsubscribe function. */
  onError(listener: Listener<ScrapeError>): () => void {
    return this.errorListeners.add(listener);
  }

  /** Scrapes now, then every intervalMs. Calling it while running does nothing. */
  start(): void {
    this.loop.start();
  }

  /**
   * Cancels the timer and any in-flight request; no event is emitted after it. Resolves
   * once the in-flight request (if any) has been torn down. Safe to call twice.
   */
  stop(): Promise<void> {
    return this.loop.stop();
  }

  private async scrapeOnce(signal: AbortSignal): Promise<void> {
    const response = await httpGetCapped(this.target, { timeoutMs: this.timeoutMs, maxBytes: this.maxBytes, signal });
    if (signal.aborted) return;
    if (!response.ok) {
      if (response.kind === 'aborted') return;
      this.fail(response.kind, response.cause, response.status, response.receivedBytes);
      return;
    }
    const text = response.body.toString('utf8');
    const exposition = parseExposition(text);
    const first = exposition.problems[0];
    if (exposition.sampleCount === 0 && first !== undefined) {
      // Nothing usable at all (an HTML error page, a proxy banner): not a scrape.
      this.fail(
        'malformed',
        `the response is not Prometheus text format (line ${first.line}: ${first.message})`,
        response.status,
        response.body.length,
      );
      return;
    }
    this.failures = 0;
    this.error = null;
    this.good = {
      url: this.url,
      at: Date.now(),
      durationMs: response.durationMs,
      bytes: response.body.length,
      exposition,
      text,
    };
    this.scrapeListeners.emit(this.good);
  }

  private fail(kind: ScrapeErrorKind, cause: string, status: number | null, receivedBytes: number): void {
    this.failures++;
    this.error = {
      url: this.url,
      kind,
      message: `Cannot scrape ${this.url}: ${cause}.`,
      at: Date.now(),
      status,
      receivedBytes,
      consecutiveFailures: this.failures,
    };
    this.errorListeners.emit(this.error);
  }
}
