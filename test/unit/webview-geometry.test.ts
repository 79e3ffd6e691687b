// Geometry of the canvas charts and the table models: axes, waterfall,
// histogram, requests over time, side-panel summary model, request table columns.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { detailOf } from '../../server/capture/requestQueries';
import { breakdownOf } from '../../server/core/explain/breakdown';
import type { RequestDetail, RequestSpans } from '../../server/protocol';
import {
  histogramBarAt,
  histogramLayout,
  unbinnedCounts,
  unbinnedSentence,
} from '../../webview/latencyPanel/histogram/histogramLayout';
import {
  buildSpanIndex,
  clampView,
  fullView,
  isVisible,
  panView,
  spanAt,
  visibleMaxE2e,
  visibleSlice,
  xOf,
  yOf,
  zoomView,
} from '../../webview/latencyPanel/spans/spansLayout';
import { spansScopeText } from '../../webview/latencyPanel/spans/spansScope';
import { columnsInView, columnUnderIdColumn, isSlow, tableColumns } from '../../webview/latencyPanel/table/columns';
import { barAt, DEFAULT_BOX, waterfallLayout } from '../../webview/latencyPanel/waterfall/waterfallLayout';
import { headline, summaryModel, trendLabel } from '../../webview/sidePanel/summaryModel';
import { targetText } from '../../webview/shared/tailModel';
import { FIELD_FIRST_OUTPUT } from '../../webview/shared/labels';
import { niceMax, niceTicks, placeTickLabels, timeTicks } from '../../webview/shared/axis';
import { STAGE_NAMES, syntheticRequest, syntheticSession } from '../fixtures/webview/syntheticSession';

describe('axes', () => {
  test('nice ticks on 1-2-5 steps inside the range', () => {
    assert.deepEqual(niceTicks(0, 100, 5), [0, 20, 40, 60, 80, 100]);
    assert.deepEqual(niceTicks(0.3, 2.9, 3), [1, 2]);
    assert.deepEqual(niceTicks(0.3, 2.9, 6), [0.5, 1, 1.5, 2, 2.5]);
    assert.deepEqual(niceTicks(5, 5, 4), [5]);
    assert.equal(niceMax(1451, 4), 1500);
    assert.equal(niceMax(0), 1);
  });

  test('time ticks land on round seconds', () => {
    const t0 = Date.UTC(2026, 0, 1, 10, 0, 0, 300);
    const ticks = timeTicks(t0, t0 + 10_000, 5);
    assert.ok(ticks.length >= 4);
    for (const t of ticks) assert.equal(t % 2000, 0);
  });

  test('tick labels lie whole inside the canvas and never overlap, at any width', () => {
    // The first and last ticks near the sides: centred, their labels would be cut there.
    assert.deepEqual(
      placeTickLabels(
        [
          { x: 10, width: 72 },
          { x: 300, width: 72 },
          { x: 590, width: 72 },
        ],
        2,
        598,
      ),
      [2, 264, 526],
    );
    // The spans chart's geometry: a canvas at least 200 px wide, the plot 64 px in from the left
    // and 12 px from the right, a tick about every 110 px, labels like "10:00:04.000".
    for (let width = 200; width <= 1600; width += 7) {
      const plot = { left: 64, right: width - 12 };
      const n = Math.max(2, Math.floor((plot.right - plot.left) / 110)) + 1;
      const ticks = Array.from({ length: n }, (_, i) => ({
        x: plot.left + (i / (n - 1)) * (plot.right - plot.left),
        width: 76,
      }));
      const lefts = placeTickLabels(ticks, 2, width - 2);
      let prevRight = Number.NEGATIVE_INFINITY;
      lefts.forEach((left, i) => {
        if (left === null) return;
        const w = (ticks[i] as { width: number }).width;
        assert.ok(left >= 2 && left + w <= width - 2, `width ${width}: label ${i} at ${left}`);
        assert.ok(left >= prevRight + 8, `width ${width}: label ${i} overlaps the one before`);
        // Still read at its tick: the tick lies under its label.
        const x = (ticks[i] as { x: number }).x;
        assert.ok(x >= left && x <= left + w, `width ${width}: label ${i} away from its tick`);
        prevRight = left + w;
      });
      assert.ok(
        lefts.some((l) => l !== null),
        `width ${width}: no label at all`,
      );
    }
    // Wider than the room: left out, not cut.
    assert.deepEqual(placeTickLabels([{ x: 20, width: 50 }], 2, 40), [null]);
  });
});

