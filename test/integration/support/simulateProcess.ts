// Runs `stage-lens simulate` as a real child process for the integration tests:
// collects its stdout, finds the port it printed, scrapes its real HTTP endpoint on
// 127.0.0.1, and makes sure every process it started is gone at the end.
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { buildBundles } from './buildBundles';

const ROOT = path.resolve(__dirname, '../../..');
/** The simulator as it ships: `node dist/cli.js simulate` (built once per test process). */
export const SIMULATE = [path.join(ROOT, 'dist', 'cli.js'), 'simulate'] as const;
// Built when a test file loads this module, before any test's clock starts.
buildBundles('cli');
const live = new Set<ChildProcess>();

export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export class SimProcess {
  stdout = '';
  stderr = '';
  readonly exited: Promise<Exit>;
  private readonly child: ChildProcess;
  private waiters: (() => void)[] = [];

  /** `env`: the simulator's whole environment (default: ours, without VLLM_LOGGING_LEVEL, so it runs at INFO unless told). */
  constructor(args: readonly string[], env?: NodeJS.ProcessEnv) {
    const base = { ...process.env };
    delete base['VLLM_LOGGING_LEVEL'];
    this.child = spawn(process.execPath, [...SIMULATE, ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: env ?? base,
    });
    live.add(this.child);
    this.child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      this.stdout += d;
      for (const w of this.waiters) w();
    });
    this.child.stderr!.setEncoding('utf8').on('data', (d: string) => {
      this.stderr += d;
    });
    // 'close', not 'exit': the last output may still be in the pipe when the process exits.
    this.exited = new Promise((resolve) => {
      this.child.on('close', (code, signal) => {
        live.delete(this.child);
        for (const w of this.waiters) w();
        resolve({ code, signal });
      });
    });
  }

  get exitCode(): number | null {
    return this.child.exitCode;
  }

  /** Resolves once the stdout so far satisfies `ready`; rejects on timeout or exit. */
  async waitFor(ready: (out: string) => boolean, timeoutMs = 10_000): Promise<void> {
    if (ready(this.stdout)) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => finish(new Error(`timed out; stdout tail:\n${this.stdout.slice(-2000)}\nstderr:\n${this.stderr}`)),
        timeoutMs,
      );
      const check = (): void => {
        if (ready(this.stdout)) finish();
        else if (this.child.exitCode !== null || this.child.signalCode !== null)
          finish(new Error(`exited early: ${this.stderr}`));
      };
      const finish = (e?: Error): void => {
        clearTimeout(timer);
        this.waiters = this.waiters.filter((w) => w !== check);
        if (e === undefined) resolve();
        else reject(e);
      };
      this.waiters.push(check);
    });
  }

  async port(): Promise<number> {
    const re = /Starting vLLM API server on http:\/\/127\.0\.0\.1:(\d+)/;
    await this.waitFor((o) => re.test(o));
    return Number(re.exec(this.stdout)![1]);
  }

  signal(sig: NodeJS.Signals): void {
    this.child.kill(sig);
  }
}

/** Runs to completion (e.g. with --requests) and returns the exit and the output. */
export async function runToEnd(
  args: readonly string[],
  timeoutMs = 15_000,
  env?: NodeJS.ProcessEnv,
): Promise<{ exit: Exit; stdout: string; stderr: string }> {
  const p = new SimProcess(args, env);
  const timer = setTimeout(() => p.signal('SIGKILL'), timeoutMs);
  const exit = await p.exited;
  clearTimeout(timer);
  return { exit, stdout: p.stdout, stderr: p.stderr };
}

export function httpGet(port: number, urlPath: string): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: urlPath, timeout: 5_000 }, (res) => {
      let body = '';
      res
        .setEncoding('utf8')
        .on('data', (d: string) => (body += d))
        .on('end', () =>
          resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), body }),
        );
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
  });
}

/** Kills whatever a failed test left running. */
export async function killAll(): Promise<void> {
  const pending = [...live].map(
    (c) =>
      new Promise<void>((resolve) => {
        c.once('exit', () => resolve());
        c.kill('SIGKILL');
      }),
  );
  await Promise.all(pending);
}

/** Value of one Prometheus sample line, by exact series text (`name{labels}`). */
export function sample(prom: string, series: string): number | undefined {
  for (const line of prom.split('\n')) {
    if (line.startsWith(series + ' ')) return Number(line.slice(series.length + 1));
  }
  return undefined;
}
