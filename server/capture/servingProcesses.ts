// Finds local vLLM-Omni serving processes (and our simulator) in /proc, for "Attach to a
// running server": its command line, deploy config, port, and where its stdout/stderr go.
// Linux only; elsewhere (no /proc) the list is empty. `procRoot` is injectable so tests
// can build a fake /proc out of real files and symlinks.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ServerContainer, ServingProcess } from '../protocol';
import { optionValue } from './argvOptions';
import { readProcStat } from './procStat';
import { readEnviron, statsTablesOutlook } from './statsTables';
import { containerOfProcess, DEFAULT_CONTAINER_ROOTS, type ContainerRoots } from './containerLog';

export { optionValue } from './argvOptions';

/** What a serving process's command line says it is. */
export type ServingKind = 'vllm' | 'simulator';

export interface ServingCommand {
  readonly kind: ServingKind;
  /** Index in argv of the first argument after `serve` / `simulate` / the module or script. */
  readonly argsFrom: number;
}

/** `vllm serve` listens here when no `--port` is given; so does the simulator. */
export const DEFAULT_PORT = 8000;

/**
 * Where a file descriptor points, as shown to the user: an absolute file path, or one of
 * these words. `unknown` means we may not look (another user's process).
 */
export type FdTarget = string;
export const FD_PIPE = 'pipe';
export const FD_TERMINAL = 'terminal';
export const FD_SOCKET = 'socket';
export const FD_DEV_NULL = '/dev/null';
export const FD_DELETED_FILE = 'deleted file';
export const FD_CLOSED = 'closed';
export const FD_UNKNOWN = 'unknown';

/** A file Stage Lens can tail: an absolute path that is not one of the special targets. */
export function isTailableTarget(target: FdTarget): boolean {
  return path.isAbsolute(target) && target !== FD_DEV_NULL;
}

/** Classifies a `readlink /proc/<pid>/fd/<n>` result (null: unreadable). */
export function describeFdTarget(link: string | null): FdTarget {
  if (link === null) return FD_UNKNOWN;
  if (link.startsWith('pipe:')) return FD_PIPE;
  if (link.startsWith('socket:')) return FD_SOCKET;
  if (link === '/dev/null') return FD_DEV_NULL;
  if (/^\/dev\/(pts\/\d+|tty\w*|console)$/.test(link)) return FD_TERMINAL;
  if (link.endsWith(' (deleted)')) return FD_DELETED_FILE;
  if (path.isAbsolute(link)) return link;
  // anon_inode:[eventfd] and the like: nothing to tail.
  return FD_UNKNOWN;
}

function readFd(procRoot: string, pid: number, fd: number): FdTarget {
  const fdPath = path.join(procRoot, String(pid), 'fd', String(fd));
  let target: FdTarget;
  try {
    target = describeFdTarget(fs.readlinkSync(fdPath));
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? FD_CLOSED : FD_UNKNOWN;
  }
  if (!isTailableTarget(target)) return target;
  // A path is not always a file: a named pipe (mkfifo) or a device shows as its path too.
  // Stat through the fd link, which reaches the very file the process holds.
  try {
    const stats = fs.statSync(fdPath);
    if (stats.isFIFO()) return FD_PIPE;
    if (stats.isSocket()) return FD_SOCKET;
    if (!stats.isFile()) return FD_UNKNOWN;
  } catch {
    // Not ours to stat (or a fake /proc in tests): the path is the best we know.
  }
  return target;
}

function baseName(arg: string): string {
  return arg.slice(arg.lastIndexOf('/') + 1);
}

const SIMULATOR_ENTRY = /(^|\/)server\/simulate\/cli-entry\.(ts|js)$/;
const BUILT_CLI = /(^|\/)dist\/cli\.js$/;

