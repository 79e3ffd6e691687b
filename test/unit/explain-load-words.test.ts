// The words of load at arrival: a reading that calls the tail's load higher or lower never prints
// the two means it compares as equal numbers; the JSON's figures are not rounded for it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAtArrival, readingOf } from '../../server/core/explain/loadAtArrival';
import { inFlightText } from '../../server/core/explain/loadWords';
import { analyse, slightlyBusierTailLog } from './support/explainLogs';

const dist = (mean: number) => ({ count: 25, mean, p50: 0, p90: 1, p99: 1, max: 1 });

test('a tail at a somewhat higher load whose means read 0.3 and 0.3 to one decimal: 0.33 against 0.28', () => {
  const { index } = analyse(slightlyBusierTailLog());
  const load = loadAtArrival(index, { target: 'e2e', quantile: 'p90', scope: {} })!;
  assert.equal(load.arrivalsKnown, 25);
  assert.deepEqual(
    load.buckets.map((b) => [b.minInFlight, b.count, b.tailCount]),
    [
      [0, 18, 2],
      [1, 7, 1],
    ],
  );
  // The figures stay as measured: 7 of 25 and 1 of 3.
  assert.equal(load.inFlight.all?.mean, 7 / 25);
  assert.equal(load.inFlight.tail?.mean, 1 / 3);
  assert.equal(load.reading, 'mixed');
  assert.equal(
    load.readingText,
    'The tail arrived at a somewhat higher load (0.33 against 0.28 requests in flight on average): partly queueing, partly slower at the same load.',
  );
  // The line of the statistic the reading compares gives the same figures.
  assert.equal(inFlightText(load, '-'), 'mean in flight at arrival, all / tail: 0.28 / 0.33');
});

test('each reading that calls the load higher or lower prints its two means apart; the same load keeps one decimal', () => {
  assert.deepEqual(readingOf(dist(0.02), dist(0.04), 40, 4, 'p90'), {
    reading: 'busier',
    text: 'The tail arrived into a busier server: 0.04 other requests in flight on average, against 0.02 for all requests. It queued behind others.',
  });
  assert.match(
    readingOf(dist(0.02), dist(0), 40, 4, 'p90').text,
    /^The tail arrived at a lower load than the rest \(0\.00 against 0\.02 requests in flight on average\)/,
  );
  assert.match(
    readingOf(dist(0.0002), dist(0.00025), 40, 4, 'p90').text,
    /^The tail arrived at a somewhat higher load \(0\.0003 against 0\.0002 requests/,
  );
  // Apart at one decimal already: as before.
  assert.match(readingOf(dist(19.5), dist(1.5), 40, 4, 'p90').text, /\(1\.5 against 19\.5 requests/);
  // Within 1.15× either way the reading says they are the same: one decimal, equal or not.
  assert.match(
    readingOf(dist(0.3), dist(0.33), 40, 4, 'p90').text,
    /^The tail arrived at the same load as the rest \(0\.3 against 0\.3 requests/,
  );
});
