// The waterfall's words and labels: the slow phase's label and each segment's duration never
// land on the stage names of the gutter, off the canvas or as text over hatching; the time axis
// reads one unit and its labels lie whole on the canvas; placement rules read as sentences, not
// rule ids.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { detailOf } from '../../server/capture/requestQueries';
import { breakdownOf } from '../../server/core/explain/breakdown';
import { StreamAnalysis } from '../../server/core/analysis/streamAnalysis';
import { LogStreamParser } from '../../server/core/log';
import type { RequestDetail } from '../../server/protocol';
import { LABEL_EDGE_PX } from '../../webview/shared/axis';
import { formatDurationMs } from '../../webview/shared/format';
import { segmentLabelPlaces, type LabelBox } from '../../webview/latencyPanel/waterfall/segmentLabels';
import {
  DEFAULT_BOX,
  placementWords,
  slowLabelPlace,
  tickLabelPlaces,
  waterfallLayout,
  type SlowLabelPlace,
  type WaterfallBar,
  type WaterfallLayout,
} from '../../webview/latencyPanel/waterfall/waterfallLayout';

const bar = (x: number, w: number): WaterfallBar => ({
  stageKey: '0',
  phase: 'prefill',
  provenance: 'measured',
  rule: 'anchored',
  startMs: 0,
  endMs: 9160,
  x,
  y: 31,
  w,
  h: 16,
});
const box = { gutter: DEFAULT_BOX.gutter, width: 900 };

describe('slow label placement', () => {
  test('right of the bar when it fits', () => {
    assert.deepEqual(slowLabelPlace(bar(150, 300), 140, box), {
      x: 453,
      y: 31,
      w: 146,
      h: 16,
      textX: 456,
      inside: false,
      plate: false,
    });
  });

  test('left of the bar when the bar reaches the right edge, but never into the gutter', () => {
    assert.deepEqual(slowLabelPlace(bar(400, 490), 140, box), {
      x: 251,
      y: 31,
      w: 146,
      h: 16,
      textX: 254,
      inside: false,
      plate: false,
    });
    // A live request: its prefill is the whole axis, from the gutter to the right edge.
    const whole = bar(DEFAULT_BOX.gutter, 900 - DEFAULT_BOX.gutter - DEFAULT_BOX.rightPad);
    const place = slowLabelPlace(whole, 140, box);
    assert.ok(
      place !== null && place.x >= DEFAULT_BOX.gutter,
      `x ${place?.x} is in the gutter (stage names end at ${DEFAULT_BOX.gutter})`,
    );
    assert.equal(place.inside, true);
    assert.equal(place.plate, false, 'a solid bar: its own text colour, no plate');
  });

  test('nowhere when neither beside nor inside has room', () => {
    assert.equal(slowLabelPlace(bar(160, 60), 140, { gutter: DEFAULT_BOX.gutter, width: 330 }), null);
  });

  test('beside a hatched neighbour: the other side when it is clear, else on a plate', () => {
    // Decode right after the slowest prefill, hatched (reconstructed): the label goes left.
    const prefill = bar(400, 200);
    const decode: WaterfallBar = { ...bar(600, 100), phase: 'decode', provenance: 'reconstructed' };
    assert.deepEqual(slowLabelPlace(prefill, 140, box, [prefill, decode]), {
      x: 251,
      y: 31,
      w: 146,
      h: 16,
      textX: 254,
      inside: false,
      plate: false,
    });
    // A hatched queued bar on the left too, and the prefill too narrow for its label: a plate on the right.
    const narrow = bar(400, 100);
    const queued: WaterfallBar = { ...bar(200, 200), phase: 'queued', provenance: 'reconstructed' };
    const after: WaterfallBar = { ...bar(500, 300), phase: 'decode', provenance: 'reconstructed' };
    const place = slowLabelPlace(narrow, 140, box, [queued, narrow, after]);
    assert.deepEqual(place, { x: 503, y: 31, w: 146, h: 16, textX: 506, inside: false, plate: true });
  });
});

/** The canvas box `place` occupies is on its bar's lane, between the stage names and the right edge. */
function assertOnRow(place: SlowLabelPlace, lane: { y: number; h: number }, width: number): void {
  assert.ok(place.x >= DEFAULT_BOX.gutter, `x ${place.x} is in the gutter`);
  assert.ok(place.x + place.w <= width, `right edge ${place.x + place.w} is off the ${width} px canvas`);
  assert.ok(place.y >= lane.y && place.y + place.h <= lane.y + lane.h, `${place.y}+${place.h} leaves its lane`);
}

