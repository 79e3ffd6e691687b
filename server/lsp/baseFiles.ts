// Reads the base configs a deploy YAML names in `base_config`, from disk, without ever
// blocking the language server: asynchronously, regular files only, at most 1 MB. A path
// is whatever a workspace file says, so it can name a FIFO (opening it for reading waits
// for a writer; reading it waits for data), a device (`/dev/zero` never ends) or a link
// to one (`/dev/stdin` is the server's own LSP pipe). Such a base is not read, and the
// reason is what the diagnostic says.
import * as fs from 'node:fs';
import type { DeployFileText } from '../core/deploy';

/** A deploy config is kilobytes; anything larger is not one. */
export const MAX_BASE_CONFIG_BYTES = 1024 * 1024;

/** Kept reads (by path), re-validated by `stat` before each use. */
const MAX_KEPT = 256;

// Not defined on Windows, where opening a FIFO or a terminal this way cannot block anyway.
const OPEN_FLAGS =
  fs.constants.O_RDONLY |
  ((fs.constants as { O_NONBLOCK?: number }).O_NONBLOCK ?? 0) |
  ((fs.constants as { O_NOCTTY?: number }).O_NOCTTY ?? 0);

export type BaseFileReader = (filePath: string) => Promise<DeployFileText>;

/** What a file is when it is not a regular file, as a phrase; undefined for a regular file. */
function notRegular(stats: fs.Stats): string | undefined {
  if (stats.isFile()) return undefined;
  if (stats.isFIFO()) return 'a named pipe (FIFO)';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  if (stats.isDirectory()) return 'a folder';
  return 'not a regular file';
}

function refused(reason: string): DeployFileText {
  return { unread: 'refused', reason };
}

function tooLarge(bytes: number): DeployFileText {
  return refused(
    `is ${(bytes / 1024 / 1024).toFixed(1)} MB, more than the ${MAX_BASE_CONFIG_BYTES / 1024 / 1024} MB a deploy config can be`,
  );
}

function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException | undefined)?.code ?? String(error);
}

/**
 * One read of a base config: `stat` first, so that nothing but a regular file is ever
 * opened (opening some devices has effects), then open without blocking and check the
 * opened file again (it may have been replaced in between), and read at most the cap.
 */
export async function readBaseFile(filePath: string): Promise<DeployFileText> {
  let before: fs.Stats;
  try {
    before = await fs.promises.stat(filePath);
  } catch (error) {
    const code = errorCode(error);
    return code === 'ENOENT' || code === 'ENOTDIR' ? undefined : refused(`cannot be read (${code})`);
  }
  const kind = notRegular(before);
  if (kind) return refused(`is ${kind}, not a regular file`);
  if (before.size > MAX_BASE_CONFIG_BYTES) return tooLarge(before.size);
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(filePath, OPEN_FLAGS);
  } catch (error) {
    return refused(`cannot be read (${errorCode(error)})`);
  }
  try {
    const opened = await handle.stat();
    const openedKind = notRegular(opened);
    if (openedKind) return refused(`is ${openedKind}, not a regular file`);
    if (opened.size > MAX_BASE_CONFIG_BYTES) return tooLarge(opened.size);
    // One byte more than the cap tells a file that grew past it while being read.
    const buffer = Buffer.alloc(Math.min(Math.max(opened.size, 4096), MAX_BASE_CONFIG_BYTES) + 1);
    let total = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, total, buffer.length - total, total);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total === buffer.length) {
        return total > MAX_BASE_CONFIG_BYTES ? tooLarge(total) : refused('changed while it was read');
      }
    }
    return buffer.toString('utf8', 0, total);
  } catch (error) {
    return refused(`cannot be read (${errorCode(error)})`);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

interface Kept {
  readonly stamp: string;
  readonly text: DeployFileText;
}

/** readBaseFile with the last read of each path kept while `stat` says the file is unchanged. */
export class BaseFiles {
  private readonly kept = new Map<string, Kept>();
  private readonly reading = new Map<string, Promise<DeployFileText>>();

  constructor(private readonly readFile: BaseFileReader = readBaseFile) {}

  read(filePath: string): Promise<DeployFileText> {
    const running = this.reading.get(filePath);
    if (running) return running;
    const read = this.readFresh(filePath).finally(() => this.reading.delete(filePath));
    this.reading.set(filePath, read);
    return read;
  }

  private async readFresh(filePath: string): Promise<DeployFileText> {
    const stamp = await fs.promises.stat(filePath).then(
      (s) => `${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}:${s.mode}`,
      (error: unknown) => `error:${errorCode(error)}`,
    );
    const kept = this.kept.get(filePath);
    if (kept && kept.stamp === stamp) return kept.text;
    const text = await this.readFile(filePath);
    this.kept.delete(filePath);
    this.kept.set(filePath, { stamp, text });
    if (this.kept.size > MAX_KEPT) this.kept.delete(this.kept.keys().next().value as string);
    return text;
  }
}
