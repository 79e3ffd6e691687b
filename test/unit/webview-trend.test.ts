// The side panel's trend: one series per session, kept while other sessions are shown.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { SidePanelState, TrendPoint } from '../../webview/sidePanel/state';
import { addTrendPoint, sanitizeSideState, TREND_SESSIONS, trendOf } from '../../webview/sidePanel/state';

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
