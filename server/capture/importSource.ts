// Import Log...: a one-shot read of a whole file as a session's source, with progress
// (throttled by the caller) and cancellation through stop(). A /metrics scrape is told apart by
// content, as the CLI tells it (inputByKind.ts), and given whole to the session besides.
import { gzipDamageText, type GzipInputKind } from '../core/gzipInput';
import { importFile } from './importFile';
import type { FileProgress } from './importFile';
import { KIND_HEAD_BYTES, kindOfHead, MAX_SCRAPE_BYTES } from './inputByKind';
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
    // The head is held until it says the kind; a scrape's text is kept (up to a scrape's size) as well.
    const head: Buffer[] = [];
    let headBytes = 0;
    let kind: GzipInputKind | null = null;
    const scrape: Buffer[] = [];
    let scrapeBytes = 0;
    const pass = (chunk: Buffer): void => {
      if (kind === 'scrape' && scrapeBytes < MAX_SCRAPE_BYTES) {
        scrape.push(Buffer.from(chunk));
        scrapeBytes += chunk.length;
      }
      listener.onData(chunk, 'file');
    };
    const decide = (): void => {
      const first = Buffer.concat(head);
      kind = kindOfHead(first);
      head.length = 0;
      pass(first);
    };
    const onChunk = (chunk: Buffer): void => {
      if (kind !== null) return pass(chunk);
      if (head.length === 0 && chunk.length >= KIND_HEAD_BYTES) {
        // A first read long enough to decide on (a file's 1 MB reads): no copy is held back.
        kind = kindOfHead(chunk);
        return pass(chunk);
      }
      head.push(Buffer.from(chunk));
      headBytes += chunk.length;
      if (headBytes >= KIND_HEAD_BYTES) decide();
    };
    this.done = importFile(this.path, onChunk, {
      signal: this.abort.signal,
      onProgress: (p) => this.onProgress(p, false),
    }).then(
      (p) => {
        if (kind === null) decide();
        this.onProgress(p, true);
        const damage = p.encoding.damage;
        const input = kind ?? 'log';
        // The damage's sentence says what the data was of: "of log", "of the /metrics scrape".
        const damageText =
          damage === null ? null : gzipDamageText(damage.gzipDamaged.logBytes, damage.gzipDamaged.zlibMessage, input);
        // Before the scrape: where it broke off decides what of it is judged.
        if (damage !== null) listener.onBrokeOff?.({ ...damage, message: damageText ?? damage.message }, 'file', input);
        if (input === 'scrape' && !this.abort.signal.aborted && scrapeBytes <= MAX_SCRAPE_BYTES)
          listener.onScrape?.(Buffer.concat(scrape).toString('utf8'));
        listener.onStatus(
          this.abort.signal.aborted ? 'stopped' : 'exited',
          this.abort.signal.aborted
            ? 'import cancelled; what was read is kept'
            : damageText === null
              ? null
              : `${damageText}; what came before it was imported, the rest of the file was not`,
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
