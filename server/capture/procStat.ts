// Reads the few fields of `/proc/<pid>/stat` the capture sources need: the state (to
// tell a zombie from a live process), the parent (to fold a server's forked workers into
// it) and the process group (to know when a launched server's whole group is gone).
// Linux only; every reader returns null where /proc is missing or unreadable.
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface ProcStat {
  readonly pid: number;
  /** One letter: R running, S sleeping, Z zombie, X dead, ... */
  readonly state: string;
  readonly ppid: number;
  readonly pgrp: number;
}

/** Parses one stat line. The command name sits in parentheses and may itself contain `)`, so split after the last one. */
export function parseProcStat(text: string): ProcStat | null {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) return null;
  const pid = Number(text.slice(0, open).trim());
  const rest = text
    .slice(close + 1)
    .trim()
    .split(/\s+/);
  const [state, ppid, pgrp] = rest;
  if (!Number.isInteger(pid) || state === undefined || ppid === undefined || pgrp === undefined) return null;
  const parsed = { pid, state, ppid: Number(ppid), pgrp: Number(pgrp) };
  return Number.isInteger(parsed.ppid) && Number.isInteger(parsed.pgrp) ? parsed : null;
}

export function readProcStat(pid: number, procRoot = '/proc'): ProcStat | null {
  try {
    return parseProcStat(fs.readFileSync(path.join(procRoot, String(pid), 'stat'), 'utf8'));
  } catch {
    return null;
  }
}

/** Zombies and dead entries hold no resources and cannot be signalled away; they count as gone. */
export function isGone(stat: ProcStat | null): boolean {
  return stat === null || stat.state === 'Z' || stat.state === 'X';
}

/** Numeric entries of the proc root: the process ids present right now. */
export function listPids(procRoot = '/proc'): number[] {
  let names: string[];
  try {
    names = fs.readdirSync(procRoot);
  } catch {
    return [];
  }
  return names.filter((n) => /^\d+$/.test(n)).map(Number);
}

/**
 * Whether any live (non-zombie) process is still in group `pgid`. Uses /proc where it
 * exists, because `kill(-pgid, 0)` also succeeds for zombies that an init without a
 * reaper (containers) never collects; falls back to that signal test elsewhere.
 */
export function processGroupAlive(pgid: number, procRoot = '/proc'): boolean {
  if (fs.existsSync(path.join(procRoot, 'self', 'stat'))) {
    return listPids(procRoot).some((pid) => {
      const stat = readProcStat(pid, procRoot);
      return stat !== null && stat.pgrp === pgid && !isGone(stat);
    });
  }
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The live members of group `pgid`, from /proc; null where /proc is missing (the caller
 * then signals the whole group instead).
 */
export function groupMembers(pgid: number, procRoot = '/proc'): number[] | null {
  if (!fs.existsSync(path.join(procRoot, 'self', 'stat'))) return null;
  return listPids(procRoot).filter((pid) => {
    const stat = readProcStat(pid, procRoot);
    return stat !== null && stat.pgrp === pgid && !isGone(stat);
  });
}

/** Whether one process is alive (not a zombie). Same /proc-first rule as above. */
export function processAlive(pid: number, procRoot = '/proc'): boolean {
  if (fs.existsSync(path.join(procRoot, 'self', 'stat'))) return !isGone(readProcStat(pid, procRoot));
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