/** Whether the box overlaps a hatched (reconstructed) bar other than `own`. */
function overHatching(place: SlowLabelPlace, bars: readonly WaterfallBar[], own: WaterfallBar): boolean {
  return bars.some(
    (b) =>
      b !== own &&
      b.provenance === 'reconstructed' &&
      place.x < b.x + b.w &&
      place.x + place.w > b.x &&
      place.y < b.y + b.h &&
      place.y + place.h > b.y,
  );
}

const requestsOf = (name: string) => {
  const analysis = new StreamAnalysis();
  const parser = new LogStreamParser();
  analysis.ingest(parser.push(fs.readFileSync(path.join(__dirname, '../fixtures/upstream-rendered', name))));
  analysis.ingest(parser.end());
  analysis.flush();
  return [...analysis.snapshot().requests];
};
const names = { '0': 'talker', '1': 'code2wav' };
const UPSTREAM_LOGS = [
  'qwen3tts-talker-first-audio-after-fix.log',
  'qwen3tts-talker-first-audio-before-fix.log',
  'qwen3tts-info-level-omnitiming-only.log',
  'qwen3-omni-three-stage-transfers.log',
];
/** About the panel's 12 px font: 7 px a character. */
const measure = (text: string): number => text.length * 7;

describe('slow label on real requests (upstream-rendered logs)', () => {
  // The bold label "slowest phase: decode 596 ms" measures about 190 px in the panel's font.
  const TEXT = 190;

  test("Qwen3-TTS after the fix: the talker's prefill+decode is the slowest phase where it is the longest work", () => {
    const request = requestsOf('qwen3tts-talker-first-audio-after-fix.log').find(
      (r) => r.requestId === 'speech-1d2893d9177b5763df3d547f5103319a',
    );
    assert.ok(request !== undefined);
    // 607 ms of talker prefill+decode against the codec's 596 ms decode, which runs alongside it.
    const slowest = waterfallLayout(detailOf(request), names, { ...DEFAULT_BOX, width: 900 }).slowest;
    assert.deepEqual([slowest?.stageKey, slowest?.phase, slowest?.provenance], ['0', 'prefillDecode', 'measured']);
  });

  test('Qwen3-TTS after the fix: the hatched code2wav decode holds its label on a solid plate, inside the bar', () => {
    const request = requestsOf('qwen3tts-talker-first-audio-after-fix.log').find(
      (r) => r.requestId === 'speech-f75018ff5004dc896b8092c79b125f39',
    );
    assert.ok(request !== undefined);
    const width = 900;
    const layout = waterfallLayout(detailOf(request), names, { ...DEFAULT_BOX, width });
    const slowest = layout.slowest;
    assert.ok(slowest !== null);
    assert.equal(slowest.stageKey, '1');
    assert.equal(slowest.phase, 'decode');
    assert.equal(slowest.provenance, 'reconstructed');
    // 1,882 ms of decode (the talker's prefill+decode: 1,867 ms), drawn after 105 ms queued and 44 ms
    // prefill (all hatched) to the axis's right end, so neither side has room clear of hatching.
    assert.ok(Math.abs(slowest.endMs - slowest.startMs - 1881.744) < 1, String(slowest.endMs - slowest.startMs));
    const place = slowLabelPlace(slowest, TEXT, { gutter: DEFAULT_BOX.gutter, width }, layout.bars);
    assert.ok(place !== null);
    assert.equal(place.inside, true);
    assert.equal(place.plate, true, 'text on hatching needs a solid plate');
    assert.equal(place.x, slowest.x);
    assert.equal(place.textX, slowest.x + 3);
    assert.ok(place.x + place.w <= slowest.x + slowest.w, 'the plate stays within the bar it names');
    assertOnRow(
      place,
      layout.lanes.find((l) => l.stageKey === '1')!,
      width,
    );
    // Every neighbour in the lane is hatched: queued and prefill left of it, none under the plate.
    assert.equal(
      overHatching(
        place,
        layout.bars.filter((b) => b.phase !== 'stage'),
        slowest,
      ),
      false,
    );
  });

  test('every request of the upstream logs, at three widths: the label is on its row, on the canvas, and never plain text over hatching', () => {
    let placed = 0;
    let plated = 0;
    for (const name of [
      'qwen3tts-talker-first-audio-after-fix.log',
      'qwen3tts-talker-first-audio-before-fix.log',
      'qwen3tts-info-level-omnitiming-only.log',
    ]) {
      for (const request of requestsOf(name)) {
        for (const width of [420, 900, 1260]) {
          const layout = waterfallLayout(detailOf(request), names, { ...DEFAULT_BOX, width });
          if (layout.slowest === null) continue;
          const place = slowLabelPlace(layout.slowest, TEXT, { gutter: DEFAULT_BOX.gutter, width }, layout.bars);
          if (place === null) continue;
          placed++;
          assertOnRow(
            place,
            layout.lanes.find((l) => l.stageKey === layout.slowest!.stageKey)!,
            width,
          );
          const onHatch =
            overHatching(place, layout.bars, layout.slowest) ||
            (place.inside && layout.slowest.provenance === 'reconstructed');
          if (onHatch) {
            assert.equal(place.plate, true, `${request.requestId} at ${width} px: text over hatching without a plate`);
            plated++;
          }
        }
      }
    }
    // Real numbers: the code2wav lanes of these logs are hatched, so nearly every label needs a plate; one has clear room.
    assert.ok(placed >= 20, `${placed} labels placed`);
    assert.ok(plated > 0 && plated < placed, `${plated} of ${placed} on a plate`);
  });
});

