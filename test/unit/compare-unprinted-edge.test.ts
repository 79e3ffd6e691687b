// A transfer edge one run printed and the other did not: the other run's requests ran both
// stages, so compare counts them as unknowns of the edge, with why (an INFO-level log printed
// no table; a DEBUG log leaves out an all-zero transfer), never as a run that "did not run".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LogRunReader } from '../../server/core/compare/logRunReader';
import { compareRuns } from '../../server/core/compare/compareRuns';
import { compareTable } from '../../server/core/compare/tableReport';
import { compareMarkdown } from '../../server/core/compare/markdownReport';
import type { ComparisonReport, RunData } from '../../server/core/compare/types';
import { stageGroups } from '../../webview/compare/model';

const OMNI_LOG = fs.readFileSync(
  path.join(__dirname, '../fixtures/upstream-rendered/qwen3-omni-three-stage-transfers.log'),
  'utf8',
);

function run(source: string, text: string): RunData {
  const reader = new LogRunReader(false);
  reader.push(Buffer.from(text));
  return { source, kind: 'log', samples: reader.end(), histograms: null, problemCount: 0 };
}

const metricOf = (report: ComparisonReport, scope: string, metric: string) =>
  report.metrics.find((m) => m.scope === scope && m.metric === metric);

test('an INFO-level run of the same pipeline: the tables edge metrics are "no stage table", the [OmniTiming] send compared', () => {
  // What the same server prints at INFO: every table is logged at DEBUG, [OmniTiming] at INFO.
  const info = OMNI_LOG.split('\n')
    .filter((l) => !l.includes(' DEBUG '))
    .join('\n');
  const report = compareRuns(run('debug.log', OMNI_LOG), run('info.log', info));
  const tx = metricOf(report, '0->1', 'edgeTx');
  assert.equal(tx?.status, 'baselineOnly');
  assert.equal(tx?.baseline.measured, 3);
  assert.equal(tx?.candidate.requests, 3);
  // Not "hidden" (the zero-or-unmeasured row): at INFO the table is never printed.
  assert.deepEqual(tx?.candidate.unknown, { noStageTable: 3 });
  const omniTimingSend = metricOf(report, '1->2', 'edgeOmniTimingTx');
  assert.equal(omniTimingSend?.status, 'compared');
  assert.equal(omniTimingSend?.candidate.p50, 17.79);
  assert.match(
    compareTable(report, []).join('\n'),
    /transfer 0 → 1 send \(tx\): measured in the baseline only \(candidate: none of 3 measured: 3 no stage table \(\[OmniTiming\] only, INFO level\)\)/,
  );
  const row = stageGroups(report, false)
    .flatMap((g) => g.rows)
    .find((r) => r.key === '0->1.edgeTx');
  assert.equal(row?.oneSided?.state, 'notMeasured');
});

test('a DEBUG run that printed nothing of an edge its requests ran: unknowns of the edge, not "did not run"', () => {
  // No TransferEdgeStats table (the server leaves out an all-zero one) and no [OmniTiming] transfers.
  const unprinted = OMNI_LOG.split('\n')
    .filter((l) => !l.includes('stats.py:1084]'))
    .map((l) => l.replace(/ transfers=\[[^\]]*\]/, ''))
    .join('\n');
  assert.ok(!unprinted.includes('TransferEdgeStats') && !unprinted.includes('transfers='));
  const report = compareRuns(run('with-edges.log', OMNI_LOG), run('without.log', unprinted));
  for (const scope of ['0->1', '1->2']) {
    const m = metricOf(report, scope, 'edgeInFlight');
    assert.equal(m?.status, 'baselineOnly', scope);
    assert.equal(m?.candidate.requests, 3, scope);
    assert.deepEqual(m?.candidate.unknown, { noTransferTable: 3 }, scope);
  }
  const text = compareTable(report, []).join('\n');
  assert.doesNotMatch(text, /did not run/);
  assert.match(
    text,
    /transfer 1 → 2 in flight: measured in the baseline only \(candidate: none of 3 measured: 3 ran both stages, no transfer printed \(left out when all 0\)\)/,
  );
  assert.match(compareMarkdown(report), /3 ran both stages, no transfer printed/);
  // Reversed: the baseline is the one without.
  const reversed = compareRuns(run('without.log', unprinted), run('with-edges.log', OMNI_LOG));
  assert.deepEqual(metricOf(reversed, '0->1', 'edgeTx')?.baseline.unknown, { noTransferTable: 3 });
});

test('[OmniTiming] lines only in a log with a DEBUG line: "no stage table ([OmniTiming] only)", in the panel as in the table', () => {
  // The INFO run's lines after the log's first line, at DEBUG: the server did not run at INFO.
  const lines = OMNI_LOG.split('\n');
  const withDebugLine = [lines[0] as string, ...lines.slice(1).filter((l) => !l.includes(' DEBUG '))].join('\n');
  assert.ok((lines[0] as string).includes(' DEBUG '));
  const report = compareRuns(run('debug.log', OMNI_LOG), run('info-debug-lines.log', withDebugLine));
  assert.deepEqual(metricOf(report, '0->1', 'edgeTx')?.candidate.unknown, { noStageTable: 3 });
  assert.match(
    compareTable(report, []).join('\n'),
    /transfer 0 → 1 send \(tx\): measured in the baseline only \(candidate: none of 3 measured: 3 no stage table \(\[OmniTiming\] only\)\)\n/,
  );
  assert.match(compareMarkdown(report), /3 no stage table \(\\\[OmniTiming\\\] only\)\)/);
  const row = stageGroups(report, false)
    .flatMap((g) => g.rows)
    .find((r) => r.key === '0->1.edgeTx');
  assert.equal(
    row?.oneSided?.text,
    'measured in the baseline only; candidate: 0 of 3 measured (3 no stage table ([OmniTiming] only))',
  );
  assert.equal(row?.oneSided?.state, 'notMeasured');
});
