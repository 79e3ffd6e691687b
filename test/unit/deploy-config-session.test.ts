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
  kind = 'import',
  requestCount = 6,
): ConfigSessionCandidate => ({
  id,
  kind,
  status,
  requestCount,
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

test('a session without numbers claims nothing while another has some: /metrics only, or ended before any request', () => {
  // The user showed a /metrics session (still scraping), then launched twice from the file: the
  // first launch never started (the command was not found), the second read 3 requests and crashed.
  const metrics = session('scrape-a', 'running', 1_000, YAML, 'scrape', 0);
  const neverStarted = session('launch-b', 'error', 2_000, YAML, 'launch', 0);
  const crashed = session('launch-c', 'crashed', 3_000, YAML, 'launch', 3);
  assert.equal(sessionForDeployConfig([metrics, neverStarted, crashed], isYaml)?.id, 'launch-c');
  assert.equal(sessionForDeployConfig([crashed, neverStarted, metrics], isYaml)?.id, 'launch-c');
  // An older import with numbers over a newer launch that never started, and over a live Prometheus poller.
  const prometheus = session('prometheus-d', 'running', 4_000, YAML, 'prometheus', 0);
  assert.equal(
    sessionForDeployConfig([neverStarted, prometheus, session('import-e', 'exited', 500)], isYaml)?.id,
    'import-e',
  );
  // A launch still starting may yet read requests: the latest launch takes over at once.
  const starting = session('launch-f', 'starting', 5_000, YAML, 'launch', 0);
  assert.equal(sessionForDeployConfig([crashed, metrics, starting], isYaml)?.id, 'launch-f');
  // Only sessions without numbers tied to the file: still one (its hint says why), live first.
  assert.equal(sessionForDeployConfig([neverStarted, metrics], isYaml)?.id, 'scrape-a');
  assert.equal(sessionForDeployConfig([neverStarted], isYaml)?.id, 'launch-b');
});
