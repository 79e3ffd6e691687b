// When a live stream's last request is final. A request is final when the next call's records
// arrive; the last one (and a log_utils.py stats record still waiting for its other file's
// record) only once the stream has been quiet (StreamAnalysis.flushIdle). The language
// server's capture and the CLI's live table (`analyze --follow`, `demo`) share the rule, so
// that both give the requests that reading the same bytes at once gives.
import type { CaptureSource } from './source';

/** How long a stream is quiet (no chunk on any of its streams) before its open requests are flushed. */
export const IDLE_FLUSH_MS = 300;

/**
 * The quiet that counts for these sources: IDLE_FLUSH_MS beyond the longest poll interval, since
 * a polled source (a followed file) gives what a steady writer wrote only once per interval,
 * and a poll's own reads stretch the interval on a busy machine.
 */
export function idleWaitMs(sources: Iterable<Pick<CaptureSource, 'readIntervalMs'>>): number {
  let poll = 0;
  for (const source of sources) poll = Math.max(poll, source.readIntervalMs ?? 0);
  return IDLE_FLUSH_MS + poll;
}

/** Whether a stream whose last chunk came at `lastChunkAt` (ms since epoch) has been quiet for `waitMs` at `now`. */
export function quietSince(lastChunkAt: number, waitMs: number, now: number = Date.now()): boolean {
  return now - lastChunkAt >= waitMs;
}

/** Calls `flush` once the stream has been quiet for `waitMs()`: every chunk starts the wait again. */
export class IdleFlush {
  private timer: NodeJS.Timeout | null = null;
  private disposed = false;

  constructor(
    private readonly waitMs: () => number,
    private readonly flush: () => void,
  ) {}

  /** A chunk arrived (or the wait starts now). */
  chunk(): void {
    if (this.disposed) return;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush();
    }, this.waitMs());
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}
