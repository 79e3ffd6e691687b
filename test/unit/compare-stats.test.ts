// The statistics of `compare`: numpy-linear quantiles, the seeded bootstrap CI of a
// quantile difference (exact order-statistic draws checked against the naive bootstrap),
// Mann-Whitney U against scipy, and what is (and is not) called beyond noise.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  bootstrapDifferences,
  naiveResampledPercentile,
  quantileDifferenceCi,
  resampledPercentile,
} from '../../server/core/compare/bootstrap';
import { erfc, mannWhitney } from '../../server/core/compare/mannWhitney';
import { compareMetrics, DEFAULT_SIGNIFICANCE, percentChange } from '../../server/core/compare/metricCompare';
import { bootstrapRandom } from '../../server/core/compare/bootstrapRandom';
import type { MetricId, MetricSamples, RunSamples, ScopeSamples, UnknownCounts } from '../../server/core/compare/types';

const sorted = (values: readonly number[]): Float64Array => Float64Array.from(values).sort();

function samples(values: readonly number[], unknown: UnknownCounts = {}): MetricSamples {
  return { values: sorted(values), inferred: 0, unknown };
}

function run(scopes: Record<string, Partial<Record<MetricId, MetricSamples>>>, requestCount = 0): RunSamples {
  const list: ScopeSamples[] = Object.entries(scopes).map(([scope, metrics]) => ({
    scope,
    stageId: scope === 'request' ? null : Number(scope),
    requestCount: Math.max(
      0,
      ...Object.values(metrics).map(
        (m) => (m?.values.length ?? 0) + Object.values(m?.unknown ?? {}).reduce((a, b) => a + (b ?? 0), 0),
      ),
    ),
    metrics,
  }));
  return { requestCount, coldRequests: 0, coldExcluded: false, scopes: list, findings: [] };
}

/** Normal(mean, sd) values from a seeded stream. */
function normalSample(n: number, mean: number, sd: number, seed: number): number[] {
  const r = bootstrapRandom(seed);
  return Array.from({ length: n }, () => mean + sd * r.normal());
}

test('quantiles are numpy linear: [1,2,3,4,10] -> p50 3, p90 7.6, p99 9.76', () => {
  const [m] = compareMetrics(
    run({ '0': { prefill: samples([10, 1, 4, 2, 3]) } }),
    run({ '0': { prefill: samples([1, 2, 3, 4, 10]) } }),
  );
  assert.ok(m);
  assert.equal(m.baseline.p50, 3);
  assert.ok(Math.abs((m.baseline.p90 as number) - 7.6) < 1e-12);
  assert.ok(Math.abs((m.baseline.p99 as number) - 9.76) < 1e-12);
  // numpy: np.percentile([12.5,3.1,7.7,7.7,9.0,15.2,4.4,8.8,10.1,6.0], [50,90,99]) = [8.25, 12.77, 14.957]
  const [n] = compareMetrics(
    run({ '0': { decode: samples([12.5, 3.1, 7.7, 7.7, 9.0, 15.2, 4.4, 8.8, 10.1, 6.0]) } }),
    run({ '0': { decode: samples([14.0, 9.9, 7.7, 16.3, 11.2, 12.8, 18.4, 10.5, 13.3, 9.0, 15.0]) } }),
  );
  assert.ok(n);
  const q = Object.fromEntries(n.quantiles.map((x) => [x.quantile, x]));
  assert.ok(Math.abs((q['p50']?.baseline ?? 0) - 8.25) < 1e-9);
  assert.ok(Math.abs((q['p90']?.baseline ?? 0) - 12.77) < 1e-9);
  assert.ok(Math.abs((q['p99']?.baseline ?? 0) - 14.957) < 1e-9);
  assert.ok(Math.abs((q['p50']?.candidate ?? 0) - 12.8) < 1e-9);
  assert.ok(Math.abs((q['p90']?.candidate ?? 0) - 16.3) < 1e-9);
  assert.ok(Math.abs((q['p99']?.candidate ?? 0) - 18.19) < 1e-9);
  assert.ok(Math.abs((q['p50']?.diffMs ?? 0) - 4.55) < 1e-9);
  assert.ok(Math.abs((q['p50']?.diffPct ?? 0) - (100 * 4.55) / 8.25) < 1e-9);
});

test('percent change: relative to the baseline; 0 -> 0 is 0%; x -> y from 0 is undefined', () => {
  assert.equal(percentChange(200, 250), 25);
  assert.equal(percentChange(200, 150), -25);
  assert.equal(percentChange(0, 0), 0);
  assert.equal(percentChange(0, 5), null);
});