describe('waterfall of one request', () => {
  // Request 1: stage 2 without the codec signature? find one with and one without.
  const data = Array.from({ length: 40 }, (_, i) => syntheticRequest(i));
  const withSignature = data.find((r) => r.stages[2]?.split.states.ttftMs === 'notRecorded' && !r.cold);
  const detail = (i: number): RequestDetail => detailOf(data[i]);

  test('one lane per stage in stage order, phases over whole-stage bars', () => {
    const d = detail(2);
    const layout = waterfallLayout(d, STAGE_NAMES, { ...DEFAULT_BOX, width: 900 });
    assert.deepEqual(
      layout.lanes.map((l) => l.label),
      ['stage 0 · thinker', 'stage 1 · talker', 'stage 2 · code2wav'],
    );
    const firstPhase = layout.bars.findIndex((b) => b.phase !== 'stage');
    assert.ok(layout.bars.slice(0, firstPhase).every((b) => b.phase === 'stage'));
    assert.ok(layout.bars.slice(firstPhase).every((b) => b.phase !== 'stage'));
    assert.ok(layout.maxMs >= Math.max(...d.timeline.map((s) => s.endMs)));
    for (const b of layout.bars) {
      assert.ok(
        b.x >= DEFAULT_BOX.gutter - 1e-9 && b.x + b.w <= 900 - DEFAULT_BOX.rightPad + 1e-6,
        `${b.stageKey} ${b.phase} ${b.x} ${b.w}`,
      );
      const lane = layout.lanes.find((l) => l.stageKey === b.stageKey);
      assert.ok(lane !== undefined && b.y >= lane.y && b.y + b.h <= lane.y + lane.h);
    }
  });

  test('stages overlap as the timeline places them (nothing is pushed apart)', () => {
    const d = detail(2);
    const layout = waterfallLayout(d, STAGE_NAMES, { ...DEFAULT_BOX, width: 900 });
    for (const seg of d.timeline) {
      const bar = layout.bars.find((b) => b.stageKey === seg.stageKey && b.phase === seg.phase);
      assert.ok(bar !== undefined);
      assert.ok(
        Math.abs(
          bar.x -
            (DEFAULT_BOX.gutter + (seg.startMs / layout.maxMs) * (900 - DEFAULT_BOX.gutter - DEFAULT_BOX.rightPad)),
        ) < 1e-6,
      );
    }
    const s0 = d.timeline.find((s) => s.stageKey === '0' && s.phase === 'stage');
    const s1 = d.timeline.find((s) => s.stageKey === '1' && s.phase === 'stage');
    assert.ok(
      s0 !== undefined && s1 !== undefined && s1.startMs < s0.endMs,
      'stage 1 starts before stage 0 ends (async chunk)',
    );
  });

  test('the slowest phase is the longest phase segment', () => {
    const d = detail(2);
    const layout = waterfallLayout(d, STAGE_NAMES, { ...DEFAULT_BOX, width: 900 });
    const longest = Math.max(...d.timeline.filter((s) => s.phase !== 'stage').map((s) => s.endMs - s.startMs));
    assert.equal((layout.slowest?.endMs ?? 0) - (layout.slowest?.startMs ?? 0), longest);
  });

  test('reconstructed segments carry their rule into the legend notes', () => {
    assert.ok(withSignature !== undefined);
    const d: RequestDetail = detailOf(withSignature);
    const layout = waterfallLayout(d, STAGE_NAMES, { ...DEFAULT_BOX, width: 900 });
    const notes = layout.reconstructed.filter((n) => n.stageKey === '2');
    assert.equal(notes.length, 1);
    assert.match(notes[0]?.rule ?? '', /^assumed/);
    assert.ok(layout.anchored.length > 0);
    assert.ok(layout.bars.filter((b) => b.stageKey === '2').every((b) => b.provenance === 'reconstructed'));
  });

  test('a measured 0 keeps a visible 1 px mark; hit-testing prefers phases', () => {
    const d: RequestDetail = {
      request: data[0],
      breakdown: breakdownOf(data[0]),
      timeline: [
        { stageKey: '0', phase: 'stage', startMs: 0, endMs: 100, provenance: 'measured', rule: 'r' },
        { stageKey: '0', phase: 'queued', startMs: 0, endMs: 0, provenance: 'measured', rule: 'r' },
        { stageKey: '0', phase: 'prefill', startMs: 0, endMs: 100, provenance: 'measured', rule: 'r' },
      ],
    };
    const layout = waterfallLayout(d, {}, { ...DEFAULT_BOX, width: 500 });
    const queued = layout.bars.find((b) => b.phase === 'queued');
    assert.equal(queued?.w, 1);
    const prefill = layout.bars.find((b) => b.phase === 'prefill');
    assert.ok(prefill !== undefined);
    assert.equal(barAt(layout, prefill.x + 10, prefill.y + 2)?.phase, 'prefill');
    const stage = layout.bars.find((b) => b.phase === 'stage');
    assert.ok(stage !== undefined);
    assert.equal(barAt(layout, stage.x + 10, stage.y + 1)?.phase, 'stage');
    assert.equal(barAt(layout, 2, 2), null);
  });
});

