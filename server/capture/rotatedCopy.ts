// After a copytruncate, the bytes a writer appended between our last read and the
// truncation exist only in the copy logrotate made (`server.log.1`, `server.log-20250724`,
// ...). The copy is found by content, not by name: a regular file next to the followed one,
// named after it, that starts with the same bytes and holds the same bytes before our
// offset (ContentFingerprint). Compressed copies are not read.
import * as fsp from 'node:fs/promises';
import path from 'node:path';
import type { ContentFingerprint } from './tailFingerprint';

const COMPRESSED = /\.(gz|bz2|xz|zst|lz4|z|zip)$/i;

export interface RotatedCopy {
  readonly path: string;
  readonly handle: fsp.FileHandle;
  readonly size: number;
}

/** The copy of `file` whose content continues what `seen` has read, newest first; null when none is found. The caller closes it. */
export async function findRotatedCopy(file: string, seen: ContentFingerprint): Promise<RotatedCopy | null> {
  const dir = path.dirname(file);
  const base = path.basename(file);
  let names: string[];
  try {
    names = await fsp.readdir(dir);
  } catch {
    return null;
  }
  const candidates: { path: string; mtimeMs: number }[] = [];
  for (const name of names) {
    if (name === base || !name.startsWith(base) || COMPRESSED.test(name)) continue;
    const candidate = path.join(dir, name);
    const stats = await fsp.stat(candidate).catch(() => null);
    if (stats !== null && stats.isFile() && stats.size >= seen.position)
      candidates.push({ path: candidate, mtimeMs: stats.mtimeMs });
  }
  candidates.sort((a, b) => b.mtimeMs - a.mtimeMs);
  for (const candidate of candidates) {
    const handle = await fsp.open(candidate.path, 'r').catch(() => null);
    if (handle === null) continue;
    const size = (await handle.stat()).size;
    if (await seen.isCopyOf(handle, size)) return { path: candidate.path, handle, size };
    await handle.close();
  }
  return null;
}