test('Mann-Whitney U matches scipy.stats.mannwhitneyu(method="asymptotic")', () => {
  // scipy: mannwhitneyu([3,4,5,6,7,8], [1,2,3,4,5]) -> U 25.5, p 0.066015431521231 (ties, continuity)
  const a = mannWhitney(sorted([1, 2, 3, 4, 5]), sorted([3, 4, 5, 6, 7, 8]));
  assert.ok(a);
  assert.equal(a.u, 25.5);
  assert.ok(Math.abs(a.pValue - 0.066015431521231) < 1e-6, String(a.pValue));
  // scipy: U 89.5, p 0.01648018185506732
  const b = mannWhitney(
    sorted([12.5, 3.1, 7.7, 7.7, 9.0, 15.2, 4.4, 8.8, 10.1, 6.0]),
    sorted([14.0, 9.9, 7.7, 16.3, 11.2, 12.8, 18.4, 10.5, 13.3, 9.0, 15.0]),
  );
  assert.ok(b);
  assert.equal(b.u, 89.5);
  assert.ok(Math.abs(b.pValue - 0.01648018185506732) < 1e-6, String(b.pValue));
  // All values equal: no evidence at all.
  assert.equal(mannWhitney(sorted([5, 5, 5]), sorted([5, 5]))?.pValue, 1);
  assert.equal(mannWhitney(sorted([]), sorted([1])), null);
});

test('erfc matches scipy.special.erfc to 1e-7', () => {
  assert.ok(Math.abs(erfc(0.5) - 0.4795001221869535) < 1e-7);
  assert.ok(Math.abs(erfc(2.0) - 0.004677734981047266) < 1e-7);
  assert.ok(Math.abs(erfc(-1.0) - 1.8427007929497148) < 1e-7);
});

test('the seeded bootstrap gives the same CI on every run, and a different seed a slightly different one', () => {
  const base = sorted(normalSample(500, 100, 10, 11));
  const cand = sorted(normalSample(500, 103, 10, 12));
  const opts = { confidence: 0.95, resamples: 2000 };
  const a = quantileDifferenceCi(base, cand, 50, opts, bootstrapRandom(42));
  const b = quantileDifferenceCi(base, cand, 50, opts, bootstrapRandom(42));
  assert.deepEqual(a, b);
  // The pinned values of this seed: a change in the draw (or in the seeding) shows here.
  assert.ok(Math.abs(a.low - 1.3837629267210383) < 1e-9, String(a.low));
  assert.ok(Math.abs(a.high - 4.832432217324526) < 1e-9, String(a.high));
  const c = quantileDifferenceCi(base, cand, 50, opts, bootstrapRandom(43));
  assert.notDeepEqual(a, c);
  // Same width to within a few percent: the seed moves the ends, not the answer.
  assert.ok(Math.abs(a.high - a.low - (c.high - c.low)) < 0.15 * (a.high - a.low));
  // The interval brackets the observed difference of medians.
  const observed = percentile(cand, 50) - percentile(base, 50);
  assert.ok(a.low < observed && observed < a.high, `${a.low} < ${observed} < ${a.high}`);
});

function percentile(s: Float64Array, p: number): number {
  const h = ((s.length - 1) * p) / 100;
  const lo = Math.floor(h);
  return s[lo] + (h - lo) * (s[Math.min(lo + 1, s.length - 1)] - s[lo]);
}

test('the O(1) order-statistic draw has the distribution of the naive resample-with-replacement bootstrap', () => {
  const x = sorted([3, 7, 7, 8, 12, 15, 15, 15, 21, 22, 30, 31, 33, 40, 41, 55, 60, 61, 90, 120]);
  for (const p of [50, 90, 99]) {
    const fast = new Float64Array(20000);
    const naive = new Float64Array(20000);
    const rf = bootstrapRandom(1);
    const rn = bootstrapRandom(2);
    for (let i = 0; i < fast.length; i++) {
      fast[i] = resampledPercentile(x, p, rf);
      naive[i] = naiveResampledPercentile(x, p, rn);
    }
    fast.sort();
    naive.sort();
    const mean = (a: Float64Array): number => a.reduce((s, v) => s + v, 0) / a.length;
    const spread = percentile(naive, 97.5) - percentile(naive, 2.5);
    assert.ok(Math.abs(mean(fast) - mean(naive)) < 0.03 * spread, `p${p} means ${mean(fast)} vs ${mean(naive)}`);
    for (const q of [2.5, 25, 50, 75, 97.5]) {
      assert.ok(
        Math.abs(percentile(fast, q) - percentile(naive, q)) <= 0.06 * spread + 1e-9,
        `p${p} q${q}: ${percentile(fast, q)} vs ${percentile(naive, q)}`,
      );
    }
  }
});

