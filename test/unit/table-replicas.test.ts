// A stage that ran on several replicas gets each replica's rows under its own in the terminal
// table: a slow replica hides in the stage's percentiles. The same rows whether the analysis
// keeps its requests (a session) or summarizes replicas as they come (the one-shot CLI).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { LogStreamParser } from '../../server/core/log';
import { StreamAnalysis } from '../../server/core/analysis/streamAnalysis';
import { tableReport } from '../../server/core/report/tableReport';
import { analysedLog } from './support/analysedLog';

const LOGS = path.join(__dirname, '..', 'fixtures', 'logs');
const TWO_REPLICAS = path.join(LOGS, 'codec-two-replicas.log');

/** The table's stage rows: from the header to the first blank line. */
function stageRows(lines: readonly string[]): string[] {
  const start = lines.findIndex((l) => l.startsWith('stage '));
  return lines.slice(start, lines.indexOf('', start)).map((l) => l.trimEnd());
}

test("each replica's p50/p90/p99 rows under its stage, in replica order, with its own count", () => {
  const rows = stageRows(tableReport(analysedLog(TWO_REPLICAS), { source: 'x' }));
  assert.equal(rows.length, 2 + 3 * 4);
  assert.match(
    rows[5] ?? '',
    /^1 {12}8 {2}p50 {3}77\.32 {9}75\.99 {9}0\.000 {10}4\.199 {7}508\.3 {2}82\.74 {5}614\.9 {7}92\.24 {7}-497\.6$/,
  );
  assert.match(
    rows[8] ?? '',
    /^ {2}replica 0 {2}4 {2}p50 {3}77\.32 {9}73\.63 {9}3\.690 {10}4\.587 {7}508\.3 {2}82\.74 {5}592\.0 {7}92\.24 {7}-497\.6$/,
  );
  assert.match(rows[10] ?? '', /^ {16}p99 {3}99\.17 /);
  assert.match(rows[11] ?? '', /^ {2}replica 1 {2}4 {2}p50 {3}77\.63 {9}77\.63 {9}0\.000 {10}3\.971 {7}789\.0 /);
  // Stage 0 ran on one replica: no replica rows under it.
  assert.match(rows[2] ?? '', /^0 /);
  assert.match(rows[5] ?? '', /^1 /);
});

test('the few-values note names each replica with its count', () => {
  const lines = tableReport(analysedLog(TWO_REPLICAS), { source: 'x' });
  assert.ok(lines.includes('  stage 1 replica 0 (n = 4): p90 and p99'), lines.join('\n'));
  assert.ok(lines.includes('  stage 1 replica 1 (n = 4): p90 and p99'));
});

test('the one-shot analysis (replicas summarized as they come) prints the same table', () => {
  const parser = new LogStreamParser();
  const analysis = new StreamAnalysis({ keepRequests: false });
  analysis.ingest(parser.push(readFileSync(TWO_REPLICAS)));
  analysis.ingest(parser.end());
  analysis.flush();
  assert.deepEqual(
    tableReport(analysis.snapshot(), { source: 'x' }),
    tableReport(analysedLog(TWO_REPLICAS), { source: 'x' }),
  );
});

test('a log whose stages ran on one replica each has no replica rows', () => {
  const lines = tableReport(analysedLog(path.join(LOGS, 'two-stage-sequential.log')), { source: 'x' });
  assert.equal(
    lines.some((l) => l.includes('replica')),
    false,
  );
});
