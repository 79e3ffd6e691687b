// The side panel's trend: one series per session, kept while other sessions are shown, and
// its sparkline's scale (drawn from 0, so a line's height is the size of its value).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { SidePanelState, TrendPoint } from '../../webview/sidePanel/state';
import { addTrendPoint, sanitizeSideState, TREND_SESSIONS, trendOf } from '../../webview/sidePanel/state';
import { sparklinePoints, sparklineRange } from '../../webview/shared/sparkline';

type Trends = Pick<SidePanelState, 'trends'>;
const point = (n: number, p50: number | null): TrendPoint => ({ n, p50, p90: null, p99: null });
const p50s = (s: Trends, id: string): (number | null)[] => trendOf(s, id).map((p) => p.p50);

describe("a session's trend", () => {
  test("is its own series: another session's summary never continues it", () => {
    let s: Trends = { trends: [] };
    for (const [n, v] of [
      [10, 800],
      [20, 900],
      [30, 1000],
    ] as const)
      s = addTrendPoint(s, 'live', point(n, v));
    assert.deepEqual(p50s(s, 'live'), [800, 900, 1000]);
    // An imported session is shown: none of the live one's points are its trend.
    assert.deepEqual(trendOf(s, 'import'), []);
    s = addTrendPoint(s, 'import', point(6, 4471.914));
    assert.deepEqual(p50s(s, 'import'), [4471.914]);
    // Drawn alone: one dot in the middle of the width, at the top (it is its own largest value).
    assert.deepEqual(sparklinePoints(p50s(s, 'import'), 120, 26, 3), [{ x: 60, y: 3 }]);
  });

  test('survives showing another session and coming back', () => {
    let s: Trends = { trends: [] };
    s = addTrendPoint(s, 'live', point(10, 800));
    s = addTrendPoint(s, 'live', point(20, 900));
    s = addTrendPoint(s, 'import', point(6, 4471.914));
    // Back on the live session: its line so far, and its next update continues it.
    assert.deepEqual(p50s(s, 'live'), [800, 900]);
    s = addTrendPoint(s, 'live', point(30, 950));
    assert.deepEqual(
      trendOf(s, 'live').map((p) => p.n),
      [10, 20, 30],
    );
    // A summary re-sent on coming back (same request count) replaces its point, adds none.
    s = addTrendPoint(s, 'live', point(30, 950));
    assert.deepEqual(p50s(s, 'live'), [800, 900, 950]);
    assert.deepEqual(p50s(s, 'import'), [4471.914]);
    // And across the page being hidden and shown again: the stored state is read back as it was.
    assert.deepEqual(sanitizeSideState(JSON.parse(JSON.stringify({ percentile: 'p50', ...s }))).trends, s.trends);
  });

  test(`of the session updated longest ago goes when more than ${TREND_SESSIONS} sessions have one`, () => {
    let s: Trends = { trends: [] };
    for (let i = 0; i < TREND_SESSIONS; i++) s = addTrendPoint(s, `s${i}`, point(1, i));
    // s0 is updated again: s1 is now the one updated longest ago.
    s = addTrendPoint(s, 's0', point(2, 100));
    s = addTrendPoint(s, 'new', point(1, 5));
    assert.equal(s.trends.length, TREND_SESSIONS);
    assert.deepEqual(trendOf(s, 's1'), []);
    assert.deepEqual(p50s(s, 's0'), [0, 100]);
    assert.deepEqual(p50s(s, 'new'), [5]);
  });
});

describe('the trend sparkline', () => {
  // The side panel's box: 120 × 26 px, 3 px inside; 20 px of height for the values.
  const ys = (values: (number | null)[]): (number | undefined)[] =>
    sparklinePoints(values, 120, 26, 3).map((p) => p?.y);

  test('a 1% wobble moves the line 1% of the height, not the whole box', () => {
    const y = ys([1000, 1010, 1000, 1005]) as number[];
    assert.equal(y[1], 3, 'the largest value at the top');
    assert.ok(Math.abs((y[0] as number) - (23 - (1000 / 1010) * 20)) < 1e-9);
    const drawn = Math.max(...y) - Math.min(...y);
    assert.ok(drawn < 0.2, `a 1% change drawn ${drawn.toFixed(2)} px high`);
  });

  test('a doubling is half the height; a value twice as large is drawn twice as high', () => {
    assert.deepEqual(ys([500, 1000]), [13, 3]);
    assert.deepEqual(ys([250, 500, 1000]), [18, 13, 3]);
  });

  test('the range runs from 0 to the largest value', () => {
    assert.deepEqual(sparklineRange([800, null, 1000, 900]), { lo: 0, hi: 1000 });
    assert.equal(sparklineRange([null, null]), null);
  });

  test('gaps stay gaps; points spread over the width', () => {
    const pts = sparklinePoints([10, null, 30, 20], 100, 20, 2);
    assert.equal(pts[1], null);
    assert.deepEqual(pts[0], { x: 2, y: 18 - (10 / 30) * 16 });
    assert.deepEqual(pts[2], { x: 2 + (2 / 3) * 96, y: 2 });
    assert.equal(pts[3]?.x, 98);
  });

  test('only zeros lie on the bottom, where 0 is; a flat series lies on the top', () => {
    assert.deepEqual(ys([0, 0, null, 0]), [23, 23, undefined, 23]);
    assert.deepEqual(ys([5, 5]), [3, 3]);
  });
});
