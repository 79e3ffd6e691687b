// The process an Attach to Running Server session reads, as one of its sources: it brings no
// bytes, it watches the pid (/proc/<pid>/stat, a zombie counts as gone) and, once the process
// is gone, stops the session's other sources (its log tails, its /metrics scrape) and ends the
// session `exited`, so a dead server is not shown as running with a refused scrape.
import { isGone, readProcStat } from './procStat';
import type { CaptureListener, CaptureSource } from './source';

export const ATTACHED_PROCESS_POLL_MS = 1000;

export class AttachedProcess implements CaptureSource {
  readonly description: string;
  private timer: NodeJS.Timeout | null = null;

  /** `stopOthers`: stops the session's other sources; awaited before the exit is reported. */
  constructor(
    private readonly pid: number,
    private readonly stopOthers: () => Promise<void>,
    private readonly pollMs = ATTACHED_PROCESS_POLL_MS,
  ) {
    this.description = `process ${pid}`;
  }

  start(listener: CaptureListener): void {
    this.timer = setInterval(() => {
      if (!isGone(readProcStat(this.pid))) return;
      this.clear();
      void this.stopOthers().then(() => listener.onStatus('exited', `exited (gone from /proc); the capture stopped`));
    }, this.pollMs);
  }

  private clear(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  stop(): Promise<void> {
    this.clear();
    return Promise.resolve();
  }
}