describe('histogram', () => {
  const h = {
    metric: 'split:ttftMs',
    stageKey: '2',
    edges: [0, 10, 20, 30, 40],
    counts: [1, 4, 0, 2],
    notMeasured: 3,
    hidden: 5,
    notRecorded: 7,
    oneOutput: 0,
    inferred: 0,
    inferredCounts: [],
    inferredPercentiles: [],
    distribution: null,
  };
  const box = { width: 440, height: 200, left: 40, right: 0, top: 0, bottom: 20 };

  test('one bar per bin, heights proportional to counts, the mode found', () => {
    const l = histogramLayout(h, box);
    assert.equal(l.bars.length, 4);
    assert.equal(l.binned, 7);
    assert.equal(l.mode?.count, 4);
    const [b0, b1, b2] = l.bars;
    assert.ok(b0 !== undefined && b1 !== undefined && b2 !== undefined);
    assert.ok(Math.abs(b1.h / b0.h - 4) < 1e-9);
    assert.equal(b2.h, 0);
    assert.equal(b0.x, 40);
    assert.equal(histogramBarAt(l, b1.x + 1)?.count, 4);
  });

  test('a narrow chart still has at least two x ticks (0.20 alone over 0.05–0.39 ms is no scale)', () => {
    const queued = { ...h, edges: [0.05, 0.135, 0.22, 0.305, 0.39] };
    const narrow = { ...box, width: 240 };
    assert.deepEqual(
      histogramLayout(queued, narrow).xTicks.map((t) => t.value),
      [0.1, 0.2, 0.3],
    );
    // Where the plain step leaves two or more, it stays (about 80 px apart).
    assert.deepEqual(
      histogramLayout(h, box).xTicks.map((t) => t.value),
      [0, 10, 20, 30, 40],
    );
  });

  test('values that are not numbers are counted apart, not binned', () => {
    assert.deepEqual(
      unbinnedCounts(h).map((c) => [c.state, c.count]),
      [
        ['notRecorded', 7],
        ['notMeasured', 3],
        ['hidden', 5],
      ],
    );
    const l = histogramLayout(h, box);
    assert.equal(l.binned, 1 + 4 + 0 + 2);
  });

  test('a state with no values is not listed: "not recorded 0" is nothing to warn about', () => {
    const ttft = { ...h, notRecorded: 0, notMeasured: 12, hidden: 0 };
    assert.deepEqual(
      unbinnedCounts(ttft).map((c) => [c.state, c.count]),
      [['notMeasured', 12]],
    );
    assert.equal(unbinnedSentence(ttft), 'Not binned: 12 not measured.');
    const allNumbers = { ...h, notRecorded: 0, notMeasured: 0, hidden: 0 };
    assert.deepEqual(unbinnedCounts(allNumbers), []);
    assert.equal(unbinnedSentence(allNumbers), 'Not binned: none.');
    assert.equal(
      unbinnedSentence({ ...h, notRecorded: 1200 }),
      'Not binned: 1,200 not recorded, 3 not measured, 5 hidden (zero or not measured).',
    );
  });

  test('the count axis has whole ticks only: 6 requests in one bin read 0 … 6, one in a bin 0 and 1', () => {
    assert.ok(histogramLayout(h, box).yTicks.every((t) => Number.isInteger(t.count)));
    assert.deepEqual(
      histogramLayout({ ...h, edges: [0, 10], counts: [1] }, box).yTicks.map((t) => t.count),
      [0, 1],
    );
    const six = histogramLayout({ ...h, edges: [0, 10, 20], counts: [6, 0] }, box).yTicks.map((t) => t.count);
    assert.equal(six[0], 0);
    assert.ok(six.every((c) => Number.isInteger(c)) && six.length >= 3, six.join(','));
  });

  test('no bins: an empty layout', () => {
    const l = histogramLayout({ ...h, edges: [], counts: [] }, box);
    assert.deepEqual([l.bars.length, l.binned, l.mode], [0, 0, null]);
  });
});

