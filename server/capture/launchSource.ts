// Launch capture source: runs a serving command from an argument vector (never through a
// shell, so `;`, `|`, `$(...)` in an argument stay literal), hands its stdout and stderr
// to the session as raw bytes, and stops it with SIGTERM then SIGKILL after a grace period.
//
// On POSIX the command runs in a process group of its own, led by a small supervisor
// (supervisor.ts): stopping the group also stops the workers a vLLM server forks for its
// stages, and the supervisor ends the group when the pipe from this process closes, so a
// server never outlives the language server or CLI that launched it (SIGKILL included).
import { LastErrorLine } from './lastErrorLine';
import { spawn, type ChildProcess } from 'node:child_process';
import * as os from 'node:os';
import type { Readable } from 'node:stream';
import type { CaptureListener, CaptureSource, ExitInfo } from './source';
import { groupMembers, processAlive, processGroupAlive } from './procStat';
import { describeSpawnFailure } from './spawnFailure';
import { parseSupervisorMessage, SUPERVISOR_SCRIPT, SUPERVISOR_STATUS_FD, type SupervisorSpec } from './supervisor';
import { describeArgv, shellQuote } from '../core/shellWords';

export interface LaunchOptions {
  /** argv[0] is the program (looked up on PATH), the rest its arguments, passed verbatim. */
  readonly argv: readonly string[];
  readonly cwd: string;
  /** Merged over `process.env`. `PYTHONUNBUFFERED=1` is added unless given here. */
  readonly env?: Readonly<Record<string, string>>;
  /** Time between SIGTERM and SIGKILL when stopping. Default 5000 ms. */
  readonly graceMs?: number;
}

const DEFAULT_GRACE_MS = 5000;
/** How often the group is checked while it is being stopped. */
const GROUP_POLL_MS = 25;
/** After SIGKILL the kernel needs a moment; past this the group is declared gone regardless. */
const AFTER_KILL_WAIT_MS = 2000;
/** After the SIGKILL of the server, the supervisor has this long to report and exit before it is killed too. */
const SUPERVISOR_EXIT_WAIT_MS = 500;
/**
 * After the leader exits, a process outside its group (one that called setsid) may still
 * hold our pipes open. Give up on them once the pipes have been quiet this long, or at the
 * latest after PIPE_CLOSE_MAX_MS, so the run can end.
 */
const PIPE_QUIET_MS = 1000;
const PIPE_CLOSE_MAX_MS = 10_000;

const usesProcessGroups = process.platform !== 'win32';

/**
 * The command line as the terminal's first line shows it: the variables Stage Lens adds to
 * the environment (in the order given), then the argument vector, as `env` would run it:
 * `VLLM_LOGGING_LEVEL=DEBUG PYTHONUNBUFFERED=1 vllm serve …`.
 */
export function describeLaunch(argv: readonly string[], added: Readonly<Record<string, string>>): string {
  const assignments = Object.entries(added).map(([name, value]) => `${name}=${shellQuote(value)}`);
  return [...assignments, describeArgv(argv)].join(' ');
}

/** The variables added to the inherited environment: `env` as given, plus `PYTHONUNBUFFERED=1` unless given. */
export function addedEnvironment(env: Readonly<Record<string, string>> | undefined): Record<string, string> {
  // Python buffers stdout when it is a pipe; without this, stats lines would arrive in
  // 4 KB bursts, or be lost entirely when the server crashes.
  const added: Record<string, string> = { ...env };
  if (added['PYTHONUNBUFFERED'] === undefined) added['PYTHONUNBUFFERED'] = '1';
  return added;
}

function launchEnv(env: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const merged: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined) merged[name] = value;
  return { ...merged, ...addedEnvironment(env) };
}

/** `: <the last error line of stderr>` for a crash's detail, or nothing. */
function whyOf(run: Run): string {
  const line = run.stderrError.line();
  return line === null ? '' : `: ${line}`;
}

