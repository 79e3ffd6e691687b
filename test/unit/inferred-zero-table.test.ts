// A 0 read from a hidden input-split row (its partner measured) is in the percentiles: the
// table marks a column of such values alone with ≈ and lists them apart from the values left
// out, never among them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { analysedLog } from './support/analysedLog';
import { tableReport } from '../../server/core/report/tableReport';

/** The phase table's p50/p90/p99 rows (after its header, column titles and rule). */
function stageRows(lines: readonly string[]): string[] {
  const start = lines.findIndex((l) => l.startsWith('Phase split per stage'));
  const rows: string[] = [];
  for (let i = start + 3; / p(50|90|99) /.test(lines[i] ?? ''); i++) rows.push(lines[i] as string);
  return rows;
}

const SAMPLE = path.join(__dirname, '..', '..', 'samples', 'qwen3-tts-first-audio-cold-start.log');

test('the codec ready queued of the sample is 25 inferred 0s: in the percentiles, marked ≈, not listed as left out', () => {
  const snapshot = analysedLog(SAMPLE);
  const codec = snapshot.stages[1];
  assert.equal(codec?.stageKey, '1');
  assert.deepEqual(
    { measured: codec.splitStates.readyQueuedMs.measured, inferred: codec.splitStates.readyQueuedMs.inferred },
    { measured: 0, inferred: 25 },
  );
  assert.equal(codec.split.readyQueuedMs?.p50, 0);
  assert.equal(codec.split.readyQueuedMs?.count, 25);

  const lines = tableReport(snapshot, { source: 'x' });
  const rows = stageRows(lines);
  assert.equal(rows.length, 6);
  // The codec's three rows have it once each (ready queued); the talker's none.
  for (const row of rows.slice(3)) assert.equal(row.match(/ ≈0\.000 /g)?.length, 1, row);
  for (const row of rows.slice(0, 3)) assert.doesNotMatch(row, /≈/);

  const leftOut = lines.indexOf('Values left out of the percentiles:');
  const inferred = lines.indexOf('Values in the percentiles that the log did not print:');
  assert.ok(leftOut > 0 && inferred > leftOut);
  const leftOutBlock = lines.slice(leftOut, inferred);
  assert.ok(!leftOutBlock.some((l) => l.includes('inferred')));
  assert.equal(
    lines[inferred + 1],
    '  stage 1 ready queued: 25 inferred 0 (hidden row, other half of the split measured) of 25',
  );
});

test('a stage whose split is measured carries no ≈ and no inferred list', () => {
  const file = path.join(__dirname, '..', 'fixtures', 'upstream-rendered', 'qwen3-omni-three-stage-transfers.log');
  const lines = tableReport(analysedLog(file), { source: 'x' });
  // Three stages and stage 1's two replicas, three percentile rows each.
  assert.equal(stageRows(lines).length, 15);
  assert.ok(!stageRows(lines).some((l) => l.includes('≈')));
  assert.ok(!lines.includes('Values in the percentiles that the log did not print:'));
});
