// The core of a view's own figures: the Engine lines a window keeps, and the CSV's note on
// older-format dicts with how many of their requests a view holds; expectations by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { metricNotReportingInEngineLines } from '../../server/core/explain/metricNotReporting';
import { legacyStatsNote } from '../../server/core/analysis/legacyStats';
import type { EngineSeries } from '../../server/core/analysis/engineSeries';

/** One engine's lines at `times` (NaN: no timestamp), 2 requests running on each, KV-cache usage `kv`. */
function engine(times: number[], kv: number[], boots: number[] = times.map(() => 1)): EngineSeries {
  return {
    engine: '000',
    server: null,
    stagePrefix: null,
    stage: null,
    replica: null,
    mapping: null,
    lines: times.length,
    times,
    boots,
    running: times.map(() => 2),
    waiting: times.map(() => 0),
    kvCacheUsagePerc: kv,
    prefixCacheHitRatePerc: times.map(() => 0),
  };
}

const evidence = (series: EngineSeries, scope: Parameters<typeof metricNotReportingInEngineLines>[1]): string[] =>
  metricNotReportingInEngineLines([series], scope).map((f) => f.evidence ?? '');

test("metric-not-reporting over Engine lines: a window judges its own lines; a line without a time is in no window; a view on capture time says it judged the log's", () => {
  // Lines at 10 s, 20 s and 30 s and one without a time: 5.0% at 10 s, 0.0% after.
  const series = engine([10_000, 20_000, 30_000, Number.NaN], [5, 0, 0, 0]);
  assert.deepEqual(evidence(series, {}), []);
  assert.deepEqual(evidence(series, { window: { fromMs: 15_000, toMs: Number.POSITIVE_INFINITY } }), [
    'Engine 000: 2 of 2 lines in the window with requests running read 0.0%',
  ]);
  assert.deepEqual(evidence(series, { window: { fromMs: 0, toMs: 25_000 } }), []);
  assert.deepEqual(evidence(series, { window: { fromMs: 40_000, toMs: 50_000 } }), []);
  const zeros = engine([10_000, 20_000, 30_000], [0, 0, 0], [1, 2, 2]);
  assert.deepEqual(evidence(zeros, { boot: 2, window: { fromMs: 25_000, toMs: 35_000 } }), [
    'Engine 000: 1 of 1 lines of boot 2 in the window with requests running read 0.0%',
  ]);
  assert.deepEqual(evidence(zeros, { logWide: true }), [
    'Engine 000: 3 of 3 lines of the log with requests running read 0.0%',
  ]);
});

test("the CSV's note on older-format dicts: the log's figures, and within a view how many of the requests read from them it holds", () => {
  const fix =
    '; a current vLLM-Omni (February 2026 or later) prints [StageRequestStats] tables with --log-stats at VLLM_LOGGING_LEVEL=DEBUG';
  const head = "the input has 7 stats dicts in vLLM-Omni's format before February 2026: ";
  const split = ', with no phase split (that format prints none: the split columns are empty)';
  assert.equal(legacyStatsNote(7, 5), `${head}5 requests read from them${split}${fix}`);
  assert.equal(
    legacyStatsNote(7, 5, 0, 0, 0, { words: 'the window', legacyRequests: 2, withTables: 0 }),
    `${head}5 requests read from them (2 of them in the window)${split}${fix}`,
  );
  assert.equal(
    legacyStatsNote(7, 1, 0, 0, 2, { words: 'boot 2', legacyRequests: 0, withTables: 2 }),
    `${head}1 request read from them (not in boot 2)${split}; 2 requests read from their tables and the request_level_metrics dict before them (all of them in boot 2), as one request each${fix}`,
  );
  // No request from the dicts: nothing of the view to say.
  assert.equal(
    legacyStatsNote(7, 0, 0, 0, 0, { words: 'the window', legacyRequests: 0, withTables: 0 }),
    `${head}no request_level_metrics dict, so no request${fix}`,
  );
});
