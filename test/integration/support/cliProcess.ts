// Runs the built CLI (`node dist/cli.js …`, bundled once per test process) as a real child
// process from the repository root, as a user's shell runs it: its exit status and output.
import assert from 'node:assert/strict';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
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
