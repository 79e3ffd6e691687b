// Builds the bundles a test runs the way `npm run build` does (scripts/build.mjs --only
// <name>): the CLI's per-command bundles and the version are included, so the tests run
// the layout that ships. Each bundle is built once per test process.
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const built = new Set<string>();

export function buildBundles(...names: readonly ('server' | 'cli')[]): void {
  for (const name of names) {
    if (built.has(name)) continue;
    const run = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build.mjs'), '--only', name], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    if (run.status !== 0) throw new Error(`building ${name} failed (exit ${run.status}): ${run.stderr}`);
    built.add(name);
  }
}
