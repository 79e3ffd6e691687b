// Import Log... of several files (a log and its rotations, picked together): the order they are
// read in, oldest first, and how the import names them. Free of the VS Code API (unit-tested).
import * as path from 'node:path';
import { countOf, oldestFirst } from '../server/shared';

export interface PickedFile {
  readonly path: string;
  /** Its last modification (ms since epoch); null when it cannot be read (the import says why). */
  readonly mtimeMs: number | null;
}

/**
 * The files oldest first: rotations by their logrotate number or date; files whose names say no
 * order (`run-a.log`, `run-b.log`) by when they were last written, as a log's earlier part was
 * written before its later one. The dialog's order says nothing (it is the folder's listing).
 */
export function importOrder(files: readonly PickedFile[]): string[] {
  const byTime = [...files].sort((a, b) => (a.mtimeMs ?? 0) - (b.mtimeMs ?? 0) || a.path.localeCompare(b.path));
  return oldestFirst(byTime.map((f) => f.path));
}

/** "server.log", or "server.log and 2 earlier files" for the files read as one log (oldest first). */
export function importName(files: readonly string[]): string {
  const newest = path.basename(files.at(-1) ?? '');
  return files.length <= 1 ? newest : `${newest} and ${countOf(files.length - 1, 'earlier file')}`;
}
