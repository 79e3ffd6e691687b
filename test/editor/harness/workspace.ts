// A throwaway workspace folder for the editor tests, filled with the deploy YAML fixtures
// (test/fixtures/deploy/*.yaml) at its top level. Removed again at the end of the run.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { onCleanup, removeDirNow } from './cleanup';
import { fixturesDeployDir } from './config';

export interface TestWorkspace {
  readonly dir: string;
  readonly files: readonly string[];
  remove(): void;
}

export function createWorkspace(): TestWorkspace {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-ws-'));
  const remove = onCleanup(() => removeDirNow(dir));
  const files = fs.readdirSync(fixturesDeployDir).filter((f) => f.endsWith('.yaml')).sort();
  if (files.length === 0) throw new Error(`no *.yaml fixtures in ${fixturesDeployDir}`);
  for (const f of files) fs.copyFileSync(path.join(fixturesDeployDir, f), path.join(dir, f));
  return { dir, files, remove };
}
