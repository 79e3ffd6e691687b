// <storage>/windows/<host>-<pid>.json: the sessions a language server (a window) has open,
// so that retention in another window never deletes one of them. Written when that set
// changes and refreshed with the locks' heartbeat; removed when nothing is open or the
// server shuts down. A file whose writer is gone (same rule as a stale lock) counts for
// nothing and is removed by whoever reads it.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { identityFrom, isSelf, selfIdentity, stillRunning } from './processIdentity';
import { STALE_AFTER_MS } from './ownerLock';

const FOLDER = 'windows';

function presenceFolder(storageDir: string): string {
  return path.join(storageDir, FOLDER);
}

export class WindowPresence {
  private open: readonly string[] = [];
  private readonly file: string;

  constructor(private readonly storageDir: string) {
    const me = selfIdentity();
    this.file = path.join(presenceFolder(storageDir), `${me.host.replace(/[^A-Za-z0-9._-]/g, '_')}-${me.pid}.json`);
  }

  /** The sessions this window has open (or is opening); written at once when the set changes. */
  setOpen(ids: Iterable<string>): void {
    const next = [...new Set(ids)].sort();
    if (next.length === this.open.length && next.every((id, i) => id === this.open[i])) return;
    this.open = next;
    this.write();
  }

  heartbeat(): void {
    if (this.open.length > 0) this.write();
  }

  dispose(): void {
    this.open = [];
    this.write();
  }

  private write(): void {
    try {
      if (this.open.length === 0) {
        rmSync(this.file, { force: true });
        return;
      }
      mkdirSync(presenceFolder(this.storageDir), { recursive: true });
      const tmp = `${this.file}.tmp`;
      writeFileSync(tmp, JSON.stringify({ ...selfIdentity(), heartbeatAt: Date.now(), open: this.open }));
      renameSync(tmp, this.file);
    } catch {
      // An unwritable storage folder: other windows then see nothing open here (they still
      // never delete a session this window captures, which its lock protects).
    }
  }
}

/** Session ids open in other windows that are still running, each with that window's pid. Files of windows that are gone are removed. */
export function sessionsOpenElsewhere(storageDir: string, now = Date.now()): Map<string, number> {
  const open = new Map<string, number>();
  const folder = presenceFolder(storageDir);
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return open;
  }
  for (const name of names) {
    if (!name.endsWith('.json')) continue;
    const file = path.join(folder, name);
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      continue; // being replaced, or not ours to judge
    }
    if (typeof raw !== 'object' || raw === null) continue;
    const r = raw as Record<string, unknown>;
    const identity = identityFrom(r);
    const heartbeatAt = r['heartbeatAt'];
    const ids = r['open'];
    if (identity === null || typeof heartbeatAt !== 'number' || !Array.isArray(ids) || isSelf(identity)) continue;
    if (!stillRunning(identity, heartbeatAt, STALE_AFTER_MS, now)) {
      rmSync(file, { force: true });
      continue;
    }
    for (const id of ids) if (typeof id === 'string') open.set(id, identity.pid);
  }
  return open;
}