describe('requests over time', () => {
  const spans: RequestSpans = {
    scope: null,
    sessionRequests: 4,
    requestIds: ['c', 'a', 'b', 'd'],
    endMs: [3000, 1000, 2000, 2000],
    e2eMs: [500, 800, null, 1500],
    slowestStage: ['1', '0', null, '1'],
    colourBy: 'slowestStage',
    slowestPhase: [],
    cold: [false, true, false, false],
  };
  const index = buildSpanIndex(spans);
  const box = { left: 0, top: 0, width: 1000, height: 100 };

  test('sorted by end time, starts from e2e, unknown e2e counted', () => {
    assert.deepEqual(Array.from(index.end), [1000, 2000, 2000, 3000]);
    assert.deepEqual(
      Array.from(index.source).map((i) => spans.requestIds[i]),
      ['a', 'b', 'd', 'c'],
    );
    assert.equal(index.start[0], 200);
    assert.ok(Number.isNaN(index.e2e[1]));
    assert.deepEqual(
      [index.withoutE2e, index.coldCount, index.maxDuration, index.minStart, index.maxEnd],
      [1, 1, 1500, 200, 3000],
    );
    assert.deepEqual(index.colours, [
      { stageKey: '0', phase: null },
      { stageKey: '1', phase: null },
    ]);
    assert.equal(index.colour[1], -1);
  });

  test('zoom keeps the time under the cursor in place; views stay inside the session', () => {
    const full = fullView(index);
    const anchor = 1500;
    const z = zoomView(full, 0.5, anchor, index);
    assert.ok(Math.abs((anchor - z.t0) / (z.t1 - z.t0) - (anchor - full.t0) / (full.t1 - full.t0)) < 1e-9);
    assert.ok(Math.abs(z.t1 - z.t0 - (full.t1 - full.t0) / 2) < 1e-9);
    const out = zoomView(full, 4, anchor, index);
    assert.deepEqual(out, full);
    const panned = panView(z, 1e9, index);
    assert.ok(Math.abs(panned.t1 - full.t1) < 1e-9);
    assert.ok(clampView({ t0: 0, t1: 1 }, index).t1 - clampView({ t0: 0, t1: 1 }, index).t0 >= 50);
  });

  test('the visible slice finds exactly the requests that intersect the view', () => {
    const big = buildSpanIndex({
      requestIds: Array.from({ length: 500 }, (_, i) => String(i)),
      endMs: Array.from({ length: 500 }, (_, i) => (i * 7919) % 10_000),
      e2eMs: Array.from({ length: 500 }, (_, i) => (i * 31) % 900),
      slowestStage: Array.from({ length: 500 }, () => null),
      colourBy: 'slowestStage',
      slowestPhase: [],
      cold: Array.from({ length: 500 }, () => false),
    });
    const view = { t0: 3000, t1: 4000 };
    const { from, to } = visibleSlice(big, view);
    const inSlice = new Set<number>();
    for (let i = from; i < to; i++) if (isVisible(big, i, view)) inSlice.add(i);
    for (let i = 0; i < big.count; i++) assert.equal(inSlice.has(i), big.start[i] <= 4000 && big.end[i] >= 3000);
    assert.ok(visibleMaxE2e(big, view) > 0);
  });

  test('hit-testing finds the nearest end point within the radius', () => {
    const view = { t0: 0, t1: 4000 };
    const yMax = 2000;
    const i = spanAt(index, view, box, yMax, xOf(view, box, 2000) + 2, yOf(box, yMax, 1500) - 1);
    assert.equal(spans.requestIds[index.source[i as number]], 'd');
    assert.equal(spanAt(index, view, box, yMax, 990, 5), null);
    // No e2e: on the baseline.
    assert.equal(yOf(box, yMax, Number.NaN), 100);
  });

  test('the chart says the scope its requests are of, as the server answered it', () => {
    assert.equal(spansScopeText(spans), 'Every request of the session (4)');
    const at = (h: number, m: number, s: number): number => Date.UTC(2026, 9, 19, h, m, s);
    const scoped = (scope: RequestSpans['scope']): string =>
      spansScopeText({ scope, sessionRequests: 12_000, requestIds: ['a', 'b', 'c'] });
    assert.equal(scoped({ boot: 1 }), '3 of 12,000 requests: boot 1');
    // Log clock times, as printed (read as UTC), whatever the time zone.
    assert.equal(
      scoped({ boot: 2, fromMs: at(7, 12, 7), toMs: at(7, 12, 10), excludeCold: true }),
      '3 of 12,000 requests: boot 2 · window 07:12:07–07:12:10 · cold left out',
    );
    assert.equal(scoped({ fromMs: at(23, 0, 0) }), '3 of 12,000 requests: from 23:00:00');
    assert.equal(scoped({ toMs: at(0, 0, 5) }), '3 of 12,000 requests: until 00:00:05');
  });
});

