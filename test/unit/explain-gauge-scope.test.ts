// The engines' gauges of a scope: a boot's samples (the log's lines by the boot they were printed
// in, a scrape's by its time), a window's; cold left out cuts none. Expectations by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bootsByTime, gaugeInScope, gaugeScopeOf } from '../../server/core/explain/gaugeScope';
import type { GaugeSamples } from '../../server/core/explain/types';

const gauge = (times: number[], boots?: number[]): GaugeSamples => ({
  stage: '0',
  replica: '0',
  source: 'metrics',
  engine: null,
  mapping: 'labels',
  times,
  ...(boots === undefined ? {} : { boots }),
  running: times.map((_, i) => i + 1),
  waiting: times.map(() => 0),
  kvCacheUsagePerc: times.map((_, i) => i * 10),
});

test("a scrape's boot is the boot that had started when it was taken", () => {
  // Boots 1 and 2 started at 100 and 300; a sample before the first is boot 0's.
  assert.deepEqual([...(bootsByTime([50, 100, 250, 300, 400], [100, 300]) ?? [])], [0, 1, 1, 2, 2]);
  // A sample without a time has no boot to find by it; the search starts again after it.
  assert.deepEqual([...(bootsByTime([350, Number.NaN, 350], [100, 300]) ?? [])], [2, 0, 2]);
  // No boot marker: every sample is boot 0's, as every request is.
  assert.deepEqual([...(bootsByTime([1, 2], []) ?? [])], [0, 0]);
  // A boot whose start is not printed: no sample's boot is known.
  assert.equal(bootsByTime([1, 2], [Number.NaN]), null);
});

test("a gauge in scope keeps the boot's samples within the window; cold left out cuts none", () => {
  const g = gauge([100, 200, 300, 400], [1, 1, 2, 2]);
  assert.equal(gaugeInScope(g, { excludeCold: true }), g);
  const two = gaugeInScope(g, { boot: 2, excludeCold: true });
  assert.deepEqual(
    [two.times, two.running, two.kvCacheUsagePerc, two.boots],
    [
      [300, 400],
      [3, 4],
      [20, 30],
      [2, 2],
    ],
  );
  const windowed = gaugeInScope(g, { fromMs: 150, toMs: 300 });
  assert.deepEqual(
    [windowed.times, windowed.running],
    [
      [200, 300],
      [2, 3],
    ],
  );
  assert.deepEqual(gaugeInScope(g, { boot: 1, fromMs: 150 }).times, [200]);
  // Samples of no known boot are of no boot picked.
  assert.deepEqual(gaugeInScope(gauge([100, 200]), { boot: 0 }).times, []);
  assert.deepEqual(gaugeInScope(gauge([100, 200]), { toMs: 150 }).times, [100]);
});

test('the scope the gauges are cut to: boot and window, never cold', () => {
  assert.equal(gaugeScopeOf({}), null);
  assert.equal(gaugeScopeOf({ excludeCold: true }), null);
  assert.deepEqual(gaugeScopeOf({ boot: 2, excludeCold: true }), { boot: 2 });
  assert.deepEqual(gaugeScopeOf({ fromMs: 1, toMs: 2, excludeCold: true }), { fromMs: 1, toMs: 2 });
});
