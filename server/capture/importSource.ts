// Import Log...: a one-shot read of a whole file as a session's source, with progress
// (throttled by the caller) and cancellation through stop(). A /metrics scrape is told apart by
// content, as the CLI tells it (inputByKind.ts), and given whole to the session besides. Several
// files (a log and its rotations, oldest first) are read as one log, byte for byte as `gzip -dcf`
// joins them: a table or a line cut by a rotation (copytruncate cuts anywhere) is read whole, and
// lines are counted through the files.
import * as fsp from 'node:fs/promises';
import { baseName } from '../core/baseName';
import type { GzipInputKind } from '../core/gzipInput';
import { fileReads, type FileProgress } from './importFile';
import { JoinedFiles } from './joinedFiles';
import { KIND_HEAD_BYTES, kindOfHead, MAX_SCRAPE_BYTES } from './inputByKind';
import type { CaptureListener, CaptureSource } from './source';

/** What the files gave: the bytes read, and the files read (their gzip damage, the files not read after it). */
interface FilesRead {
  readonly progress: FileProgress;
  readonly joined: JoinedFiles;
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
      ({ progress, joined }) => {
        if (kind === null) decide();
        this.onProgress(progress, true);
        const input = kind ?? 'log';
        const damage = joined.encoding.damage;
        // The damage's sentence says what the data was of: "of log", "of the /metrics scrape".
        const damageText = joined.damageText(input);
        // Before the scrape: where it broke off decides what of it is judged.
        if (damage !== null) listener.onBrokeOff?.({ ...damage, message: damageText ?? damage.message }, 'file', input);
        const fileLines = joined.fileLines();
        if (fileLines !== null) listener.onFileLines?.(fileLines);
        if (input === 'scrape' && !this.abort.signal.aborted && scrapeBytes <= MAX_SCRAPE_BYTES)
          listener.onScrape?.(Buffer.concat(scrape).toString('utf8'));
        if (this.abort.signal.aborted) listener.onStatus('stopped', 'import cancelled; what was read is kept');
        else if (damage === null) listener.onStatus('exited', null);
        else if (joined.unread.length === 0)
          listener.onStatus('exited', `${damageText}; what came before it was imported, the rest of the file was not`);
        // Files left unread are an error the user must see, not a note: the session is not the whole log.
        else listener.onStatus('error', `${damageText}; ${notReadText(joined.unread)}`);
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
   * Reads the files in order into `onChunk` (joinedFiles.ts), progress over their bytes together.
   * Every file must exist before any is read; an error names the file it came from.
   */
  private async readFiles(onChunk: (chunk: Buffer) => void): Promise<FilesRead> {
    const sizes: number[] = [];
    for (const file of this.paths) {
      const stat = await fsp.stat(file).catch((e: unknown) => {
        throw Object.assign(e as Error, { file });
      });
      sizes.push(stat.size);
    }
    // Bytes of the files before the one being read, and of those after it.
    let before = 0;
    let after = sizes.reduce((a, b) => a + b, 0);
    let current = -1;
    let readOfCurrent = 0;
    const joined = new JoinedFiles(this.paths, (file) => {
      before += readOfCurrent;
      readOfCurrent = 0;
      after -= sizes[++current] ?? 0;
      return fileReads(file, {
        signal: this.abort.signal,
        onProgress: (p) => {
          readOfCurrent = p.bytesRead;
          this.onProgress({ bytesRead: before + p.bytesRead, size: before + p.size + after }, false);
        },
      });
    });
    try {
      for await (const chunk of joined.chunks) onChunk(chunk);
    } catch (e) {
      throw Object.assign(e as Error, { file: this.paths[current] });
    }
    const bytesRead = before + readOfCurrent;
    return { progress: { bytesRead, size: bytesRead + (joined.unread.length === 0 ? 0 : after) }, joined };
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.done;
  }
}

/** What was not read after a break in one of several files. */
function notReadText(unread: readonly string[]): string {
  const later = unread.map(baseName);
  const files = later.length === 1 ? `${later[0] ?? ''} was` : `${later.join(', ')} were`;
  return `the import stopped there, so ${files} not read (what came before the break is kept)`;
}
