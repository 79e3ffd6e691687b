// Import Log...: a one-shot read of a whole file as a session's source, with progress
// (throttled by the caller) and cancellation through stop(). A /metrics scrape is told apart by
// content, as the CLI tells it (inputByKind.ts), and given whole to the session besides. Several
// files (a log and its rotations, oldest first) are read as one log, byte for byte as `gzip -dcf`
// joins them: a table or a line cut by a rotation (copytruncate cuts anywhere) is read whole, and
// lines are counted through the files.
import * as fsp from 'node:fs/promises';
import { baseName } from '../core/baseName';
import { gzipDamageText, type GzipDamageProblem, type GzipInputKind } from '../core/gzipInput';
import { importFile } from './importFile';
import type { FileProgress } from './importFile';
import { KIND_HEAD_BYTES, kindOfHead, MAX_SCRAPE_BYTES } from './inputByKind';
import type { CaptureListener, CaptureSource } from './source';

/** What the files gave: the bytes read, and the gzip damage that stopped the read (with its file's place in the list). */
interface FilesRead {
  readonly progress: FileProgress;
  readonly damage: { readonly problem: GzipDamageProblem; readonly fileIndex: number } | null;
}

export class ImportSource implements CaptureSource {
  readonly description: string;
  private readonly abort = new AbortController();
  private done: Promise<void> = Promise.resolve();

  /** `paths`: the files to read as one log, oldest first (one file, most often). */
  constructor(
    private readonly paths: readonly string[],
    private readonly onProgress: (progress: FileProgress, done: boolean) => void,
  ) {
    const newest = paths.at(-1) ?? '';
    this.description =
      paths.length === 1
        ? newest
        : `${newest} and ${paths.length === 2 ? 'an earlier file' : `${paths.length - 1} earlier files`}`;
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
    this.done = this.readFiles(onChunk).then(
      ({ progress, damage }) => {
        if (kind === null) decide();
        this.onProgress(progress, true);
        const input = kind ?? 'log';
        // The damage's sentence says what the data was of: "of log", "of the /metrics scrape".
        const damageText = damage === null ? null : this.damageText(damage.problem, damage.fileIndex, input);
        // Before the scrape: where it broke off decides what of it is judged.
        if (damage !== null && damageText !== null)
          listener.onBrokeOff?.({ ...damage.problem, message: damageText }, 'file', input);
        if (input === 'scrape' && !this.abort.signal.aborted && scrapeBytes <= MAX_SCRAPE_BYTES)
          listener.onScrape?.(Buffer.concat(scrape).toString('utf8'));
        if (this.abort.signal.aborted) listener.onStatus('stopped', 'import cancelled; what was read is kept');
        else if (damage === null) listener.onStatus('exited', null);
        else if (damage.fileIndex === this.paths.length - 1)
          listener.onStatus('exited', `${damageText}; what came before it was imported, the rest of the file was not`);
        // Files left unread are an error the user must see, not a note: the session is not the whole log.
        else listener.onStatus('error', `${damageText}; ${this.notReadAfter(damage.fileIndex)}`);
      },
      (err: unknown) => {
        this.onProgress({ bytesRead: 0, size: 0 }, true);
        const e = err as NodeJS.ErrnoException & { file?: string };
        const file = e.file ?? this.description;
        if (this.abort.signal.aborted || e.name === 'AbortError')
          listener.onStatus('stopped', 'import cancelled; what was read is kept');
        else listener.onStatus('error', `cannot import ${file}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`);
      },
    );
  }

  /**
   * Reads the files in order into `onChunk`, progress over their bytes together; stops at a file
   * whose gzip data broke off (what follows the break is not that file's log, so the next file
   * would not go on from it). Every file must exist before any is read.
   */
  private async readFiles(onChunk: (chunk: Buffer) => void): Promise<FilesRead> {
    const sizes: number[] = [];
    for (const file of this.paths) {
      const stat = await fsp.stat(file).catch((e: unknown) => {
        throw Object.assign(e as Error, { file });
      });
      sizes.push(stat.size);
    }
    let before = 0;
    let after = sizes.reduce((a, b) => a + b, 0);
    for (let i = 0; i < this.paths.length; i++) {
      const file = this.paths[i] as string;
      after -= sizes[i] as number;
      const read = await importFile(file, onChunk, {
        signal: this.abort.signal,
        onProgress: (p) => this.onProgress({ bytesRead: before + p.bytesRead, size: before + p.size + after }, false),
      }).catch((e: unknown) => {
        throw Object.assign(e as Error, { file });
      });
      before += read.bytesRead;
      const problem = read.encoding.damage;
      if (problem !== null)
        return { progress: { bytesRead: before, size: before + after }, damage: { problem, fileIndex: i } };
    }
    return { progress: { bytesRead: before, size: before }, damage: null };
  }

  /** The damage's sentence; of several files, it names the one that broke. */
  private damageText(problem: GzipDamageProblem, fileIndex: number, input: GzipInputKind): string {
    const { logBytes, zlibMessage } = problem.gzipDamaged;
    const file = this.paths.length === 1 ? null : baseName(this.paths[fileIndex] ?? '');
    return gzipDamageText(logBytes, zlibMessage, input, file);
  }

  /** What was not read after a break in file `fileIndex`, one of several files. */
  private notReadAfter(fileIndex: number): string {
    const later = this.paths.slice(fileIndex + 1).map(baseName);
    const files = later.length === 1 ? `${later[0] ?? ''} was` : `${later.join(', ')} were`;
    return `the import stopped there, so ${files} not read (what came before the break is kept)`;
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.done;
  }
}
