// Launch capture source: runs a serving command from an argument vector (never through a
// shell, so `;`, `|`, `$(...)` in an argument stay literal), hands its stdout and stderr
// to the session as raw bytes, and stops it with SIGTERM then SIGKILL after a grace period.
//
// On POSIX the child leads its own process group (spawned detached), so stopping it also
// stops the workers a vLLM server forks for its stages; nothing of the group is left behind.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import type { CaptureListener, CaptureSource, ExitInfo } from './source';
import { processAlive, processGroupAlive } from './procStat';

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
/**
 * After the leader exits, a process outside its group (one that called setsid) may still
 * hold our pipes open. Give up on them once the pipes have been quiet this long, or at the
 * latest after PIPE_CLOSE_MAX_MS, so the run can end.
 */
const PIPE_QUIET_MS = 1000;
const PIPE_CLOSE_MAX_MS = 10_000;

const usesProcessGroups = process.platform !== 'win32';

/** Shell-style quoting for display only; the command itself never goes through a shell. */
export function describeArgv(argv: readonly string[]): string {
  return argv.map((a) => (a !== '' && /^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}

function launchEnv(env: Readonly<Record<string, string>> | undefined): NodeJS.ProcessEnv {
  // Python buffers stdout when it is a pipe; without this, stats lines would arrive in
  // 4 KB bursts, or be lost entirely when the server crashes.
  const merged: NodeJS.ProcessEnv = { ...process.env, ...env };
  if (env?.PYTHONUNBUFFERED === undefined) merged.PYTHONUNBUFFERED = '1';
  return merged;
}

function spawnFailureMessage(program: string, cwd: string, err: NodeJS.ErrnoException): string {
  if (!fs.existsSync(cwd)) return `cannot start "${program}": the working directory ${cwd} does not exist`;
  switch (err.code) {
    case 'ENOENT':
      return `cannot start "${program}" in ${cwd}: program not found (check the path, or that it is on PATH)`;
    case 'EACCES':
      return `cannot start "${program}" in ${cwd}: permission denied (is it executable?)`;
    default:
      return `cannot start "${program}" in ${cwd}: ${err.message}`;
  }
}

/** One run of the command: the child and what happened to it. A restart makes a new one. */
interface Run {
  readonly child: ChildProcess;
  readonly listener: CaptureListener;
  spawned: boolean;
  stopRequested: boolean;
  killedHard: boolean;
  exit: ExitInfo | null;
  finished: boolean;
  /** Resolves when the run is over: exit seen, pipes closed, group gone. */
  readonly done: Promise<void>;
  resolveDone(): void;
  groupStop: Promise<void> | null;
  pipeTimer: NodeJS.Timeout | null;
  lastDataAt: number;
  readonly onHostExit: () => void;
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

  /** Process id of the running command, or null. */
  get pid(): number | null {
    const run = this.run;
    return run !== null && !run.finished && run.spawned ? (run.child.pid ?? null) : null;
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
    listener.onStatus('starting', `starting ${this.description}`);
    const program = this.argv[0];
    if (program === undefined || program === '') {
      listener.onStatus('error', 'cannot start: the command is empty');
      return;
    }
    let child: ChildProcess;
    try {
      child = spawn(program, this.argv.slice(1), {
        cwd: this.cwd,
        env: launchEnv(this.env),
        shell: false,
        detached: usesProcessGroups,
        stdio: ['ignore', 'pipe', 'pipe'],
        windowsHide: true,
      });
    } catch (err) {
      // Synchronous failures: invalid arguments such as a NUL byte in argv.
      listener.onStatus('error', spawnFailureMessage(program, this.cwd, err as NodeJS.ErrnoException));
      return;
    }
    this.run = this.watch(child, listener, program);
  }

  private watch(child: ChildProcess, listener: CaptureListener, program: string): Run {
    let resolveDone = (): void => undefined;
    const done = new Promise<void>((resolve) => (resolveDone = resolve));
    const run: Run = {
      child,
      listener,
      spawned: false,
      stopRequested: false,
      killedHard: false,
      exit: null,
      finished: false,
      done,
      resolveDone,
      groupStop: null,
      pipeTimer: null,
      lastDataAt: Date.now(),
      // If the host itself exits, ask the server to shut down rather than orphan it (a
      // detached group does not get our terminal's signals).
      onHostExit: () => this.signal(run, 'SIGTERM'),
    };
    child.stdout?.on('data', (chunk: Buffer) => {
      run.lastDataAt = Date.now();
      listener.onData(chunk, 'stdout');
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      run.lastDataAt = Date.now();
      listener.onData(chunk, 'stderr');
    });
    child.once('spawn', () => {
      run.spawned = true;
      process.once('exit', run.onHostExit);
      listener.onStatus('running', `running (pid ${child.pid ?? '?'})`);
    });
    child.on('error', (err: NodeJS.ErrnoException) => {
      if (run.spawned || run.finished) return;
      this.finish(run, 'error', spawnFailureMessage(program, this.cwd, err));
    });
    child.once('exit', (code, signal) => {
      run.exit = { code, signal };
      // The leader is gone; its workers may not be. Stop whatever is left of the group so
      // a crashed server does not leave stage workers holding GPUs and our pipes.
      if (!run.stopRequested && child.pid !== undefined && usesProcessGroups && processGroupAlive(child.pid)) {
        listener.onNotice('the process exited but left child processes running; stopping them');
        void this.stopGroup(run);
      }
      this.watchPipesAfterExit(run);
    });
    // 'close' comes after 'exit' once both pipes are drained: every byte has been delivered.
    child.once('close', () => {
      if (run.finished) return;
      void Promise.resolve(run.groupStop).then(() => this.finishExited(run));
    });
    return run;
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
        run.listener.onNotice('the process exited, but a process outside its group still holds its output open; no longer reading it');
        run.child.stdout?.destroy();
        run.child.stderr?.destroy();
        return;
      }
      run.pipeTimer = setTimeout(check, PIPE_QUIET_MS / 2);
    };
    run.pipeTimer = setTimeout(check, PIPE_QUIET_MS / 2);
  }

  private finishExited(run: Run): void {
    const exit = run.exit ?? { code: null, signal: null };
    const code = exit.code;
    if (run.stopRequested) {
      const how = run.killedHard ? `killed with SIGKILL after ${this.graceMs} ms grace` : 'stopped';
      this.finish(run, 'exited', `${how} by Stage Lens${code !== null && code !== 0 ? ` (exit code ${code})` : ''}`, exit);
    } else if (exit.signal !== null) {
      this.finish(run, 'crashed', `killed by signal ${exit.signal}`, exit);
    } else if (code === 0) {
      this.finish(run, 'exited', 'exited with code 0', exit);
    } else {
      this.finish(run, 'crashed', `exited with code ${code ?? '?'}`, exit);
    }
  }

  private finish(run: Run, status: 'exited' | 'crashed' | 'error', detail: string, exit?: ExitInfo): void {
    if (run.finished) return;
    run.finished = true;
    if (run.pipeTimer !== null) clearTimeout(run.pipeTimer);
    process.removeListener('exit', run.onHostExit);
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
      const check = (): void => {
        if (!alive()) return resolve();
        const now = Date.now();
        if (killAt === null && now - termAt >= this.graceMs) {
          killAt = now;
          run.killedHard = true;
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
    if (!run.spawned) {
      // Still spawning: wait for 'spawn' or 'error' before signalling a pid that may not exist yet.
      await new Promise<void>((resolve) => {
        run.child.once('spawn', resolve);
        void run.done.then(resolve);
      });
      if (run.finished) return;
    }
    // Exited on its own and only its leftovers are being cleaned up: not a stop by us.
    if (run.exit === null) run.stopRequested = true;
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
