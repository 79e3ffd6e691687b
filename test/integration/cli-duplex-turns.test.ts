// Native duplex turns, each build's way of naming a turn, through the built CLI: one request per
// turn, named by the turn's identity, with its tables, and no claim that the server ran at INFO.
// - no timing identity: the identity on an [OmniTiming] line of its own (req= response= turn=
//   reason=, no time), then the turn's records keyed by the response id;
// - vllm-omni@153caa50: tables titled by the response id, the identity on the timed [OmniTiming]
//   line printed between the E2E and stage tables;
// - vllm-omni@226b43d9: the identity in every title and on the [OmniTiming] line, which then
//   leaves out total= and engine=.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCli as cli } from './support/cliProcess';

const ROOT = path.resolve(__dirname, '..', '..');
const LOGS = path.join(ROOT, 'test', 'fixtures', 'logs');
const DUPLEX = path.join(LOGS, 'duplex-turn-identity-line.log');
const TIMING_LINE = path.join(LOGS, 'duplex-turn-identity-timing-line.log');
const TITLES = path.join(LOGS, 'duplex-turn-identity-titles.log');
const TURN_1 = 'duplex-s.6f2a9c1e.i.0.e.0.r.0 (response=resp-5b0e7c21 turn=1 reason=stop)';
const TURN_2 = 'duplex-s.6f2a9c1e.i.0.e.0.r.0 (response=resp-9a4d13f6 turn=2 reason=barge_in)';

type Cells = Record<string, number | string | null>;

interface Json {
  problems: unknown[];
  findings: { code: string }[];
  requests: {
    requestId: string;
    stageTable: boolean;
    e2e: Cells;
    omniTiming: {
      totalS: number | null;
      engineS: number | null;
      stages: Record<string, number>;
      transfers: Record<string, number>;
    } | null;
    transfers: Record<string, { fields: Cells; omniTimingTxMs: number | null }>;
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
  const out = cli(['analyze', '-', '--format', 'json'], { input: `${info}\n` });
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

/** What each turn's request holds, in order: id, stage table, e2e, OmniTiming, stage times, transfer. */
function turns(j: Json) {
  return j.requests.map((r) => ({
    id: r.requestId,
    stageTable: r.stageTable,
    e2eMs: r.e2e['e2e_total_ms'],
    wallMs: r.overallSummary?.fields['e2e_wall_time_ms'],
    timing: [r.omniTiming?.totalS, r.omniTiming?.engineS, r.omniTiming?.stages],
    genMs: [r.stages['0']?.fields['stage_gen_time_ms'], r.stages['1']?.fields['stage_gen_time_ms']],
    ttftMs: [r.stages['0']?.split.ttftMs, r.stages['1']?.split.ttftMs],
    tx: [r.transfers['0->1']?.fields['tx_time_ms'], r.transfers['0->1']?.omniTimingTxMs],
  }));
}

test('vllm-omni@153caa50: the timed identity line joins the tables of its response id', () => {
  const out = cli(['analyze', TIMING_LINE, '--format', 'json']);
  assert.equal(out.status, 0, out.stderr);
  const j = JSON.parse(out.stdout) as Json;
  assert.deepEqual(j.problems, []);
  assert.deepEqual(turns(j), [
    {
      id: TURN_1,
      stageTable: true,
      e2eMs: 2648.912,
      wallMs: 2648.912,
      timing: [2.65, 2.65, { '0': 2.1, '1': 2.36 }],
      genMs: [2101.448, 2360.775],
      ttftMs: [48.117, 14.338],
      tx: [1.734, 1.73],
    },
    {
      id: TURN_2,
      stageTable: true,
      e2eMs: 1204.388,
      wallMs: 1204.388,
      timing: [1.2, 1.2, { '0': 0.84, '1': 0.96 }],
      genMs: [838.02, 961.113],
      ttftMs: [52.904, 13.872],
      tx: [0.912, 0.91],
    },
  ]);
  assert.ok(!j.findings.some((f) => f.code === 'stage-tables-missing'), JSON.stringify(j.findings));
});

test('vllm-omni@226b43d9: identity in every title, an [OmniTiming] line without total or engine', () => {
  const out = cli(['analyze', TITLES, '--format', 'json']);
  assert.equal(out.status, 0, out.stderr);
  const j = JSON.parse(out.stdout) as Json;
  assert.deepEqual(j.problems, []);
  assert.deepEqual(
    turns(j).map((t) => [t.id, t.stageTable, t.e2eMs, t.timing, t.genMs, t.tx]),
    [
      [TURN_1, true, 2648.912, [null, null, { '0': 2.1, '1': 2.36 }], [2101.448, 2360.775], [1.734, 1.73]],
      [TURN_2, true, 1204.388, [null, null, { '0': 0.84, '1': 0.96 }], [838.02, 961.113], [0.912, 0.91]],
    ],
  );
  assert.ok(!j.findings.some((f) => f.code === 'stage-tables-missing'), JSON.stringify(j.findings));
});
