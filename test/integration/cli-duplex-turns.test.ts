// Native duplex turns of a build whose turn aggregator has no timing identity: each turn prints
// its identity on an [OmniTiming] line of its own (req= response= turn= reason=, no time), then
// its records keyed by the response id. Through the built CLI: one request per turn, named by
// that identity, with its tables; no request of its own for the identity line, and no claim
// that the server ran at INFO.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildBundles } from './support/buildBundles';

const ROOT = path.resolve(__dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const DUPLEX = path.join(ROOT, 'test', 'fixtures', 'logs', 'duplex-turn-identity-line.log');
const TURN_1 = 'duplex-s.6f2a9c1e.i.0.e.0.r.0 (response=resp-5b0e7c21 turn=1 reason=stop)';
const TURN_2 = 'duplex-s.6f2a9c1e.i.0.e.0.r.0 (response=resp-9a4d13f6 turn=2 reason=barge_in)';

before(() => buildBundles('cli'));

function cli(args: string[], input?: string) {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', input, timeout: 60_000, cwd: ROOT });
}

type Cells = Record<string, number | string | null>;

interface Json {
  problems: unknown[];
  findings: { code: string }[];
  requests: {
    requestId: string;
    stageTable: boolean;
    e2e: Cells;
    omniTiming: { totalS: number | null; stages: Record<string, number> } | null;
    overallSummary: { fields: Cells } | null;
    stages: Record<string, { split: Cells; splitState: Record<string, string>; fields: Cells }>;
  }[];
}

test('DEBUG: one request per turn, named by its identity line, with its tables', () => {
  const out = cli(['analyze', DUPLEX, '--format', 'json']);
  assert.equal(out.status, 0, out.stderr);
  const j = JSON.parse(out.stdout) as Json;
  assert.deepEqual(j.problems, []);
  assert.deepEqual(
    j.requests.map((r) => [r.requestId, r.stageTable]),
    [
      [TURN_1, true],
      [TURN_2, true],
    ],
  );
  const [first, second] = j.requests;
  assert.deepEqual(first?.e2e, { e2e_total_ms: 2648.912, e2e_total_tokens: 652 });
  assert.deepEqual(second?.e2e, { e2e_total_ms: 1204.388, e2e_total_tokens: 975 });
  assert.equal(first?.omniTiming?.totalS, 2.65);
  assert.equal(first?.overallSummary?.fields['e2e_wall_time_ms'], 2648.912);
  // The codec finished its turn: its split; the session's stage 0 printed None.
  assert.deepEqual(
    [first?.stages['1']?.split.queuedMs, first?.stages['1']?.split.prefillMs, first?.stages['1']?.split.decodeMs],
    [0.118, 14.02, 1702.431],
  );
  assert.deepEqual(
    [second?.stages['1']?.split.queuedMs, second?.stages['1']?.split.prefillMs, second?.stages['1']?.split.decodeMs],
    [0.097, 13.61, 301.772],
  );
  assert.equal(first?.stages['0']?.splitState['queuedMs'], 'notMeasured');
  assert.equal(first?.stages['0']?.split.ttftMs, 48.117);
  assert.ok(!j.findings.some((f) => f.code === 'stage-tables-missing'), JSON.stringify(j.findings));
});

test('INFO: the identity line and the plain [OmniTiming] line are one request per turn', () => {
  const info = fs
    .readFileSync(DUPLEX, 'utf8')
    .split('\n')
    .filter((l) => l.includes(' INFO '))
    .join('\n');
  const out = cli(['analyze', '-', '--format', 'json'], `${info}\n`);
  assert.equal(out.status, 0, out.stderr);
  const j = JSON.parse(out.stdout) as Json;
  assert.deepEqual(
    j.requests.map((r) => [r.requestId, r.stageTable, r.omniTiming?.totalS]),
    [
      [TURN_1, false, 2.65],
      [TURN_2, false, 1.2],
    ],
  );
  assert.deepEqual(j.requests[1]?.omniTiming?.stages, { '0': 0.84, '1': 0.96 });
  // No tables at INFO: that finding is right here.
  assert.ok(j.findings.some((f) => f.code === 'stage-tables-missing'));
});