/** One run of the command: the supervisor, the server it started, and what happened to them. A restart makes a new one. */
interface Run {
  /** The supervisor: leader of the process group (its pid is the group id). */
  readonly child: ChildProcess;
  readonly listener: CaptureListener;
  /** The server's pid once the supervisor reported it running. */
  serverPid: number | null;
  stopRequested: boolean;
  killedHard: boolean;
  /** How the server ended, as the supervisor reported it. */
  serverExit: ExitInfo | null;
  /** How the supervisor ended (the server's end when the supervisor could not report it, e.g. SIGKILL). */
  exit: ExitInfo | null;
  finished: boolean;
  /** Resolves when the server is running or the run is over. */
  readonly started: Promise<void>;
  resolveStarted(): void;
  /** Resolves when the run is over: exit seen, pipes closed, group gone. */
  readonly done: Promise<void>;
  resolveDone(): void;
  groupStop: Promise<void> | null;
  pipeTimer: NodeJS.Timeout | null;
  lastDataAt: number;
  /** The last error-looking line of the server's stderr: a crash's reason. */
  readonly stderrError: LastErrorLine;
}

export class LaunchSource implements CaptureSource {
  readonly description: string;
  private readonly argv: readonly string[];
  private readonly cwd: string;
  private readonly env: Readonly<Record<string, string>> | undefined;
  private readonly graceMs: number;
  private listener: CaptureListener | null = null;
  private run: Run | null = null;
  private lastExit: ExitInfo | null = null;

  constructor(options: LaunchOptions) {
    this.argv = [...options.argv];
    this.cwd = options.cwd;
    this.env = options.env;
    this.graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
    this.description = describeArgv(this.argv);
  }

  /** Process id of the running server (not of its supervisor), or null. */
  get pid(): number | null {
    const run = this.run;
    return run !== null && !run.finished ? run.serverPid : null;
  }

  /** Exit code and signal of the last run, once it ended. */
  get exit(): ExitInfo | null {
    return this.lastExit;
  }

  start(listener: CaptureListener): void {
    if (this.run !== null && !this.run.finished) {
      listener.onNotice(`${this.description} is already running`);
      return;
    }
    this.listener = listener;
    this.lastExit = null;
    listener.onStatus('starting', null);
    // The terminal's first line: what runs, with the environment Stage Lens adds.
    listener.onNotice(`$ ${describeLaunch(this.argv, addedEnvironment(this.env))}`);
    const program = this.argv[0];
    if (program === undefined || program === '') {
      listener.onStatus('error', 'cannot start: the command is empty');
      return;
    }
    const spec: SupervisorSpec = { argv: this.argv, cwd: this.cwd, env: launchEnv(this.env), graceMs: this.graceMs };
    let child: ChildProcess;
    try {
      // The supervisor runs with our own environment and working directory; the server
      // gets the requested ones (a missing cwd is then reported for the server, not for Node).
      child = spawn(process.execPath, ['-e', SUPERVISOR_SCRIPT], {
        cwd: os.tmpdir(),
        env: process.env,
        shell: false,
        detached: usesProcessGroups,
        stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
        windowsHide: true,
      });
    } catch (err) {
      listener.onStatus(
        'error',
        `cannot start the Stage Lens supervisor (${process.execPath}): ${(err as Error).message}`,
      );
      return;
    }
    this.run = this.watch(child, listener, spec);
  }

