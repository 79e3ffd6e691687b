// A tail whose scope has fewer values than its quantile needs (a p99 100, a p95 20, a p90 10:
// reportedPercentiles.ts, the rule analyze's tables use) says so: its threshold is the largest
// value, or an interpolation towards it, not a tail estimate.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { explainJsonText, explainReport } from '../../server/core/explain/explainReport';
import { explainTable } from '../../server/core/explain/explainTable';
import { fewValuesTailText } from '../../server/core/explain/fewValuesTail';
import { tailAttribution } from '../../server/core/explain/tailAttribution';
import { valuesAbovePercent } from '../../server/core/reportedPercentiles';
import { analyse, analyseSpecs, asyncChunk } from './support/explainLogs';

const INFO_LOG = join(__dirname, '..', 'fixtures', 'upstream-rendered', 'qwen3tts-info-level-omnitiming-only.log');

test('values a tail quantile needs: p90 10, p95 20, p99 100', () => {
  assert.deepEqual([90, 95, 99].map(valuesAbovePercent), [10, 20, 100]);
});

test('6 requests: the p99 and p95 tails carry the caveat, in the table and the JSON', () => {
  const { index } = analyse(readFileSync(INFO_LOG, 'utf8'));
  const report = explainReport(index, 'info.log', { targets: ['e2e'], quantiles: ['p95', 'p99'], scope: {} }, [], []);
  assert.deepEqual(
    report.tail.map((t) => [t.quantile, t.scopeCount, t.requestCount, t.fewValues]),
    [
      ['p95', 6, 1, { needed: 20 }],
      ['p99', 6, 1, { needed: 100 }],
    ],
  );
  const text = explainTable(report).join('\n');
  assert.match(text, /Why end-to-end time is slow at p99: 1 of 6 requests at or above 4\.35 s/);
  assert.match(
    text,
    /\n {2}\(few values: a p99 from 6 values \(fewer than 100\) is the largest value or an interpolation towards it, not a tail estimate: the tail is the slowest request\)\n/,
  );
  assert.match(text, /\(few values: a p95 from 6 values \(fewer than 20\)/);
  const json = JSON.parse(explainJsonText(report)) as { tail: { fewValues?: { needed: number } }[] };
  assert.deepEqual(
    json.tail.map((t) => t.fewValues),
    [{ needed: 20 }, { needed: 100 }],
  );
});

test('enough values: no caveat (20 requests at p95 and p90), one short of it: the caveat', () => {
  const specs = Array.from({ length: 20 }, (_, i) => asyncChunk(`r${String(i).padStart(2, '0')}`, i === 7 ? 500 : 0));
  const { index } = analyseSpecs(specs);
  for (const quantile of ['p90', 'p95'] as const) {
    const t = tailAttribution(index, { target: 'e2e', quantile, scope: {} })!;
    assert.equal(t.scopeCount, 20);
    assert.equal(t.fewValues, undefined, quantile);
    // The editor's Tail tab and side panel take their sentence from the same function: none here.
    assert.equal(fewValuesTailText(t), null, quantile);
  }
  const fewer = analyseSpecs(specs.slice(0, 19)).index;
  const short = tailAttribution(fewer, { target: 'e2e', quantile: 'p95', scope: {} })!;
  assert.deepEqual(short.fewValues, { needed: 20 });
  assert.equal(
    fewValuesTailText(short),
    'few values: a p95 from 19 values (fewer than 20) is the largest value or an interpolation towards it, not a tail estimate: the tail is the slowest request',
  );
  const report = explainReport(fewer, 'x.log', { targets: ['e2e'], quantiles: ['p90'], scope: {} }, [], []);
  assert.doesNotMatch(explainTable(report).join('\n'), /few values/);
});
