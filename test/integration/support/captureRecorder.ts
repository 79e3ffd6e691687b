// A CaptureListener that records everything a source reports, with waits for the tests.
import type { CaptureListener, ChunkStream, ExitInfo } from '../../../server/capture/source';
import type { SessionStatus } from '../../../server/protocol';

export interface StatusEvent {
  readonly status: SessionStatus;
  readonly detail: string | null;
  readonly exit?: ExitInfo;
}

export class Recorder implements CaptureListener {
  readonly chunks: { chunk: Buffer; stream: ChunkStream }[] = [];
  readonly statuses: StatusEvent[] = [];
  readonly notices: string[] = [];
  private readonly waiters = new Set<() => void>();

  onData(chunk: Buffer, stream: ChunkStream): void {
    this.chunks.push({ chunk, stream });
    this.wake();
  }

  onStatus(status: SessionStatus, detail: string | null, exit?: ExitInfo): void {
    this.statuses.push(exit === undefined ? { status, detail } : { status, detail, exit });
    this.wake();
  }

  onNotice(message: string): void {
    this.notices.push(message);
    this.wake();
  }

  bytes(stream?: ChunkStream): Buffer {
    return Buffer.concat(this.chunks.filter((c) => stream === undefined || c.stream === stream).map((c) => c.chunk));
  }

  text(stream?: ChunkStream): string {
    return this.bytes(stream).toString('utf8');
  }

  get lastStatus(): StatusEvent | undefined {
    return this.statuses[this.statuses.length - 1];
  }

  /** Resolves when `condition` holds; rejects with `what` after `timeoutMs`. */
  until(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
    if (condition()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const check = (): void => {
        if (!condition()) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(
          new Error(
            `timed out after ${timeoutMs} ms waiting for ${what}; statuses ${JSON.stringify(this.statuses)}, notices ${JSON.stringify(this.notices)}, ${this.bytes().length} bytes`,
          ),
        );
      }, timeoutMs);
      this.waiters.add(check);
    });
  }

  untilStatus(status: SessionStatus, timeoutMs?: number): Promise<void> {
    return this.until(() => this.statuses.some((s) => s.status === status), `status ${status}`, timeoutMs);
  }

  untilNotice(pattern: RegExp, timeoutMs?: number): Promise<void> {
    return this.until(() => this.notices.some((n) => pattern.test(n)), `a notice matching ${pattern}`, timeoutMs);
  }

  untilText(needle: string, stream?: ChunkStream, timeoutMs?: number): Promise<void> {
    return this.until(
      () => this.text(stream).includes(needle),
      `output containing ${JSON.stringify(needle)}`,
      timeoutMs,
    );
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}