/** Recognises the serving command in an argv, wherever the interpreter put it. */
export function classifyServingCommand(argv: readonly string[]): ServingCommand | null {
  const hasOmni = argv.includes('--omni');
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const next = argv[i + 1];
    const base = baseName(arg);
    // `vllm serve … --omni` (vLLM only takes the omni path with --omni) or `vllm-omni serve …`.
    if (next === 'serve' && ((base === 'vllm' && hasOmni) || base === 'vllm-omni'))
      return { kind: 'vllm', argsFrom: i + 2 };
    // `python -m vllm.entrypoints.… --omni` or `python -m vllm_omni.…`.
    if (arg === '-m' && next !== undefined) {
      if (next.startsWith('vllm_omni.') || (next.startsWith('vllm.entrypoints') && hasOmni)) {
        const serveAt = argv.indexOf('serve', i + 2);
        return { kind: 'vllm', argsFrom: serveAt >= 0 ? serveAt + 1 : i + 2 };
      }
    }
    if ((base === 'stage-lens' || BUILT_CLI.test(arg)) && next === 'simulate')
      return { kind: 'simulator', argsFrom: i + 2 };
    if (SIMULATOR_ENTRY.test(arg)) return { kind: 'simulator', argsFrom: i + 1 };
  }
  return null;
}

function parsePort(text: string | null): number | null {
  if (text === null) return DEFAULT_PORT;
  const port = Number(text);
  return Number.isInteger(port) && port > 0 && port < 65536 ? port : null;
}

function readCmdline(procRoot: string, pid: number): string[] | null {
  let raw: string;
  try {
    raw = fs.readFileSync(path.join(procRoot, String(pid), 'cmdline'), 'utf8');
  } catch {
    return null; // exited while we looked, or not ours to read
  }
  const argv = raw.split('\0');
  if (argv[argv.length - 1] === '') argv.pop();
  // A process that rewrote its title (setproctitle) shows one space-separated string.
  return argv.length === 1 && argv[0] !== undefined && argv[0].includes(' ') ? argv[0].split(/\s+/) : argv;
}

function readCwd(procRoot: string, pid: number): string | null {
  try {
    return fs.readlinkSync(path.join(procRoot, String(pid), 'cwd'));
  } catch {
    return null;
  }
}

function describeProcess(
  procRoot: string,
  pid: number,
  argv: string[],
  command: ServingCommand,
  containerRoots: ContainerRoots,
): ServingProcess {
  const args = argv.slice(command.argsFrom);
  const deployArg = optionValue(args, '--deploy-config');
  const cwd = readCwd(procRoot, pid);
  // A relative --deploy-config is relative to the server's working directory, not ours.
  const deployConfig = deployArg === null ? null : cwd !== null ? path.resolve(cwd, deployArg) : deployArg;
  return {
    pid,
    argv,
    deployConfig,
    port: parsePort(optionValue(args, '--port')),
    stdout: readFd(procRoot, pid, 1),
    stderr: readFd(procRoot, pid, 2),
    statsTables: statsTablesOutlook({
      args,
      env: readEnviron(procRoot, pid),
      cwd,
      simulator: command.kind === 'simulator',
    }),
    ...containerField(containerOfProcess(procRoot, pid, containerRoots)),
  };
}

function containerField(container: ServerContainer | null): { container?: ServerContainer } {
  return container === null ? {} : { container };
}

/**
 * The serving processes under `procRoot`, by pid. A server's forked workers inherit its
 * command line; a match whose parent is also a match with the same argv is left out,
 * so each server is listed once.
 */
export function listServingProcesses(
  procRoot = '/proc',
  containerRoots: ContainerRoots = DEFAULT_CONTAINER_ROOTS,
): ServingProcess[] {
  let names: string[];
  try {
    names = fs.readdirSync(procRoot);
  } catch {
    return [];
  }
  const found = new Map<number, ServingProcess>();
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    const argv = readCmdline(procRoot, pid);
    if (argv === null || argv.length === 0) continue;
    const command = classifyServingCommand(argv);
    if (command !== null) found.set(pid, describeProcess(procRoot, pid, argv, command, containerRoots));
  }
  const sameArgv = (a: readonly string[], b: readonly string[]): boolean =>
    a.length === b.length && a.every((x, i) => x === b[i]);
  return [...found.values()]
    .filter((proc) => {
      const parent = found.get(readProcStat(proc.pid, procRoot)?.ppid ?? -1);
      return parent === undefined || !sameArgv(parent.argv, proc.argv);
    })
    .sort((a, b) => a.pid - b.pid);
}
