// The histogram's percentile labels: of the numbers binned (the histogram's scope, not the
// session's), in a band above the plot (never across a bar), whole on the canvas, in rows when
// p50, p90 and p99 are close, none over another and none crossed by another marker's line.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { histogramOf } from '../../server/capture/requestQueries';
import { percentileOfSorted } from '../../server/core/analysis/distribution';
import type { HistogramResult, Percentile } from '../../server/protocol';
import { histogramLayout } from '../../webview/latencyPanel/histogram/histogramLayout';
import type { PercentileBand, PercentileMarkInput } from '../../webview/latencyPanel/histogram/percentileMarks';
import { MARK_ROW_PX, percentileMarks } from '../../webview/latencyPanel/histogram/percentileMarks';
import { syntheticRequest } from '../fixtures/webview/syntheticSession';

// The panel's histogram: 56 px of count labels on the left, 16 px on the right.
const plot = { width: 640, left: 56, right: 16 };
/** About the panel's 12 px font: 7 px a character. */
const mark = (pct: Percentile, value: number): PercentileMarkInput => {
  const text = `${pct} ${value}`;
  return { pct, value, text, textWidth: text.length * 7 };
};
const xOf = (v: number): number => 56 + (v / 1000) * (640 - 56 - 16);

describe('percentiles of a histogram', () => {
  const requests = Array.from({ length: 60 }, (_, i) => syntheticRequest(i));
  const prefill = (keep: (i: number) => boolean): number[] =>
    requests
      .filter((r, i) => keep(i) && r.stages[0]?.split.values.prefillMs !== null)
      .map((r) => r.stages[0]!.split.values.prefillMs as number)
      .sort((a, b) => a - b);

  test('of the numbers binned, in its scope: not the whole session', () => {
    const params = { sessionId: 's', stageKey: '0', metric: 'split:prefillMs', bins: 20 } as const;
    const all = histogramOf(requests, params);
    const numbers = prefill(() => true);
    assert.ok(numbers.length > 40);
    assert.deepEqual(
      [all.distribution?.count, all.distribution?.p50, all.distribution?.p90, all.distribution?.p99],
      [
        numbers.length,
        percentileOfSorted(numbers, 50),
        percentileOfSorted(numbers, 90),
        percentileOfSorted(numbers, 99),
      ],
    );
    // A scope of the first 20 requests (an Over Time window): its own percentiles.
    const first = histogramOf(requests, { ...params, scope: { excludeCold: true } }, () =>
      Uint8Array.from(requests, (_, i) => (i < 20 ? 1 : 0)),
    );
    const inScope = prefill((i) => i < 20);
    assert.equal(first.distribution?.count, inScope.length);
    assert.equal(first.distribution?.p90, percentileOfSorted(inScope, 90));
    assert.notEqual(first.distribution?.p90, all.distribution?.p90);
  });

  test('no numbers: no percentiles (not 0)', () => {
    const none = histogramOf(requests, { sessionId: 's', stageKey: '9', metric: 'split:prefillMs', bins: 20 });
    assert.equal(none.distribution, null);
  });
});

/** The rules every band keeps, whatever the values. */
function assertReadable(band: PercentileBand, width: number): void {
  for (const m of band.marks) {
    assert.ok(m.box.x >= 0 && m.box.x + m.box.w <= width, `${m.pct} ${m.box.x}+${m.box.w} leaves the canvas`);
    assert.ok(m.box.y >= 0 && m.box.y + m.box.h <= band.height, `${m.pct} lies below the band`);
    assert.ok(m.x >= m.box.x && m.x <= m.box.x + m.box.w, `${m.pct}: its line starts under its label`);
    for (const o of band.marks) {
      if (o === m) continue;
      if (o.row === m.row)
        assert.ok(m.box.x + m.box.w <= o.box.x || o.box.x + o.box.w <= m.box.x, `${m.pct} over ${o.pct}`);
      // m's line runs from under its label to the plot: through every row below m's.
      if (o.row > m.row) assert.ok(!(m.x > o.box.x && m.x < o.box.x + o.box.w), `${m.pct}'s line crosses ${o.pct}`);
    }
  }
}

