// Cleanup that always runs: on normal completion, on an exception, on SIGINT/SIGTERM/SIGHUP and
// at process exit. Every resource the harness creates (VS Code server process group, browser
// profile folders, temporary workspaces) registers a *synchronous* last-resort cleanup here, so
// that even `process.exit()` or a signal cannot leave a process or folder behind.
import * as fs from 'node:fs';

type SyncCleanup = () => void;
const cleanups = new Map<number, SyncCleanup>();
let nextId = 1;
let installed = false;

function runAll(): void {
  for (const [id, fn] of [...cleanups].reverse()) {
    cleanups.delete(id);
    try {
      fn();
    } catch {
      // best effort: keep cleaning up the rest
    }
  }
}

function install(): void {
  if (installed) return;
  installed = true;
  process.on('exit', runAll);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      process.stderr.write(`\nharness: ${signal}, cleaning up\n`);
      runAll();
      process.exit(signal === 'SIGINT' ? 130 : 143);
    });
  }
}

/** Registers a synchronous cleanup; returns a function that runs it now (once) and unregisters it. */
export function onCleanup(fn: SyncCleanup): () => void {
  install();
  const id = nextId++;
  cleanups.set(id, fn);
  return () => {
    if (cleanups.delete(id)) fn();
  };
}

/** Sends a signal to a whole process group; false if the group no longer exists. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** SIGKILL a process group synchronously (used at exit, where nothing can be awaited). */
export function killGroupNow(pgid: number): void {
  signalGroup(pgid, 'SIGKILL');
}

/** SIGTERM a process group, wait up to `graceMs` for every member to go, then SIGKILL it. */
export async function stopGroup(pgid: number, graceMs = 3000): Promise<void> {
  if (!signalGroup(pgid, 'SIGTERM')) return;
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    if (!signalGroup(pgid, 0)) return;
  }
  signalGroup(pgid, 'SIGKILL');
  for (let i = 0; i < 20 && signalGroup(pgid, 0); i++) await new Promise((r) => setTimeout(r, 100));
}

export function removeDirNow(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}

/**
 * Notes a process group or a temporary folder in $STAGE_LENS_CLEANUP_FILE: run.sh's EXIT trap
 * kills / removes whatever is still there, should the harness itself be killed with SIGKILL.
 */
export function recordForCleanup(kind: 'pgid' | 'dir', value: string | number): void {
  const file = process.env.STAGE_LENS_CLEANUP_FILE;
  if (file) fs.appendFileSync(file, `${kind} ${value}\n`);
}
