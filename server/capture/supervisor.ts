// The supervisor that stands between Stage Lens and a launched server, so that a server
// never outlives the process that reads its output. Stage Lens starts it (Node, `-e`) as
// the leader of a new process group and keeps a pipe to its stdin; the supervisor starts
// the server in the same group with the stdout/stderr pipes it was given (the bytes go
// straight to Stage Lens, never through the supervisor). When that stdin pipe closes —
// the language server or CLI ended in any way, SIGKILL and aborts included, which no exit
// handler can catch — it sends SIGTERM to the group and SIGKILL after the grace period.
// A server that ignores SIGPIPE (Python's logging swallows BrokenPipeError) would
// otherwise keep running, holding its GPUs, with nobody reading it.
//
// Why a supervisor rather than a pid kept in the session's files: a server found alive
// after a restart cannot be read any more (its output pipe belonged to the dead process),
// so it could only be reported and stopped by hand; this way it never survives.
//
// Protocol. Stage Lens writes one JSON line to the supervisor's stdin (SupervisorSpec) and
// keeps the pipe open. The supervisor answers on fd 3 with JSON lines (SupervisorMessage):
// `spawned` with the server's pid, `error` when the server cannot be started (errno code),
// `exit` with the server's exit code or signal. The server's argv and environment travel
// in that line, not on the supervisor's command line, so /proc shows no second
// `vllm serve` and the supervisor itself runs with Stage Lens's environment, not the
// server's (LD_PRELOAD, NODE_OPTIONS of the server setting do not touch it).
//
// The script is plain JavaScript in a string, run with `node -e`: it needs no file next to
// the bundle, so the language server, the CLI and the tests (run from source) start it alike.

/** What Stage Lens sends on the supervisor's stdin, as one JSON line. */
export interface SupervisorSpec {
  readonly argv: readonly string[];
  readonly cwd: string;
  /** The server's complete environment. */
  readonly env: Readonly<Record<string, string>>;
  /** SIGTERM -> SIGKILL delay when the pipe from Stage Lens closes. */
  readonly graceMs: number;
}

/** What the supervisor reports on fd 3, one JSON object per line. */
export type SupervisorMessage =
  | { readonly type: 'spawned'; readonly pid: number }
  | { readonly type: 'error'; readonly code: string | null; readonly message: string }
  | { readonly type: 'exit'; readonly code: number | null; readonly signal: string | null };

/** The file descriptor of the supervisor's status channel. */
export const SUPERVISOR_STATUS_FD = 3;

export const SUPERVISOR_TITLE = 'stage-lens-supervisor';

/** Parses one status line; null for anything that is not a well-formed message. */
export function parseSupervisorMessage(line: string): SupervisorMessage | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const m = value as Record<string, unknown>;
  const nullableString = (v: unknown): v is string | null => v === null || typeof v === 'string';
  switch (m['type']) {
    case 'spawned':
      return typeof m['pid'] === 'number' && Number.isInteger(m['pid']) ? { type: 'spawned', pid: m['pid'] } : null;
    case 'error':
      return nullableString(m['code']) && typeof m['message'] === 'string'
        ? { type: 'error', code: m['code'], message: m['message'] }
        : null;
    case 'exit':
      return (m['code'] === null || typeof m['code'] === 'number') && nullableString(m['signal'])
        ? { type: 'exit', code: m['code'], signal: m['signal'] }
        : null;
    default:
      return null;
  }
}

export const SUPERVISOR_SCRIPT = String.raw`'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
try { process.title = '${SUPERVISOR_TITLE}'; } catch {}
const groups = process.platform !== 'win32';
let spec = null;
let child = null;
let spawned = false;
let stopping = false;
let orphaned = false;
let input = '';
function send(message) {
  try { fs.writeSync(${SUPERVISOR_STATUS_FD}, JSON.stringify(message) + '\n'); } catch {}
}
function signalGroup(signal) {
  try {
    if (groups) process.kill(-process.pid, signal);
    else if (child !== null) child.kill(signal);
  } catch {}
}
// Stop Capture signals the whole group, this process included: stay to report the
// server's exit (a SIGKILL after the grace period ends everyone anyway).
process.on('SIGTERM', () => {
  stopping = true;
  if (child === null) process.exit(0);
});
process.on('SIGINT', () => {});
process.on('SIGHUP', () => {});
function lifelineClosed() {
  if (orphaned) return;
  orphaned = true;
  if (child === null || child.exitCode !== null || child.signalCode !== null) process.exit(0);
  signalGroup('SIGTERM');
  setTimeout(() => { signalGroup('SIGKILL'); process.exit(0); }, spec === null ? 0 : spec.graceMs);
}
function start() {
  if (stopping || orphaned) process.exit(0);
  try {
    child = spawn(spec.argv[0], spec.argv.slice(1), { cwd: spec.cwd, env: spec.env, stdio: ['ignore', 'inherit', 'inherit'], windowsHide: true });
  } catch (err) {
    send({ type: 'error', code: typeof err.code === 'string' ? err.code : null, message: String(err.message) });
    process.exit(1);
  }
  child.once('spawn', () => {
    spawned = true;
    send({ type: 'spawned', pid: child.pid });
  });
  child.once('error', (err) => {
    if (spawned) return;
    send({ type: 'error', code: typeof err.code === 'string' ? err.code : null, message: String(err.message) });
    process.exit(1);
  });
  child.once('exit', (code, signal) => {
    send({ type: 'exit', code, signal });
    if (!orphaned) process.exit(0);
  });
}
process.stdin.setEncoding('utf8');
process.stdin.on('data', (text) => {
  if (spec !== null) return;
  input += text;
  const end = input.indexOf('\n');
  if (end < 0) return;
  try {
    spec = JSON.parse(input.slice(0, end));
  } catch (err) {
    send({ type: 'error', code: null, message: 'unreadable launch request: ' + String(err.message) });
    process.exit(1);
  }
  start();
});
process.stdin.on('end', lifelineClosed);
process.stdin.on('close', lifelineClosed);
process.stdin.on('error', lifelineClosed);
`;
