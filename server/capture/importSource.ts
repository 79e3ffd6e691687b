// Import Log...: a one-shot read of a whole file as a session's source, with progress
// (throttled by the caller) and cancellation through stop().
import { importFile } from './importFile';
import type { FileProgress } from './importFile';
import type { CaptureListener, CaptureSource } from './source';

export class ImportSource implements CaptureSource {
  readonly description: string;
  private readonly abort = new AbortController();
  private done: Promise<void> = Promise.resolve();

  constructor(
    private readonly path: string,
    private readonly onProgress: (progress: FileProgress, done: boolean) => void,
  ) {
    this.description = path;
  }

  start(listener: CaptureListener): void {
    listener.onStatus('running', null);
    this.done = importFile(this.path, (chunk) => listener.onData(chunk, 'file'), {
      signal: this.abort.signal,
      onProgress: (p) => this.onProgress(p, false),
    }).then(
      (p) => {
        this.onProgress(p, true);
        const damage = p.encoding.damage;
        if (damage !== null) listener.onBrokeOff?.(damage, 'file');
        listener.onStatus(
          this.abort.signal.aborted ? 'stopped' : 'exited',
          this.abort.signal.aborted
            ? 'import cancelled; what was read is kept'
            : damage === null
              ? null
              : `${damage.message}; what came before it was imported, the rest of the file was not`,
        );
      },
      (err: unknown) => {
        this.onProgress({ bytesRead: 0, size: 0 }, true);
        const e = err as NodeJS.ErrnoException;
        if (this.abort.signal.aborted || e.name === 'AbortError')
          listener.onStatus('stopped', 'import cancelled; what was read is kept');
        else
          listener.onStatus('error', `cannot import ${this.path}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`);
      },
    );
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.done;
  }
}