describe('table models', () => {
  const data = syntheticSession(300);

  test('side panel: input split columns appear when measured; the slow phase is hot', () => {
    const model = summaryModel(data.summary, 'p50', STAGE_NAMES);
    const ids = model.columns.map((c) => c.id);
    assert.deepEqual(ids.slice(0, 2), ['inputWaitMs', 'readyQueuedMs']);
    assert.ok(ids.includes('field:audio_duration_s'));
    assert.equal(model.rows.length, 3);
    assert.equal(model.rows[0]?.role, 'thinker');
    const hot = model.rows.flatMap((r) =>
      Object.entries(r.cells)
        .filter(([, c]) => c.hot)
        .map(([k]) => `${r.key}.${k}`),
    );
    assert.equal(hot.length, 1);
    for (const r of model.rows) for (const c of Object.values(r.cells)) assert.ok(c.ratio >= 0 && c.ratio <= 1);
    assert.equal(model.rows[0]?.cells['inputWaitMs']?.state, 'notMeasured');
    assert.equal(model.rows[2]?.cells['ttftMs']?.partial, true);
    // The trend names the figure as the tail and explain name it: one number, one name.
    const head = headline(data.summary, STAGE_NAMES);
    assert.equal(head?.label, 'time to first audio (stage 2 · code2wav)');
    assert.equal(head?.label, targetText('stage2.firstOutput', STAGE_NAMES));
    assert.equal(trendLabel(head, 'p90'), 'p90 time to first audio (stage 2 · code2wav)');
    // Roles unknown: the stage by its id, in the same words as the tail's target.
    assert.equal(headline(data.summary)?.label, 'stage 2 time to first output');
    assert.equal(headline(data.summary)?.label, targetText('stage2.firstOutput', {}));
    // A last stage whose output is not audio: its role named, as explain names it.
    assert.equal(
      headline(data.summary, { ...STAGE_NAMES, '2': 'thinker' })?.label,
      'stage 2 time to first output (thinker)',
    );
    // No first output anywhere: end to end, as the status bar and explain; with no end to end
    // either, the last stage's gen time, its role named the same way.
    const noFirstOutput = data.summary.stages.map((s) => {
      const { [FIELD_FIRST_OUTPUT]: _dropped, ...fields } = s.fields;
      return { ...s, fields };
    });
    assert.equal(headline({ ...data.summary, stages: noFirstOutput }, STAGE_NAMES)?.label, 'end to end');
    assert.equal(
      headline({ ...data.summary, stages: noFirstOutput, endToEnd: null }, STAGE_NAMES)?.label,
      'stage 2 gen time (code2wav)',
    );
  });

  test('side panel: a negative added time to first output is marked and says why, a positive one is a plain number', () => {
    const added = (p50: number) => ({ count: 9, mean: p50, p50, p90: p50, p99: p50, max: p50 });
    const stages = data.summary.stages.map((s, i) =>
      i === 1
        ? { ...s, addedTimeToFirstOutputMs: added(-1648) }
        : i === 2
          ? { ...s, addedTimeToFirstOutputMs: added(120) }
          : s,
    );
    const model = summaryModel({ ...data.summary, stages }, 'p50', STAGE_NAMES);
    const negative = model.rows[1]?.cells['added'];
    const positive = model.rows[2]?.cells['added'];
    assert.equal(negative?.text, '-1,648*');
    assert.match(
      negative?.title ?? '',
      /^added time to first output p50: -1,648 ms over 9 requests\. Negative: .*talker first audio.*Model Runner V2/,
    );
    assert.equal(positive?.text, '120');
    assert.doesNotMatch(positive?.title ?? '', /Negative/);
  });

  test('request table: per stage input wait + ready queued when measured, else queued', () => {
    const cols = tableColumns(data.summary.stages, STAGE_NAMES);
    assert.deepEqual(
      cols.slice(0, 2).map((c) => c.id),
      ['requestId', 'target:e2e'],
    );
    const stage0 = cols.filter((c) => c.stageKey === '0').map((c) => c.id);
    const stage1 = cols.filter((c) => c.stageKey === '1').map((c) => c.id);
    assert.deepEqual(stage0, [
      '0.queuedMs',
      '0.prefillMs',
      '0.decodeMs',
      '0.ttftMs',
      '0.field:stage_gen_time_ms',
      '0.field:serving_time_to_first_output_ms',
    ]);
    assert.deepEqual(stage1, [
      '1.inputWaitMs',
      '1.readyQueuedMs',
      '1.prefillMs',
      '1.decodeMs',
      '1.ttftMs',
      '1.field:stage_gen_time_ms',
      '1.field:serving_time_to_first_output_ms',
    ]);
    assert.equal(cols[2]?.group, 'stage 0 · thinker');
    assert.equal(cols[0]?.read(data.requests[7]).text, '<img src=x onerror=alert(1)>');
    assert.deepEqual(
      [isSlow(150, 100), isSlow(100, 100), isSlow(null, 100), isSlow(5, null), isSlow(5, 0)],
      [true, false, false, false, false],
    );
    assert.equal(cols[2]?.slowAbove, data.summary.stages[0]?.split.queuedMs?.p90);
    // end to end: e2e_total_ms of the request
    const e2e = data.requests[7]!.e2e['e2e_total_ms'];
    assert.equal(cols[1]?.read(data.requests[7]!).value, e2e?.state === 'measured' ? e2e.value : undefined);
    for (const r of data.requests) {
      const { text, state, value } = cols[1]!.read(r);
      assert.deepEqual(cols[1]!.cell(r), { text, state, value });
    }
  });

  test('request table: only the columns in horizontal view are written', () => {
    const cols = tableColumns(data.summary.stages, STAGE_NAMES);
    // id 240 px sticky, then 100 px columns (stage 1's ready queued, the 9th, 120 px).
    assert.equal(cols[9]?.id, '1.readyQueuedMs');
    assert.deepEqual(columnsInView(cols, 0, 640, 0), { from: 1, to: 5 });
    assert.deepEqual(columnsInView(cols, 0, 640), { from: 1, to: 6 });
    // Visible from x = 1240: column 10 spans 1160-1260.
    assert.deepEqual(columnsInView(cols, 1000, 640, 0), { from: 10, to: 15 });
    assert.deepEqual(columnsInView(cols, 50, 640, 0), { from: 1, to: 6 });
    assert.deepEqual(columnsInView(cols, 0, 100_000, 0), { from: 1, to: cols.length });
  });

  test('request table: the column partly under the sticky id column, past its padding, is the one whose text is hidden', () => {
    const cols = tableColumns(data.summary.stages, STAGE_NAMES);
    // Column 1 spans 240-340 in the grid; the id column covers scrollLeft + [0, 240).
    assert.equal(columnUnderIdColumn(cols, 0), -1);
    assert.equal(columnUnderIdColumn(cols, 6), -1, 'only its padding covered');
    assert.equal(columnUnderIdColumn(cols, 7), 1);
    assert.equal(columnUnderIdColumn(cols, 99), 1);
    assert.equal(columnUnderIdColumn(cols, 100), -1, 'column 1 wholly under, column 2 clear');
    assert.equal(columnUnderIdColumn(cols, 130), 2);
    // Column 10 spans 1160-1260: at 1000 the id column reaches 1240.
    assert.equal(columnUnderIdColumn(cols, 1000), 10);
  });
});