describe('percentile labels of the histogram', () => {
  test('one row when the marks are far apart; each label starts at its line', () => {
    const band = percentileMarks([mark('p50', 200), mark('p90', 500), mark('p99', 800)], 0, 1000, plot);
    assert.deepEqual(
      band.marks.map((m) => [m.pct, m.row, m.box.x]),
      [
        ['p50', 0, xOf(200)],
        ['p90', 0, xOf(500)],
        ['p99', 0, xOf(800)],
      ],
    );
    assert.equal(band.height, 2 + MARK_ROW_PX);
    assertReadable(band, plot.width);
  });

  test('p50, p90 and p99 close together: p50 ends at its line, p90 starts at its own, p99 a row below', () => {
    const band = percentileMarks([mark('p99', 430), mark('p50', 400), mark('p90', 415)], 0, 1000, plot);
    assert.deepEqual(
      band.marks.map((m) => [m.pct, m.row, m.box.x, m.box.x + m.box.w]),
      [
        ['p50', 0, xOf(400) - 55, xOf(400)],
        ['p90', 0, xOf(415), xOf(415) + 55],
        ['p99', 1, xOf(430), xOf(430) + 55],
      ],
    );
    assert.equal(band.height, 2 + 2 * MARK_ROW_PX);
    assertReadable(band, plot.width);
  });

  test('three marks at one place on a narrow canvas: a row each, staggered downwards', () => {
    const narrow = { width: 200, left: 56, right: 16 };
    const band = percentileMarks([mark('p50', 500), mark('p90', 501), mark('p99', 502)], 0, 1000, narrow);
    assert.deepEqual(
      band.marks.map((m) => [m.pct, m.row]),
      [
        ['p50', 0],
        ['p90', 1],
        ['p99', 2],
      ],
    );
    assertReadable(band, narrow.width);
  });

  test('a mark at the right edge: its label ends at its line, on the canvas', () => {
    const band = percentileMarks([mark('p50', 300), mark('p99', 1000)], 0, 1000, plot);
    const p99 = band.marks.find((m) => m.pct === 'p99');
    assert.ok(p99 !== undefined);
    assert.equal(p99.row, 0);
    assert.equal(p99.box.x + p99.box.w, xOf(1000));
    assertReadable(band, plot.width);
  });

  test('a value outside the bins, or no number, gets no mark and no band', () => {
    const band = percentileMarks([mark('p50', Number.NaN), mark('p99', 1200)], 0, 1000, plot);
    assert.deepEqual(band, { marks: [], height: 0 });
  });

  test('the plot starts below the band: no label over a bar, at any values', () => {
    const h: HistogramResult = {
      metric: 'split:prefillMs',
      stageKey: '0',
      edges: Array.from({ length: 41 }, (_, i) => i * 25),
      counts: Array.from({ length: 40 }, (_, i) => 40 - Math.abs(20 - i)),
      notMeasured: 0,
      hidden: 0,
      notRecorded: 0,
      oneOutput: 0,
      inferred: 0,
      inferredCounts: [],
      inferredPercentiles: [],
      distribution: null,
    };
    let seed = 7;
    const next = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 1000;
    for (let k = 0; k < 200; k++) {
      const values = [next(), next(), next()].sort((a, b) => a - b);
      const band = percentileMarks(
        [mark('p50', values[0]!), mark('p90', values[1]!), mark('p99', values[2]!)],
        0,
        1000,
        plot,
      );
      assert.equal(band.marks.length, 3);
      assertReadable(band, plot.width);
      // As the view lays it out: the plot's top 8 px under the band.
      const layout = histogramLayout(h, {
        width: 640,
        height: 260,
        left: 56,
        right: 16,
        bottom: 26,
        top: band.height + 8,
      });
      for (const m of band.marks)
        for (const b of layout.bars) assert.ok(m.box.y + m.box.h < b.y, `${m.pct} over the bar at ${b.from}`);
    }
  });
});