/** A request whose timeline ends at `endMs`: one measured stage, queued then prefill. */
function requestEndingAt(endMs: number): RequestDetail {
  const request = requestsOf('qwen3tts-talker-first-audio-after-fix.log')[0]!;
  return {
    request,
    breakdown: breakdownOf(request),
    timeline: [
      { stageKey: '0', phase: 'stage', startMs: 0, endMs, provenance: 'measured', rule: 'r' },
      { stageKey: '0', phase: 'queued', startMs: 0, endMs: 100, provenance: 'measured', rule: 'r' },
      { stageKey: '0', phase: 'prefill', startMs: 100, endMs, provenance: 'measured', rule: 'r' },
    ],
  };
}

describe('time axis', () => {
  test('one unit on every tick: 0 s … 2.0 s, not "800 ms" beside "1.00 s"', () => {
    const layout = waterfallLayout(requestEndingAt(1900), names, { ...DEFAULT_BOX, width: 600 });
    assert.deepEqual(
      layout.ticks.map((t) => t.label),
      ['0 s', '0.5 s', '1.0 s', '1.5 s', '2.0 s'],
    );
    assert.equal(layout.maxMs, 2000);
    const short = waterfallLayout(requestEndingAt(640), names, { ...DEFAULT_BOX, width: 600 });
    assert.deepEqual(
      short.ticks.map((t) => t.label),
      ['0 ms', '200 ms', '400 ms', '600 ms', '800 ms'],
    );
  });

  test('the last label lies whole on the canvas, shifted left of its tick at the right edge', () => {
    for (const width of [420, 600, 900, 1260]) {
      const layout = waterfallLayout(requestEndingAt(1900), names, { ...DEFAULT_BOX, width });
      const last = layout.ticks[layout.ticks.length - 1]!;
      assert.equal(last.x, width - DEFAULT_BOX.rightPad);
      const labels = tickLabelPlaces(layout.ticks, width, measure);
      const shown = labels[labels.length - 1]!;
      assert.equal(shown.text, last.label, `the last tick keeps its label at ${width} px`);
      assert.equal(shown.left + measure(shown.text), width - LABEL_EDGE_PX);
      for (const l of labels) assert.ok(l.left >= 0 && l.left + measure(l.text) <= width - LABEL_EDGE_PX);
      labels.slice(1).forEach((l, i) => assert.ok(l.left >= labels[i]!.left + measure(labels[i]!.text)));
    }
  });
});

/** Every phase's duration, as the view asks for it (the slowest bar's too). */
function wantedLabels(layout: WaterfallLayout) {
  return layout.bars
    .filter((b) => b.phase !== 'stage')
    .map((bar) => {
      const text = formatDurationMs(bar.endMs - bar.startMs);
      return { bar, text, textWidth: measure(text) };
    });
}

const overlap = (a: LabelBox, b: LabelBox): boolean =>
  a.x < b.x + b.w && a.x + a.w > b.x && a.y < b.y + b.h && a.y + a.h > b.y;

