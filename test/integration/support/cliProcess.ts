// Runs the built CLI (`node dist/cli.js …`, bundled once per test process) as a real child
// process from the repository root, as a user's shell runs it: its exit status and output, or,
// for `analyze --follow`, what it prints once interrupted.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import * as path from 'node:path';
import { buildBundles } from './buildBundles';

const ROOT = path.resolve(__dirname, '..', '..', '..');
/** The CLI as it ships. */
export const CLI = path.join(ROOT, 'dist', 'cli.js');
// Built when a test file loads this module, before any test's clock starts.
buildBundles('cli');

export interface CliRun {
  /** What its stdin reads; nothing by default. */
  readonly input?: string | Buffer;
  /** When it is killed if still running: 120 s by default. */
  readonly timeoutMs?: number;
  /** The folder it runs in: the repository root by default. */
  readonly cwd?: string;
  /** Its environment: this process's by default. */
  readonly env?: NodeJS.ProcessEnv;
}

/** `stage-lens <args>`. */
export function runCli(
  args: readonly string[],
  { input, timeoutMs = 120_000, cwd = ROOT, env }: CliRun = {},
): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    timeout: timeoutMs,
    maxBuffer: 64 << 20,
    cwd,
    ...(input === undefined ? {} : { input }),
    ...(env === undefined ? {} : { env }),
  });
}

/** `stage-lens <args>`, which must exit 0: what it printed on stdout. */
export function cliStdout(args: readonly string[]): string {
  const r = runCli(args);
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

/** `stage-lens analyze --follow <log>`, running. */
export interface FollowingCli {
  /** Ctrl-C, which must end it with status 0: its final summary, the lines after that summary's heading. */
  interrupt(): Promise<string>;
}

/** Starts `stage-lens analyze --follow <log>`, killed after 60 s if still running. */
export function followLog(log: string, args: readonly string[] = []): FollowingCli {
  const child = spawn(process.execPath, [CLI, 'analyze', '--follow', log, ...args], { cwd: ROOT, timeout: 60_000 });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
  child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    async interrupt(): Promise<string> {
      child.kill('SIGINT');
      assert.equal(await exit, 0, stderr);
      const heading = stdout.indexOf('\nFinal summary');
      assert.notEqual(heading, -1, `no final summary: ${stdout}`);
      return stdout.slice(stdout.indexOf('\n', heading + 1) + 1);
    },
  };
}
