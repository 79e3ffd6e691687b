// Which process holds a lock or a presence file, precisely enough to tell "that language
// server is still running" from "its pid now names another process" (pid reuse) or "it
// ran before the machine rebooted": pid, host, boot id and the process's start time
// (`/proc/<pid>/stat` field 22). Where /proc is missing, liveness falls back to the
// signal test plus the heartbeat's age.
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { processAlive } from '../procStat';

export interface ProcessIdentity {
  readonly pid: number;
  readonly host: string;
  /** `/proc/sys/kernel/random/boot_id`; null where unreadable. */
  readonly bootId: string | null;
  /** Start time in clock ticks after boot; null where unreadable. */
  readonly startTicks: string | null;
}

function readTrimmed(file: string): string | null {
  try {
    const text = readFileSync(file, 'utf8').trim();
    return text === '' ? null : text;
  } catch {
    return null;
  }
}

/** Field 22 of `/proc/<pid>/stat` (after the parenthesized command name, which may hold spaces and `)`). */
export function processStartTicks(pid: number, procRoot = '/proc'): string | null {
  const stat = readTrimmed(`${procRoot}/${pid}/stat`);
  if (stat === null) return null;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state), so field 22 is fields[19].
  const ticks = fields[19];
  return ticks !== undefined && /^\d+$/.test(ticks) ? ticks : null;
}

let self: ProcessIdentity | null = null;

/** This process. */
export function selfIdentity(): ProcessIdentity {
  self ??= {
    pid: process.pid,
    host: hostname(),
    bootId: readTrimmed('/proc/sys/kernel/random/boot_id'),
    startTicks: processStartTicks(process.pid),
  };
  return self;
}

export function isSelf(other: Pick<ProcessIdentity, 'pid' | 'host'>): boolean {
  const me = selfIdentity();
  return other.pid === me.pid && other.host === me.host;
}

/**
 * Whether the process that wrote `heartbeatAt` is still running. On this machine the
 * process itself is checked (a live owner is never declared gone, however old its
 * heartbeat: it may be busy); on another machine sharing the folder, only a heartbeat
 * younger than `staleAfterMs` counts.
 */
export function stillRunning(
  owner: ProcessIdentity,
  heartbeatAt: number,
  staleAfterMs: number,
  now = Date.now(),
): boolean {
  const me = selfIdentity();
  const fresh = now - heartbeatAt < staleAfterMs;
  if (owner.host !== me.host) return fresh;
  if (owner.bootId !== null && me.bootId !== null && owner.bootId !== me.bootId) return false;
  if (!processAlive(owner.pid)) return false;
  if (owner.startTicks !== null && me.startTicks !== null) return processStartTicks(owner.pid) === owner.startTicks;
  // No /proc: the pid may have been reused; only a recent heartbeat proves it is the same process.
  return fresh;
}

/** A value read from disk that should be an identity (lock files, presence files). */
export function identityFrom(raw: Record<string, unknown>): ProcessIdentity | null {
  const { pid, host, bootId, startTicks } = raw;
  if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0 || typeof host !== 'string') return null;
  if (!(bootId === null || typeof bootId === 'string') || !(startTicks === null || typeof startTicks === 'string'))
    return null;
  return { pid, host, bootId, startTicks };
}
