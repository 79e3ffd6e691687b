// A run summary's per-stage and per-edge totals are printed lists (`'stages': [{'stage_id': 0,
// ...}, ...]`, `'transfers': [{'from_stage': 0, 'to_stage': 1, ...}, ...]`), read as
// `stages.<position>.*` and `transfers.<position>.*`: the position is no stage id nor edge. Each
// entry is named by the stage_id or edge it printed (with the stages' roles), and by its list
// position where it printed none; a log of several runs keeps each run's summary with its line
// and time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { tableReport } from '../../server/core/report/tableReport';
import { analysisJsonRest } from '../../server/core/report/jsonReport';
import { runSummariesJson } from '../../server/core/analysis/runSummaries';
import { runSummaryView } from '../../webview/shared/runSummaryModel';
import { analysedLog } from './support/analysedLog';

const LOGS = path.join(__dirname, '../fixtures/logs');
/** omni.py's [Summary] whose list skips stage 1: stages.1 is stage_id 2. */
const SKIPPED_STAGE_LOG = path.join(LOGS, 'legacy-summary-none.log');
/** Two runs' [Summary] dicts: every stage listed, then a list without stage 1. */
const TWO_RUNS_LOG = path.join(LOGS, 'qwen3-omni-legacy-summaries-two-runs.log');
/** A summary dict whose stages entries print no stage_id. */
const NO_STAGE_ID_LOG = path.join(LOGS, 'summary-dict-no-stage-id.log');
/** A summary dict whose transfers list starts at edge 1 -> 2, then an entry with no ends, then one with from_stage only. */
const TRANSFER_EDGES_LOG = path.join(LOGS, 'summary-dict-transfers-edges.log');
/** The single-line summary dict of issue 533: three entries, each printing its stage_id. */
const ISSUE_533_LOG = path.join(__dirname, '../fixtures/real-logs/14-issue533-legacy-summary-dict.log');
const QWEN3_OMNI_ROLES = { '0': 'thinker', '1': 'talker', '2': 'code2wav' };

/** `field -> stage` of the table's rows under the latest summary's title. */
function stageColumn(lines: readonly string[]): Map<string, string> {
  const at = lines.findIndex((l) => l.startsWith('field ') && l.includes(' stage '));
  assert.ok(at >= 0, lines.join('\n'));
  const out = new Map<string, string>();
  for (let i = at + 2; i < lines.length && lines[i] !== '' && !lines[i]?.startsWith('stages.<n>:'); i++) {
    const cells = (lines[i] as string).split(/\s{2,}/);
    if (cells.length === 3) out.set(cells[0] as string, cells[1] as string);
  }
  return out;
}

test('an entry goes by the stage_id it printed: stages.1 of a list without stage 1 is stage 2', () => {
  const snap = analysedLog(SKIPPED_STAGE_LOG);
  assert.deepEqual(snap.runSummaries?.kept[0]?.stageEntries, [
    { key: 'stages.0', position: 0, stageId: 0 },
    { key: 'stages.1', position: 1, stageId: 2 },
  ]);
  const lines = tableReport(snap, { source: 'x.log', stageRoles: QWEN3_OMNI_ROLES });
  const stages = stageColumn(lines);
  assert.equal(stages.get('stages.0.total_time_ms'), 'stage 0 · thinker');
  assert.equal(stages.get('stages.1.total_time_ms'), 'stage 2 · code2wav');
  assert.equal(stages.get('stages.1.avg_tokens_per_s'), 'stage 2 · code2wav');
  // Values of no entry have no stage.
  assert.equal(stages.has('e2e_total_time_ms'), false);
  assert.ok(
    lines.includes(
      'stages.<n>: entry n (from 0) of the stages list as printed, which need not be stage n; stage: the stage_id the entry printed.',
    ),
  );
  // JSON: the entries beside the values, whose keys stay as printed.
  const json = JSON.parse(JSON.stringify(analysisJsonRest(snap, [], []))) as {
    runSummaries: { kept: { values: Record<string, unknown>; stageEntries: unknown }[] };
  };
  assert.equal(json.runSummaries.kept[0]?.values['stages.1.total_time_ms'], null);
  assert.deepEqual(json.runSummaries.kept[0]?.stageEntries, [
    { key: 'stages.0', position: 0, stageId: 0 },
    { key: 'stages.1', position: 1, stageId: 2 },
  ]);
});