describe('segment duration labels', () => {
  const lane = (x: number, w: number, provenance: WaterfallBar['provenance']): WaterfallBar => ({
    ...bar(x, w),
    phase: 'stage',
    provenance,
    y: 26,
    h: 26,
  });
  const phase = (x: number, w: number, provenance: WaterfallBar['provenance'], p: WaterfallBar['phase']) => ({
    ...bar(x, w),
    phase: p,
    provenance,
    endMs: 596,
  });
  const want = (b: WaterfallBar) => [{ bar: b, text: '596 ms', textWidth: 42 }];

  test('inside a solid segment as before; inside a hatched one on a plate', () => {
    const solid = phase(200, 300, 'measured', 'decode');
    assert.deepEqual(
      segmentLabelPlaces(want(solid), [solid], box).map((p) => [p.where, p.plate, p.x, p.y, p.w, p.h, p.textX]),
      [['inside', false, 201, 32, 48, 14, 204]],
    );
    const hatched = phase(200, 300, 'reconstructed', 'decode');
    assert.deepEqual(
      segmentLabelPlaces(want(hatched), [lane(150, 400, 'reconstructed'), hatched], box).map((p) => [p.where, p.plate]),
      [['inside', true]],
    );
  });

  test('too narrow: beside it, on a plate only over a hatched stage bar', () => {
    const narrow = phase(200, 30, 'reconstructed', 'queued');
    const onPale = segmentLabelPlaces(want(narrow), [lane(150, 400, 'measured'), narrow], box);
    assert.deepEqual(
      onPale.map((p) => [p.where, p.plate, p.x]),
      [['beside', false, 234]],
    );
    const onHatch = segmentLabelPlaces(want(narrow), [lane(150, 400, 'reconstructed'), narrow], box);
    assert.deepEqual(
      onHatch.map((p) => [p.where, p.plate, p.x]),
      [['beside', true, 234]],
    );
  });

  test('a neighbour on the right: left of the segment; segments on both sides: left out', () => {
    const narrow = phase(300, 30, 'measured', 'queued');
    const right = phase(330, 200, 'measured', 'prefill');
    assert.deepEqual(
      segmentLabelPlaces(want(narrow), [narrow, right], box).map((p) => [p.where, p.x]),
      [['beside', 300 - 4 - 48]],
    );
    const left = phase(150, 150, 'reconstructed', 'inputWait');
    assert.deepEqual(segmentLabelPlaces(want(narrow), [left, narrow, right], box), []);
  });

  test('clear of a label placed before and of the slowest phase label', () => {
    const a = phase(260, 20, 'measured', 'queued');
    const b = phase(284, 20, 'measured', 'prefill');
    const placed = segmentLabelPlaces([...want(a), ...want(b)], [a, b], box);
    // a's label right of a lies over b; left of a it is clear; b's then goes right.
    assert.deepEqual(
      placed.map((p) => [p.bar.phase, p.x]),
      [
        ['queued', 260 - 4 - 48],
        ['prefill', 308],
      ],
    );
    const slow: LabelBox = { x: 300, y: 31, w: 300, h: 16 };
    assert.deepEqual(
      segmentLabelPlaces(want(b), [a, b], box, [slow]).map((p) => p.x),
      [],
      'right of b is under the slow label, left of it is over a',
    );
  });

  test('every request of the upstream logs, at three widths: on its row and the canvas, none over another or over a segment, none on hatching without a plate', () => {
    let placed = 0;
    let plated = 0;
    let beside = 0;
    for (const name of UPSTREAM_LOGS) {
      for (const request of requestsOf(name)) {
        for (const width of [420, 900, 1260]) {
          const layout = waterfallLayout(detailOf(request), names, { ...DEFAULT_BOX, width });
          const labels = segmentLabelPlaces(wantedLabels(layout), layout.bars, { gutter: DEFAULT_BOX.gutter, width });
          for (const l of labels) {
            const where = `${request.requestId} ${l.bar.stageKey} ${l.bar.phase} at ${width} px`;
            placed++;
            if (l.where === 'beside') beside++;
            assert.ok(l.x >= DEFAULT_BOX.gutter && l.x + l.w <= width, `${where}: off the plot`);
            assert.ok(l.y >= l.bar.y && l.y + l.h <= l.bar.y + l.bar.h, `${where}: off its row`);
            const hatched = layout.bars.some(
              (b) => b.provenance === 'reconstructed' && (b === l.bar ? l.where === 'inside' : overlap(l, b)),
            );
            if (hatched) {
              assert.equal(l.plate, true, `${where}: text over hatching without a plate`);
              plated++;
            }
            for (const b of layout.bars)
              if (b.phase !== 'stage' && b !== l.bar) assert.ok(!overlap(l, b), `${where}: over ${b.phase}`);
            for (const o of labels) if (o !== l) assert.ok(!overlap(l, o), `${where}: over another label`);
          }
        }
      }
    }
    assert.ok(placed >= 40 && plated > 0 && beside > 0, `${placed} placed, ${plated} on a plate, ${beside} beside`);
  });
});

describe('placement rules in words', () => {
  test('the anchored rule says what it measures; assumed rules lose their id', () => {
    const anchored = placementWords('anchored: start = serving_time_to_first_output_ms - prefill - queued');
    assert.match(anchored, /^placed from the stage's measured time to first output/);
    assert.doesNotMatch(anchored, /anchored|serving_time/);
    assert.equal(
      placementWords('assumed: drawn after the upstream stage ends; no measured anchor'),
      'drawn after the upstream stage ends; no measured anchor',
    );
  });
});