test('a shifted sample is beyond noise; the same distribution and the same values are not', () => {
  const base = normalSample(2000, 100, 10, 1);
  const shifted = base.map((v, i) => v + 5 + (i % 3) - 1); // +4..+6 ms
  const same = normalSample(2000, 100, 10, 2); // another draw of the same distribution
  const report = (cand: number[]) =>
    compareMetrics(run({ '1': { ttft: samples(base) } }), run({ '1': { ttft: samples(cand) } }))[0];

  const up = report(shifted);
  assert.ok(up);
  for (const q of up.quantiles.filter((x) => x.quantile !== 'p99')) {
    assert.equal(q.beyondNoise, true, `${q.quantile} ${JSON.stringify(q.ci)}`);
    assert.ok((q.ci?.low ?? 0) > 0);
    assert.ok(Math.abs(q.diffMs - 5) < 1.5, `${q.quantile} diff ${q.diffMs}`);
  }
  assert.equal(up.rankTest?.beyondNoise, true);
  assert.ok((up.rankTest?.pValue ?? 1) < 1e-10);

  const noise = report(same);
  assert.ok(noise);
  for (const q of noise.quantiles)
    assert.equal(q.beyondNoise, false, `${q.quantile} diff ${q.diffMs} CI ${JSON.stringify(q.ci)}`);
  assert.equal(noise.rankTest?.beyondNoise, false);

  const identical = report(base);
  assert.ok(identical);
  for (const q of identical.quantiles) {
    assert.equal(q.diffMs, 0);
    assert.equal(q.beyondNoise, false);
    assert.ok((q.ci?.low ?? 1) < 0 && (q.ci?.high ?? -1) > 0);
  }
  assert.equal(identical.rankTest?.pValue, 1);
});

test('a CI depends on its own metric only: adding another metric leaves it unchanged', () => {
  const b = normalSample(300, 50, 5, 3);
  const c = normalSample(300, 52, 5, 4);
  const alone = compareMetrics(run({ '0': { prefill: samples(b) } }), run({ '0': { prefill: samples(c) } }));
  const withMore = compareMetrics(
    run({ '0': { queued: samples(c), prefill: samples(b) } }),
    run({ '0': { queued: samples(b), prefill: samples(c) } }),
  );
  assert.deepEqual(
    withMore.find((m) => m.metric === 'prefill'),
    alone[0],
  );
});

test('the bootstrap distribution of a difference is sorted and centred on the observed difference', () => {
  const base = sorted(normalSample(1000, 10, 1, 5));
  const cand = sorted(normalSample(1000, 12, 1, 6));
  const d = bootstrapDifferences(base, cand, 90, 1000, bootstrapRandom(9));
  for (let i = 1; i < d.length; i++) assert.ok(d[i] >= d[i - 1]);
  const observed = percentile(cand, 90) - percentile(base, 90);
  assert.ok(Math.abs(percentile(d, 50) - observed) < 0.1, `${percentile(d, 50)} vs ${observed}`);
});

test('not measured is not zero: a metric measured in one run only is reported as such, with the reason', () => {
  const before = run({ '1': { ttft: samples([], { notRecorded: 60 }), prefill: samples([], { notMeasured: 60 }) } });
  const after = run({
    '1': { ttft: samples(normalSample(60, 40, 3, 7)), prefill: samples(normalSample(60, 20, 2, 8)) },
  });
  const rows = compareMetrics(before, after);
  const ttft = rows.find((m) => m.metric === 'ttft');
  assert.ok(ttft);
  assert.equal(ttft.status, 'candidateOnly');
  assert.deepEqual(ttft.quantiles, []);
  assert.equal(ttft.rankTest, null);
  assert.equal(ttft.baseline.measured, 0);
  assert.equal(ttft.baseline.p50, null);
  assert.deepEqual(ttft.baseline.unknown, { notRecorded: 60 });
  assert.equal(ttft.candidate.measured, 60);
  assert.equal(rows.find((m) => m.metric === 'prefill')?.status, 'candidateOnly');
  // A reversed pair is baselineOnly; nothing measured anywhere is neither.
  assert.equal(compareMetrics(after, before).find((m) => m.metric === 'ttft')?.status, 'baselineOnly');
  assert.equal(compareMetrics(before, before).find((m) => m.metric === 'ttft')?.status, 'neither');
});

test('fewer than the minimum values: quantiles compared, significance not testable (said, not guessed)', () => {
  const [m] = compareMetrics(
    run({ '0': { decode: samples([1, 2, 3]) } }),
    run({ '0': { decode: samples([10, 20, 30]) } }),
    DEFAULT_SIGNIFICANCE,
  );
  assert.ok(m);
  assert.equal(m.status, 'compared');
  assert.equal(m.quantiles[0]?.diffMs, 18);
  assert.equal(m.quantiles[0]?.ci, null);
  assert.equal(m.quantiles[0]?.beyondNoise, null);
  assert.match(m.quantiles[0]?.notTestable ?? '', /fewer than 10/);
  assert.equal(m.rankTest, null);
});
