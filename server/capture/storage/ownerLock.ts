// <session>/owner.lock: the language server (window) that captures a session. Only the
// holder writes the session's files; other windows follow them read-only. The lock names
// its holder (pid, host, boot id, process start) and carries a heartbeat that the holder
// refreshes every HEARTBEAT_MS. It is stale when its holder is gone: on this machine, the
// process has exited (or its pid names another process now); from another machine
// sharing the folder, the heartbeat is older than STALE_AFTER_MS. Only a stale lock may
// be taken over.
//
// Every write is atomic: a new lock is a fully written temp file linked into place
// (link(2) fails when the lock exists), a heartbeat renames a temp file over it, and a
// takeover is serialized by an exclusive marker so two windows cannot both take it.
import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { identityFrom, isSelf, selfIdentity, stillRunning, type ProcessIdentity } from './processIdentity';

export const LOCK_FILE = 'owner.lock';
const TAKEOVER_FILE = 'owner.lock.takeover';
export const HEARTBEAT_MS = 2000;
export const STALE_AFTER_MS = 15_000;

export interface LockRecord extends ProcessIdentity {
  /** Tells this holder's lock from an earlier one of the same process. */
  readonly token: string;
  /** ms since epoch of the holder's last heartbeat. */
  readonly heartbeatAt: number;
}

export type LockState =
  | { readonly kind: 'free' }
  /** `owner` is null for a lock being written or unreadable but recent. */
  | { readonly kind: 'held'; readonly owner: LockRecord | null }
  | { readonly kind: 'stale'; readonly owner: LockRecord | null };

function errnoCode(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | null)?.code;
}

function parseLock(text: string): LockRecord | null {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof raw !== 'object' || raw === null) return null;
  const r = raw as Record<string, unknown>;
  const identity = identityFrom(r);
  const { token, heartbeatAt } = r;
  if (
    identity === null ||
    typeof token !== 'string' ||
    typeof heartbeatAt !== 'number' ||
    !Number.isFinite(heartbeatAt)
  )
    return null;
  return { ...identity, token, heartbeatAt };
}

function readRecord(file: string): { record: LockRecord | null; mtimeMs: number } | null {
  try {
    const text = readFileSync(file, 'utf8');
    return { record: parseLock(text), mtimeMs: statSync(file).mtimeMs };
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return null;
    throw err;
  }
}

function tempName(file: string): string {
  return `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
}

/** Creates `file` with `text` unless it exists; false when it does. */
function createExclusive(file: string, text: string): boolean {
  const tmp = tempName(file);
  writeFileSync(tmp, text);
  try {
    linkSync(tmp, file);
    return true;
  } catch (err) {
    if (errnoCode(err) === 'EEXIST') return false;
    // A filesystem without hard links: an exclusive create (the content follows at once).
    if (errnoCode(err) !== 'EPERM' && errnoCode(err) !== 'ENOTSUP' && errnoCode(err) !== 'EOPNOTSUPP') throw err;
    try {
      writeFileSync(file, text, { flag: 'wx' });
      return true;
    } catch (e) {
      if (errnoCode(e) === 'EEXIST') return false;
      throw e;
    }
  } finally {
    try {
      unlinkSync(tmp);
    } catch {
      // already gone
    }
  }
}

function replaceAtomically(file: string, text: string): void {
  const tmp = tempName(file);
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

/** Who holds the lock of the session folder `dir`, and whether they are still running. */
export function readLockState(dir: string, now = Date.now()): LockState {
  const read = readRecord(path.join(dir, LOCK_FILE));
  if (read === null) return { kind: 'free' };
  const { record, mtimeMs } = read;
  if (record === null)
    return now - mtimeMs < STALE_AFTER_MS ? { kind: 'held', owner: null } : { kind: 'stale', owner: null };
  return stillRunning(record, record.heartbeatAt, STALE_AFTER_MS, now)
    ? { kind: 'held', owner: record }
    : { kind: 'stale', owner: record };
}

export class OwnerLock {
  private record: LockRecord;

  private constructor(
    readonly dir: string,
    record: LockRecord,
  ) {
    this.record = record;
  }

  /** Takes the lock of `dir` when it is free or stale; null when another live process holds it. */
  static acquire(dir: string): OwnerLock | null {
    const record: LockRecord = { ...selfIdentity(), token: randomBytes(8).toString('hex'), heartbeatAt: Date.now() };
    const file = path.join(dir, LOCK_FILE);
    if (createExclusive(file, JSON.stringify(record))) return new OwnerLock(dir, record);
    const state = readLockState(dir);
    if (state.kind === 'held') return null;
    if (state.kind === 'free') return createExclusive(file, JSON.stringify(record)) ? new OwnerLock(dir, record) : null;
    return OwnerLock.takeOver(dir, state.owner, record);
  }

  /** Replaces a stale lock; one window at a time (the marker), and only the lock seen stale. */
  private static takeOver(dir: string, stale: LockRecord | null, record: LockRecord): OwnerLock | null {
    const marker = path.join(dir, TAKEOVER_FILE);
    if (!createExclusive(marker, JSON.stringify(record))) {
      // Another window is taking it over now, or died doing so long ago.
      const left = readRecord(marker);
      if (left !== null && Date.now() - left.mtimeMs < STALE_AFTER_MS) return null;
      try {
        unlinkSync(marker);
      } catch {
        // removed meanwhile
      }
      if (!createExclusive(marker, JSON.stringify(record))) return null;
    }
    try {
      const again = readLockState(dir);
      const file = path.join(dir, LOCK_FILE);
      if (again.kind === 'held') return null;
      if (again.kind === 'free')
        return createExclusive(file, JSON.stringify(record)) ? new OwnerLock(dir, record) : null;
      if ((again.owner?.token ?? null) !== (stale?.token ?? null)) return null;
      replaceAtomically(file, JSON.stringify(record));
      return new OwnerLock(dir, record);
    } finally {
      try {
        unlinkSync(marker);
      } catch {
        // already gone
      }
    }
  }

  get token(): string {
    return this.record.token;
  }

  /** Whether the lock on disk is still this one. */
  isHeld(): boolean {
    try {
      return readRecord(path.join(this.dir, LOCK_FILE))?.record?.token === this.record.token;
    } catch {
      return false;
    }
  }

  /** Refreshes the heartbeat. False when the lock is not ours any more (taken over, or its folder deleted). */
  heartbeat(now = Date.now()): boolean {
    if (!this.isHeld()) return false;
    this.record = { ...this.record, heartbeatAt: now };
    try {
      replaceAtomically(path.join(this.dir, LOCK_FILE), JSON.stringify(this.record));
      return true;
    } catch {
      return false;
    }
  }

  /** Removes the lock if it is still ours. */
  release(): void {
    if (!this.isHeld()) return;
    try {
      unlinkSync(path.join(this.dir, LOCK_FILE));
    } catch {
      // already gone
    }
  }
}

/** For messages: the pid of a lock's holder when it is another process, or null. */
export function holderPid(state: LockState): number | null {
  if (state.kind === 'free' || state.owner === null) return null;
  return isSelf(state.owner) ? null : state.owner.pid;
}
