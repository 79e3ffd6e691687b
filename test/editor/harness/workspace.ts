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
  const files = fs
    .readdirSync(fixturesDeployDir)
    .filter((f) => f.endsWith('.yaml'))
    .sort();
  if (files.length === 0) throw new Error(`no *.yaml fixtures in ${fixturesDeployDir}`);
  for (const f of files) fs.copyFileSync(path.join(fixturesDeployDir, f), path.join(dir, f));
  return { dir, files, remove };
}

/**
 * `<tmp>/stage-lens-ws-XXXX/plain`: YAML files people have open that are not vLLM-Omni deploy
 * configs (a compose file, a CI workflow, a Kubernetes manifest), for the `light window` suite.
 */
export function createPlainYamlWorkspace(): TestWorkspace {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-ws-'));
  recordForCleanup('dir', parent);
  const remove = onCleanup(() => removeDirNow(parent));
  const dir = path.join(parent, 'plain');
  const files: Record<string, string> = {
    'compose.yaml': 'services:\n  web:\n    image: nginx:1.27\n    ports: ["8080:80"]\n',
    'ci.yml': 'name: CI\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npm test\n',
    'k8s.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: vllm\nspec:\n  replicas: 2\n',
  };
  fs.mkdirSync(dir);
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return { dir, files: Object.keys(files).sort(), remove };
}
