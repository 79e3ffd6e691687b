// histogramQuantile against hand-computed values and against the expectations of
// Prometheus's own promql/testdata/histograms.test ("testhistogram" positive/negative).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { histogramQuantile } from '../../server/core/metricsText/histogramQuantile';
import type { HistogramBucket } from '../../server/core/metricsText/model';

function close(actual: number, expected: number, message?: string): void {
  assert.ok(
    Math.abs(actual - expected) <= 1e-12 * Math.max(1, Math.abs(expected)),
    `${message ?? ''} ${actual} != ${expected}`,
  );
}

function buckets(pairs: Array<[number, number]>): HistogramBucket[] {
  return pairs.map(([le, cumulative]) => ({ le, cumulative }));
}

// 10 observations: 2 in (0, 0.1], 4 in (0.1, 0.5], 2 in (0.5, 1], 2 above 1.
const TEN = buckets([
  [0.1, 2],
  [0.5, 6],
  [1, 8],
  [Infinity, 10],
]);

describe('histogramQuantile (PromQL bucketQuantile)', () => {
  it('interpolates linearly inside the bucket that holds the rank', () => {
    // q=0.5: rank 5 -> (0.1, 0.5] holds ranks 2..6; 0.1 + 0.4 * (5-2)/(6-2) = 0.4
    close(histogramQuantile(0.5, TEN), 0.4);
    // q=0.1: rank 1 -> first bucket, lower bound 0: 0.1 * 1/2 = 0.05
    close(histogramQuantile(0.1, TEN), 0.05);
    // q=0.8: rank 8 = cumulative of le=1 -> its upper bound exactly
    close(histogramQuantile(0.8, TEN), 1);
    // q=0: rank 0 -> first bucket, 0 + 0.1 * 0/2
    assert.equal(histogramQuantile(0, TEN), 0);
  });

  it('returns the highest finite bound when the rank falls into the +Inf bucket', () => {
    // q=0.9: rank 9 > 8 (le=1) -> +Inf bucket -> 1
    assert.equal(histogramQuantile(0.9, TEN), 1);
    assert.equal(histogramQuantile(1, TEN), 1);
  });

  it('q < 0 is -Inf, q > 1 is +Inf, q NaN is NaN, even for an empty histogram', () => {
    assert.equal(histogramQuantile(-0.1, TEN), -Infinity);
    assert.equal(histogramQuantile(1.01, TEN), Infinity);
    assert.ok(Number.isNaN(histogramQuantile(NaN, TEN)));
    assert.equal(histogramQuantile(-1, []), -Infinity);
    assert.equal(histogramQuantile(2, []), Infinity);
  });

  it('is NaN with no observations, no +Inf bucket, a single bucket or no buckets', () => {
    assert.ok(
      Number.isNaN(
        histogramQuantile(
          0.5,
          buckets([
            [0.1, 0],
            [1, 0],
            [Infinity, 0],
          ]),
        ),
      ),
    );
    assert.ok(
      Number.isNaN(
        histogramQuantile(
          0.5,
          buckets([
            [0.1, 1],
            [1, 2],
          ]),
        ),
      ),
    );
    assert.ok(Number.isNaN(histogramQuantile(0.5, buckets([[Infinity, 5]]))));
    assert.ok(Number.isNaN(histogramQuantile(0.5, [])));
  });

  it('matches prometheus histograms.test, positive buckets', () => {
    const positive = buckets([
      [0.1, 50],
      [0.2, 70],
      [1, 110],
      [Infinity, 120],
    ]);
    assert.equal(histogramQuantile(0, positive), 0);
    close(histogramQuantile(0.2, positive), 0.048); // rank 24: 0.1 * 24/50
    close(histogramQuantile(0.5, positive), 0.15); // rank 60: 0.1 + 0.1 * 10/20
    close(histogramQuantile(0.8, positive), 0.72); // rank 96: 0.2 + 0.8 * 26/40
    assert.equal(histogramQuantile(1, positive), 1); // rank 120 -> +Inf bucket
  });

  it('returns the first bound without interpolation when it is <= 0 (negative buckets)', () => {
    const negative = buckets([
      [-0.2, 10],
      [-0.1, 20],
      [0.3, 20],
      [Infinity, 30],
    ]);
    assert.equal(histogramQuantile(0, negative), -0.2);
    assert.equal(histogramQuantile(0.2, negative), -0.2); // rank 6 in the first bucket
    close(histogramQuantile(0.5, negative), -0.15); // rank 15: -0.2 + 0.1 * 5/10
    assert.equal(histogramQuantile(0.8, negative), 0.3); // rank 24 -> +Inf bucket
    // A first bucket at exactly 0 is returned as 0, not interpolated from 0.
    assert.equal(
      histogramQuantile(
        0.5,
        buckets([
          [0, 4],
          [1, 5],
          [Infinity, 5],
        ]),
      ),
      0,
    );
  });

  it('forces monotonicity like Prometheus (the envelope of the counts)', () => {
    // 0.5 reports 3 < 5: lifted to 5. Rank 5 then ends in the first bucket: 0.1 * 5/5.
    // Without the fix the binary search lands in (0.5, 1] and gives 0.7.
    const broken = buckets([
      [0.1, 5],
      [0.5, 3],
      [1, 8],
      [Infinity, 10],
    ]);
    close(histogramQuantile(0.5, broken), 0.1);
    // rank 6: (0.5, 1] after the fix holds 5..8 -> 0.5 + 0.5 * 1/3
    close(histogramQuantile(0.6, broken), 0.5 + 0.5 / 3);
  });

  it('flattens relative count differences <= 1e-12 as float noise', () => {
    const noisy = buckets([
      [0.1, 10],
      [0.5, 10.000000000001],
      [Infinity, 10.000000000001],
    ]);
    // After the correction all counts are 10 and q=1 (rank 10) ends in the first bucket.
    // Taken literally, rank 10.000000000001 would land in (0.1, 0.5] and give 0.5.
    close(histogramQuantile(1, noisy), 0.1);
  });

  it('sorts unsorted input, merges equal bounds and leaves the input untouched', () => {
    const shuffled = buckets([
      [Infinity, 10],
      [1, 8],
      [0.1, 2],
      [0.5, 6],
    ]);
    const copy = JSON.stringify(shuffled);
    close(histogramQuantile(0.5, shuffled), 0.4);
    assert.equal(JSON.stringify(shuffled), copy);
    // Two 0.5 buckets of 2 each merge to 4: rank 2 of 4 in (0, 0.5] -> 0.25
    close(
      histogramQuantile(
        0.5,
        buckets([
          [0.5, 2],
          [0.5, 2],
          [Infinity, 4],
        ]),
      ),
      0.25,
    );
  });
});