  private watch(child: ChildProcess, listener: CaptureListener, spec: SupervisorSpec): Run {
    let resolveDone = (): void => undefined;
    const done = new Promise<void>((resolve) => (resolveDone = resolve));
    let resolveStarted = (): void => undefined;
    const started = new Promise<void>((resolve) => (resolveStarted = resolve));
    const run: Run = {
      child,
      listener,
      serverPid: null,
      stopRequested: false,
      killedHard: false,
      serverExit: null,
      exit: null,
      finished: false,
      started,
      resolveStarted,
      done,
      resolveDone,
      groupStop: null,
      pipeTimer: null,
      lastDataAt: Date.now(),
      stderrError: new LastErrorLine(),
    };
    void done.then(resolveStarted);
    child.stdout?.on('data', (chunk: Buffer) => {
      run.lastDataAt = Date.now();
      listener.onData(chunk, 'stdout');
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      run.lastDataAt = Date.now();
      run.stderrError.push(chunk);
      listener.onData(chunk, 'stderr');
    });
    // The pipe to the supervisor's stdin is its lifeline: kept open while we live. A write
    // to it after the supervisor ended fails with EPIPE, which is no news to us.
    child.stdin?.on('error', () => undefined);
    child.once('spawn', () => child.stdin?.write(`${JSON.stringify(spec)}\n`));
    this.readStatus(run, child.stdio[SUPERVISOR_STATUS_FD] as Readable | null | undefined, spec);
    child.on('error', (err: NodeJS.ErrnoException) => {
      if (run.finished) return;
      this.finish(run, 'error', `cannot start the Stage Lens supervisor (${process.execPath}): ${err.message}`);
    });
    child.once('exit', (code, signal) => {
      run.exit = { code, signal };
      // The server is gone; its workers may not be. Stop whatever is left of the group so
      // a crashed server does not leave stage workers holding GPUs and our pipes.
      if (
        !run.stopRequested &&
        run.serverPid !== null &&
        child.pid !== undefined &&
        usesProcessGroups &&
        processGroupAlive(child.pid)
      ) {
        listener.onNotice('the process exited but left child processes running; stopping them');
        void this.stopGroup(run);
      }
      this.watchPipesAfterExit(run);
    });
    // 'close' comes after 'exit' once every pipe is drained: every byte has been delivered.
    child.once('close', () => {
      if (run.finished) return;
      void Promise.resolve(run.groupStop).then(() => this.finishExited(run));
    });
    return run;
  }