test('a list of every stage in id order (issue 533): each entry is the stage of its position', () => {
  const snap = analysedLog(ISSUE_533_LOG);
  assert.deepEqual(
    snap.runSummaries?.kept[0]?.stageEntries.map((e) => [e.key, e.stageId]),
    [
      ['stages.0', 0],
      ['stages.1', 1],
      ['stages.2', 2],
    ],
  );
  const stages = stageColumn(tableReport(snap, { source: 'x.log' }));
  assert.equal(stages.get('stages.1.total_time_ms'), 'stage 1');
  // A transfers entry is named by the edge it printed.
  assert.equal(stages.get('transfers.0.total_bytes'), 'edge 0 → 1');
  assert.equal(stages.get('transfers.1.total_bytes'), 'edge 1 → 2');
  const withRoles = stageColumn(tableReport(snap, { source: 'x.log', stageRoles: QWEN3_OMNI_ROLES }));
  assert.equal(withRoles.get('transfers.1.samples'), 'edge 1 → 2 · talker → code2wav');
});

test('a transfers entry goes by the edge it printed, never by its list position', () => {
  const snap = analysedLog(TRANSFER_EDGES_LOG);
  assert.deepEqual(snap.runSummaries?.kept[0]?.transferEntries, [
    { key: 'transfers.0', position: 0, fromStage: 1, toStage: 2 },
    { key: 'transfers.1', position: 1, fromStage: null, toStage: null },
    { key: 'transfers.2', position: 2, fromStage: 0, toStage: null },
  ]);
  assert.deepEqual(snap.runSummaries?.kept[0]?.stageEntries, []);
  const lines = tableReport(snap, { source: 'x.log', stageRoles: QWEN3_OMNI_ROLES });
  const stages = stageColumn(lines);
  assert.equal(stages.get('transfers.0.total_bytes'), 'edge 1 → 2 · talker → code2wav');
  assert.equal(stages.get('transfers.1.total_bytes'), 'list position 1 (no edge printed)');
  // to_stage printed as None: that end is not known, and no role is guessed for the edge.
  assert.equal(stages.get('transfers.2.total_bytes'), 'edge 0 → ?');
  assert.equal(stages.has('e2e_total_time_ms'), false);
  assert.ok(
    lines.includes(
      'transfers.<n>: entry n (from 0) of the transfers list as printed; stage: the edge (from_stage → to_stage) the entry printed, or its list position where it printed none.',
    ),
  );
  assert.ok(!lines.some((l) => l.startsWith('stages.<n>:')));
  // JSON: the entries beside the values, whose keys stay as printed.
  const json = JSON.parse(JSON.stringify(analysisJsonRest(snap, [], []))) as {
    runSummaries: { kept: { values: Record<string, unknown>; transferEntries: unknown }[] };
  };
  assert.equal(json.runSummaries.kept[0]?.values['transfers.0.total_bytes'], 182586);
  assert.equal(json.runSummaries.kept[0]?.values['transfers.2.to_stage'], null);
  assert.deepEqual(json.runSummaries.kept[0]?.transferEntries, snap.runSummaries?.kept[0]?.transferEntries);
  const view = runSummaryView(runSummariesJson(snap.runSummaries!), QWEN3_OMNI_ROLES);
  assert.deepEqual(
    view?.rows.flatMap((r) => (r.stageHeading === null ? [] : [r.stageHeading])),
    [
      'transfers.0 is edge 1 → 2 · talker → code2wav',
      'transfers.1 is list position 1 (no edge printed)',
      'transfers.2 is edge 0 → ?',
    ],
  );
  assert.equal(
    view?.rows.find((r) => r.field === 'transfers.0.total_time_ms')?.title,
    'transfers.0.total_time_ms = 4.695653915405273 (edge 1 → 2 · talker → code2wav), as the server printed it at line 2',
  );
});

