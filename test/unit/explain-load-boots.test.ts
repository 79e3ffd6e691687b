// Load at arrival on a log of two server boots whose clock restarts (the same script run twice
// into one log): a restart ends every request in flight, so requests of different boots never
// count each other, even where the second boot's times run over the first's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAtArrival } from '../../server/core/explain/loadAtArrival';
import { analyse, asyncChunk, BOOT_LINE, renderRequest } from './support/explainLogs';

const at = (s: number): string => `10-22 09:00:${String(s).padStart(2, '0')}`;

const close = (actual: number | null | undefined, expected: number, what: string): void => {
  assert.ok(
    actual !== null && actual !== undefined && Math.abs(actual - expected) < 1e-9,
    `${what}: ${actual} != ${expected}`,
  );
};

/**
 * Both boots start at 09:00:00. Boot 1: 800 ms requests finishing at 10, 12, 14, 16 and 18 s
 * (printed seconds: finishes at x.5 s, arrivals 0.8 s before), and a 5,000 ms one finishing at
 * 20 s (arrival 15.5 s; in flight until 19.5 s, its finish less the 1 s the log resolves),
 * which the requests arriving at 15.7 and 17.7 s find in flight. Boot 2: the same 800 ms
 * requests, and a 5,000 ms one finishing at 13 s (arrival 8.5 s, in flight until 12.5 s),
 * which the ones arriving at 9.7 and 11.7 s find. On one clock, boot 1's slow request would
 * also be in flight when boot 2's 15.7 and 17.7 s requests arrived, and boot 2's when boot 1's
 * 9.7 and 11.7 s ones did.
 */
function twoBootsLog(): string {
  const fast = (boot: number) => [10, 12, 14, 16, 18].map((s) => asyncChunk(`b${boot}-${s}`, 0, at(s)));
  const boot1 = [...fast(1), asyncChunk('b1-slow', 4200, at(20))];
  const boot2 = fast(2);
  boot2.splice(2, 0, asyncChunk('b2-slow', 4200, at(13)));
  return [BOOT_LINE(at(0)), ...boot1.map(renderRequest), BOOT_LINE(at(0)), ...boot2.map(renderRequest)].join('');
}

test('load at arrival over two boots on a restarted clock: each request counts only the requests of its own boot in flight', () => {
  const { index } = analyse(twoBootsLog());
  const byRequest = Array.from({ length: index.length }, (_, i) => [
    index.requestId(i),
    index.boot(i),
    index.inFlight.count(i),
    index.inFlight.stageCount('0', i),
    index.inFlight.stageCount('1', i),
  ]);
  assert.deepEqual(byRequest, [
    ['b1-10', 1, 0, 0, 0],
    ['b1-12', 1, 0, 0, 0],
    ['b1-14', 1, 0, 0, 0],
    ['b1-16', 1, 1, 1, 1],
    ['b1-18', 1, 1, 1, 1],
    ['b1-slow', 1, 0, 0, 0],
    ['b2-10', 2, 1, 1, 1],
    ['b2-12', 2, 1, 1, 1],
    ['b2-slow', 2, 0, 0, 0],
    ['b2-14', 2, 0, 0, 0],
    ['b2-16', 2, 0, 0, 0],
    ['b2-18', 2, 0, 0, 0],
  ]);

  // Both slow requests (5,000 ms against 800 ms) are the p90 tail; neither found another in flight.
  const load = loadAtArrival(index, { target: 'e2e', quantile: 'p90', scope: {} })!;
  assert.equal(load.arrivalsKnown, 12);
  close(load.inFlight.all?.mean, 4 / 12, 'mean in flight, all');
  close(load.inFlight.tail?.mean, 0, 'mean in flight, tail');
  assert.deepEqual(
    load.buckets.map((b) => [b.minInFlight, b.maxInFlight, b.count, b.tailCount, b.target?.max]),
    [
      [0, 0, 8, 2, 5000],
      [1, 1, 4, 0, 800],
    ],
  );
  assert.deepEqual(
    load.stages.map((s) => [s.stageKey, s.all?.mean, s.tail?.mean]),
    [
      ['0', 4 / 12, 0],
      ['1', 4 / 12, 0],
    ],
  );
  assert.equal(load.reading, 'lower');
  assert.match(load.readingText, /^The tail arrived at a lower load than the rest \(0\.0 against 0\.3 requests/);

  // One boot alone: its own requests, the same counts.
  const boot2 = loadAtArrival(index, { target: 'e2e', quantile: 'p90', scope: { boot: 2 } })!;
  assert.equal(boot2.arrivalsKnown, 6);
  assert.deepEqual(
    boot2.buckets.map((b) => [b.minInFlight, b.count, b.tailCount]),
    [
      [0, 4, 1],
      [1, 2, 0],
    ],
  );
});