  /** Reads the supervisor's JSON lines: the server's pid, a failure to start it, its exit. */
  private readStatus(run: Run, stream: Readable | null | undefined, spec: SupervisorSpec): void {
    if (stream === null || stream === undefined) return;
    let pending = '';
    stream.setEncoding('utf8');
    stream.on('error', () => undefined);
    stream.on('data', (text: string) => {
      pending += text;
      for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
        const message = parseSupervisorMessage(pending.slice(0, end));
        pending = pending.slice(end + 1);
        if (message === null || run.finished) continue;
        if (message.type === 'spawned') {
          run.serverPid = message.pid;
          run.resolveStarted();
          run.listener.onStatus('running', `running (pid ${message.pid})`);
        } else if (message.type === 'error') {
          this.finish(
            run,
            'error',
            describeSpawnFailure(spec.argv[0] ?? '', spec.cwd, spec.env['PATH'] ?? '', message.code, message.message),
          );
        } else {
          run.serverExit = { code: message.code, signal: message.signal };
        }
      }
    });
  }

  /** Ends the wait for 'close' when the pipes stay open (and quiet) long after the exit. */
  private watchPipesAfterExit(run: Run): void {
    const exitedAt = Date.now();
    const check = (): void => {
      run.pipeTimer = null;
      if (run.finished) return;
      const now = Date.now();
      const stopping = run.groupStop !== null ? this.graceMs + AFTER_KILL_WAIT_MS : 0;
      const quiet = now - run.lastDataAt >= PIPE_QUIET_MS;
      if ((quiet && now - exitedAt >= stopping + PIPE_QUIET_MS) || now - exitedAt >= stopping + PIPE_CLOSE_MAX_MS) {
        // Someone outside the group still holds the pipes: stop waiting for their output.
        run.listener.onNotice(
          'the process exited, but a process outside its group still holds its output open; no longer reading it',
        );
        run.child.stdout?.destroy();
        run.child.stderr?.destroy();
        (run.child.stdio[SUPERVISOR_STATUS_FD] as Readable | null | undefined)?.destroy();
        return;
      }
      run.pipeTimer = setTimeout(check, PIPE_QUIET_MS / 2);
    };
    run.pipeTimer = setTimeout(check, PIPE_QUIET_MS / 2);
  }

  private finishExited(run: Run): void {
    // The supervisor reports the server's own exit; without that report (the group was
    // killed with SIGKILL) the supervisor's end is the server's.
    const exit = run.serverExit ?? run.exit ?? { code: null, signal: null };
    const code = exit.code;
    if (run.stopRequested) {
      const how = run.killedHard ? `killed with SIGKILL after ${this.graceMs} ms grace` : 'stopped';
      this.finish(
        run,
        'exited',
        `${how} by Stage Lens${code !== null && code !== 0 ? ` (exit code ${code})` : ''}`,
        exit,
      );
    } else if (exit.signal !== null) {
      this.finish(run, 'crashed', `killed by signal ${exit.signal}${whyOf(run)}`, exit);
    } else if (code === 0) {
      this.finish(run, 'exited', 'exited with code 0', exit);
    } else {
      this.finish(run, 'crashed', `exited with code ${code ?? '?'}${whyOf(run)}`, exit);
    }
  }

  private finish(run: Run, status: 'exited' | 'crashed' | 'error', detail: string, exit?: ExitInfo): void {
    if (run.finished) return;
    run.finished = true;
    if (run.pipeTimer !== null) clearTimeout(run.pipeTimer);
    run.child.stdin?.destroy();
    if (exit !== undefined) this.lastExit = exit;
    run.listener.onStatus(status, detail, exit);
    run.resolveDone();
  }

  private signal(run: Run, signal: NodeJS.Signals): void {
    const pid = run.child.pid;
    if (pid === undefined) return;
    try {
      if (usesProcessGroups) process.kill(-pid, signal);
      else run.child.kill(signal);
    } catch {
      // ESRCH: the group is already gone, which is what we wanted.
    }
  }

  /**
   * SIGKILL to every member of the group but the supervisor, which then reaps the server,
   * reports how it ended and exits (a SIGKILL to the whole group would leave the server a
   * zombie for init to collect). Without /proc, the whole group.
   */
  private killAllButSupervisor(run: Run): void {
    const leader = run.child.pid;
    const members = leader === undefined || !usesProcessGroups ? null : groupMembers(leader);
    if (members === null) return this.signal(run, 'SIGKILL');
    for (const pid of members) {
      if (pid === leader) continue;
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
  }

  /** SIGTERM to the group, SIGKILL after the grace period; resolves when no live member is left. */
  private stopGroup(run: Run): Promise<void> {
    if (run.groupStop !== null) return run.groupStop;
    const pid = run.child.pid;
    if (pid === undefined) return Promise.resolve();
    const alive = (): boolean => (usesProcessGroups ? processGroupAlive(pid) : run.exit === null && processAlive(pid));
    run.groupStop = new Promise<void>((resolve) => {
      this.signal(run, 'SIGTERM');
      const termAt = Date.now();
      let killAt: number | null = null;
      let leaderKilled = false;
      const check = (): void => {
        if (!alive()) return resolve();
        const now = Date.now();
        if (killAt === null && now - termAt >= this.graceMs) {
          killAt = now;
          run.killedHard = true;
          this.killAllButSupervisor(run);
        } else if (killAt !== null && now - killAt >= SUPERVISOR_EXIT_WAIT_MS && !leaderKilled) {
          leaderKilled = true;
          this.signal(run, 'SIGKILL');
        } else if (killAt !== null && now - killAt >= AFTER_KILL_WAIT_MS) {
          return resolve();
        }
        setTimeout(check, GROUP_POLL_MS);
      };
      setTimeout(check, GROUP_POLL_MS);
    });
    return run.groupStop;
  }

  async stop(): Promise<void> {
    const run = this.run;
    if (run === null || run.finished) return;
    // Still starting: wait until the server runs (or could not start) before signalling.
    await run.started;
    if (run.finished) return;
    // Exited on its own and only its leftovers are being cleaned up: not a stop by us.
    if (run.exit === null && run.serverExit === null) run.stopRequested = true;
    await this.stopGroup(run);
    await run.done;
  }

  /** Stops the command (if running) and starts it again with the same listener. */
  async restart(): Promise<void> {
    const listener = this.listener;
    if (listener === null) throw new Error('restart() before start(): there is no listener to restart with');
    await this.stop();
    this.start(listener);
  }
}