test('an entry that printed no stage_id is named by its list position, never as a stage', () => {
  const snap = analysedLog(NO_STAGE_ID_LOG);
  assert.deepEqual(snap.runSummaries?.kept[0]?.stageEntries, [
    { key: 'stages.0', position: 0, stageId: null },
    { key: 'stages.1', position: 1, stageId: null },
  ]);
  const lines = tableReport(snap, { source: 'x.log', stageRoles: QWEN3_OMNI_ROLES });
  const stages = stageColumn(lines);
  assert.equal(stages.get('stages.1.total_time_ms'), 'list position 1 (no stage_id printed)');
  assert.equal(stages.get('stages.0.tokens'), 'list position 0 (no stage_id printed)');
  assert.ok(lines.some((l) => l.endsWith(', or its list position where it printed none.')));
  const view = runSummaryView(runSummariesJson(snap.runSummaries!), QWEN3_OMNI_ROLES);
  assert.deepEqual(
    view?.rows.flatMap((r) => (r.stageHeading === null ? [] : [r.stageHeading])),
    ['stages.0 is list position 0 (no stage_id printed)', 'stages.1 is list position 1 (no stage_id printed)'],
  );
});

test('several runs: each summary kept with its line and time; the table shows the latest and lists the earlier', () => {
  const snap = analysedLog(TWO_RUNS_LOG);
  assert.equal(snap.runSummaries?.count, 2);
  assert.deepEqual(
    snap.runSummaries?.kept.map((s) => [s.line, s.printedAt, s.values['e2e_total_time_ms'], s.stageEntries.length]),
    [
      [2, '12-27 22:03:23', 3759.2203617095947, 3],
      [54, '12-27 22:07:41', 3759.2203617095947, 2],
    ],
  );
  const lines = tableReport(snap, { source: 'x.log', stageRoles: QWEN3_OMNI_ROLES });
  assert.ok(
    lines.some((l) => /^From omni\.py's \[Summary\] dict .* at line 54, as printed \(the latest of 2\)/.test(l)),
  );
  assert.equal(stageColumn(lines).get('stages.1.tokens'), 'stage 2 · code2wav');
  assert.ok(
    lines.includes(
      '1 earlier run summary in the log: line 2, 12-27 22:03:23. --format json has each kept one (runSummaries.kept).',
    ),
  );
});

test('the panels: the latest with a heading per stages entry, the earlier ones latest first with their own entries', () => {
  const view = runSummaryView(runSummariesJson(analysedLog(TWO_RUNS_LOG).runSummaries!), QWEN3_OMNI_ROLES);
  assert.equal(view?.which, 'The latest of 2 run summaries in the log; the earlier ones below, latest first.');
  assert.deepEqual(
    view?.rows.flatMap((r) => (r.stageHeading === null ? [] : [r.stageHeading])),
    ['stages.0 is stage 0 · thinker', 'stages.1 is stage 2 · code2wav'],
  );
  const row = view?.rows.find((r) => r.field === 'stages.1.total_time_ms');
  assert.equal(row?.value, 'not measured (None)');
  assert.equal(
    row?.title,
    'stages.1.total_time_ms = None (stage 2 · code2wav), as the server printed it at line 54, 12-27 22:07:41',
  );
  const [earlier, ...more] = view?.earlier ?? [];
  assert.deepEqual(more, []);
  assert.equal(earlier?.heading, "line 2, 12-27 22:03:23 · omni.py's [Summary] dict (vLLM-Omni before February 2026)");
  assert.deepEqual(
    earlier?.rows.flatMap((r) => (r.stageHeading === null ? [] : [r.stageHeading])),
    [
      'stages.0 is stage 0 · thinker',
      'stages.1 is stage 1 · talker',
      'stages.2 is stage 2 · code2wav',
      'transfers.0 is edge 0 → 1 · thinker → talker',
      'transfers.1 is edge 1 → 2 · talker → code2wav',
    ],
  );
  assert.equal(earlier?.rows.find((r) => r.field === 'stages.1.total_time_ms')?.value, '2,301.750 ms');
});
