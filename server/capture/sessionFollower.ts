// Keeps a session that another window captures up to date in this one: every
// FOLLOW_INTERVAL_MS the bytes appended to its files are read into this window's
// analysis. The registry ends following when the capture ends (its status in
// session.json) or when its window is gone (stale lock, taken over here).
import type { Session } from './session';
import type { StoredChunkReader } from './storage/storedChunks';

export const FOLLOW_INTERVAL_MS = 500;

export class SessionFollower {
  private timer: NodeJS.Timeout | null = null;
  private reading: Promise<void> = Promise.resolve();
  private active = false;

  constructor(
    private readonly session: Session,
    readonly reader: StoredChunkReader,
    private readonly onError: (err: unknown) => void,
    private readonly intervalMs = FOLLOW_INTERVAL_MS,
  ) {}

  start(): void {
    if (this.active) return;
    this.active = true;
    this.schedule();
  }

  /** Stops reading; resolves when a read in progress has ended. */
  async stop(): Promise<void> {
    this.active = false;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    await this.reading;
  }

  /** The capture ended: reads the last bytes and ends the session's streams. */
  async finish(): Promise<void> {
    await this.stop();
    await this.session.finishStored(this.reader);
  }

  private schedule(): void {
    this.timer = setTimeout(() => {
      this.timer = null;
      this.reading = this.session.followStored(this.reader).catch(this.onError);
      void this.reading.then(() => {
        if (this.active) this.schedule();
      });
    }, this.intervalMs);
    this.timer.unref();
  }
}
