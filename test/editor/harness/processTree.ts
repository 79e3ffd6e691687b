// Processes read from /proc: the VS Code server's extension hosts, a host's language servers. A browser window that closes leaves its
// extension host running for the server's reconnection grace time (hours), with our language
// server and anything it launched; UI tests stop them between tests so that each test has the
// machine to itself.
import * as fs from 'node:fs';

export interface ProcessEntry {
  readonly pid: number;
  readonly ppid: number;
  readonly pgid: number;
  readonly argv: readonly string[];
}

/** Every process on this machine (Linux /proc), as far as it could be read. */
export function readProcesses(): ProcessEntry[] {
  const out: ProcessEntry[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      // pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses, so read after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const argv = fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      out.push({ pid: Number(name), ppid: Number(fields[1]), pgid: Number(fields[2]), argv });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** `root` and every process below it, parents before children. */
function subtree(all: readonly ProcessEntry[], root: number): number[] {
  const pids = [root];
  for (let i = 0; i < pids.length; i++) for (const p of all) if (p.ppid === pids[i]) pids.push(p.pid);
  return pids;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function signal(pids: readonly number[], sig: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, sig);
    } catch {
      // already gone
    }
  }
}

/**
 * Stops every extension host in process group `pgid` with all its descendants (SIGTERM, then
 * SIGKILL after `graceMs`). Returns how many extension hosts there were.
 */
export async function stopExtensionHosts(pgid: number, graceMs = 3000): Promise<number> {
  const all = readProcesses();
  const hosts = all.filter((p) => p.pgid === pgid && p.argv.includes('--type=extensionHost'));
  const pids = hosts.flatMap((h) => subtree(all, h.pid));
  signal(pids, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (pids.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  signal(pids.filter(alive), 'SIGKILL');
  return hosts.length;
}
