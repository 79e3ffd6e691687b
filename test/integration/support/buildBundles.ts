// Builds the bundles a test runs the way `npm run build` does (scripts/build.mjs --only
// <name>): the CLI's per-command bundles and the version are included, so the tests run
// the layout that ships. Each bundle is built once per test process.
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const built = new Set<string>();
// A build takes a few seconds. It runs synchronously, so one that never ended would also stop
// this process's timers and with them every test timeout: it is cut off, and tried once more.
const BUILD_TIMEOUT_MS = 120_000;

function build(name: string): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build.mjs'), '--only', name], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: BUILD_TIMEOUT_MS,
    killSignal: 'SIGKILL',
  });
}

export function buildBundles(...names: readonly ('server' | 'cli')[]): void {
  for (const name of names) {
    if (built.has(name)) continue;
    let run = build(name);
    if (run.error !== undefined) {
      process.stderr.write(`building ${name}: ${run.error.message}; building again\n`);
      run = build(name);
    }
    if (run.error !== undefined) throw new Error(`building ${name} failed: ${run.error.message}`);
    if (run.status !== 0) throw new Error(`building ${name} failed (exit ${run.status}): ${run.stderr}`);
    built.add(name);
  }
}
