// Which session a deploy config shows when several are tied to it (server/core/deployConfigSession.ts):
// the inlay numbers and the code lens "Latency Details for stage N" both choose with it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sessionForDeployConfig, type ConfigSessionCandidate } from '../../server/core/deployConfigSession';

const YAML = '/w/qwen3_tts.yaml';
const isYaml = (file: string): boolean => file === YAML;
const session = (
  id: string,
  status: string,
  startedAt: number,
  deployConfig: string | null = YAML,
): ConfigSessionCandidate => ({
  id,
  status,
  startedAt,
  deployConfig,
});

test('a live session first, whatever its age; else the one started or imported last', () => {
  const oldImport = session('import-a', 'exited', 1_000);
  const newImport = session('import-b', 'exited', 3_000);
  const liveTail = session('tail-c', 'running', 2_000);
  const starting = session('launch-d', 'starting', 500);
  const otherConfig = session('launch-e', 'running', 9_000, '/w/other.yaml');
  const unmatched = session('import-f', 'exited', 9_000, null);
  // Whatever order the list comes in.
  assert.equal(sessionForDeployConfig([oldImport, newImport], isYaml)?.id, 'import-b');
  assert.equal(sessionForDeployConfig([newImport, oldImport], isYaml)?.id, 'import-b');
  assert.equal(sessionForDeployConfig([newImport, liveTail, oldImport, otherConfig, unmatched], isYaml)?.id, 'tail-c');
  // Two live: the later one.
  assert.equal(sessionForDeployConfig([liveTail, starting, newImport], isYaml)?.id, 'tail-c');
  assert.equal(sessionForDeployConfig([starting, newImport], isYaml)?.id, 'launch-d');
  // A stopped, crashed or failed session is not live.
  for (const status of ['stopped', 'crashed', 'error'])
    assert.equal(sessionForDeployConfig([{ ...liveTail, status }, oldImport, newImport], isYaml)?.id, 'import-b');
  assert.equal(sessionForDeployConfig([otherConfig, unmatched], isYaml), undefined);
});

test('sessions started in the same millisecond: the same one whatever the order', () => {
  const a = session('import-lx2-aa', 'exited', 5_000);
  const b = session('import-lx2-bb', 'exited', 5_000);
  assert.equal(sessionForDeployConfig([a, b], isYaml)?.id, 'import-lx2-bb');
  assert.equal(sessionForDeployConfig([b, a], isYaml)?.id, 'import-lx2-bb');
});
