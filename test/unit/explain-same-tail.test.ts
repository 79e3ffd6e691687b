// Two quantiles whose tails are the same requests (few requests make every quantile's tail the
// slowest) are one attribution: explain's table prints its parts once and says so at the other.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { explainReport } from '../../server/core/explain/explainReport';
import { explainTable } from '../../server/core/explain/explainTable';
import { analyseSpecs, asyncChunk } from './support/explainLogs';

const partsHeader = /^ {2}part +excess +share +median$/;

test('6 requests: the p99 tail is the p95 one, its parts are printed once', () => {
  const specs = Array.from({ length: 6 }, (_, i) => asyncChunk(`r${i}`, i === 3 ? 500 : 0));
  const report = explainReport(
    analyseSpecs(specs).index,
    'six.log',
    { targets: ['e2e'], quantiles: ['p95', 'p99'], scope: {} },
    [],
    [],
  );
  assert.deepEqual(
    report.tail.map((t) => [t.quantile, t.requestCount]),
    [
      ['p95', 1],
      ['p99', 1],
    ],
  );
  const lines = explainTable(report);
  assert.equal(lines.filter((l) => partsHeader.test(l)).length, 1);
  const p99 = lines.findIndex((l) => l.startsWith('Why end-to-end time is slow at p99: 1 of 6 requests at or above'));
  assert.ok(p99 > 0);
  assert.equal(lines[p99 + 1], '  (the same requests as the p95 tail above, so the same parts)');
  assert.match(lines[p99 + 2] ?? '', /^ {2}\(few values: a p99 from 6 values \(fewer than 100\)/);
});

test('200 requests: the p90 and p99 tails differ, each prints its parts', () => {
  const specs = Array.from({ length: 200 }, (_, i) =>
    asyncChunk(`r${String(i).padStart(3, '0')}`, i % 7 === 0 ? i : 0),
  );
  const report = explainReport(
    analyseSpecs(specs).index,
    'many.log',
    { targets: ['e2e'], quantiles: ['p90', 'p99'], scope: {} },
    [],
    [],
  );
  const counts = report.tail.map((t) => t.requestCount);
  assert.equal(counts.length, 2);
  assert.ok(counts[0]! > counts[1]!, counts.join(' > '));
  const lines = explainTable(report);
  assert.equal(lines.filter((l) => partsHeader.test(l)).length, 2);
  assert.ok(!lines.some((l) => l.includes('the same requests as the')));
});
