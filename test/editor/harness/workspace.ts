// A throwaway workspace folder for the editor tests, filled with the deploy YAML fixtures
// (test/fixtures/deploy/*.yaml) at its top level. Removed again at the end of the run.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { onCleanup, recordForCleanup, removeDirNow } from './cleanup';
import { fixturesDeployDir } from './config';

export interface TestWorkspace {
  readonly dir: string;
  readonly files: readonly string[];
  remove(): void;
}

/** `<tmp>/stage-lens-ws-XXXX/deploy`: a stable folder name, so window titles and screenshots do not change. */
export function createWorkspace(): TestWorkspace {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-ws-'));
  recordForCleanup('dir', parent);
  const remove = onCleanup(() => removeDirNow(parent));
  const dir = path.join(parent, 'deploy');
  fs.mkdirSync(dir);
  const files = fs.readdirSync(fixturesDeployDir).filter((f) => f.endsWith('.yaml')).sort();
  if (files.length === 0) throw new Error(`no *.yaml fixtures in ${fixturesDeployDir}`);
  for (const f of files) fs.copyFileSync(path.join(fixturesDeployDir, f), path.join(dir, f));
  return { dir, files, remove };
}
