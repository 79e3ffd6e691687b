// The waterfall's words and labels: the slow phase's label never lands on the stage names of
// the gutter, off the canvas or as text over hatching, and placement rules read as sentences,
// not rule ids.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { detailOf } from '../../server/capture/requestQueries';
import { StreamAnalysis } from '../../server/core/analysis/streamAnalysis';
import { LogStreamParser } from '../../server/core/log';
import {
  DEFAULT_BOX,
  placementWords,
  slowLabelPlace,
  waterfallLayout,
  type SlowLabelPlace,
  type WaterfallBar,
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

describe('slow label on real requests (upstream-rendered logs)', () => {
  const requestsOf = (name: string) => {
    const analysis = new StreamAnalysis();
    const parser = new LogStreamParser();
    analysis.ingest(parser.push(fs.readFileSync(path.join(__dirname, '../fixtures/upstream-rendered', name))));
    analysis.ingest(parser.end());
    analysis.flush();
    return [...analysis.snapshot().requests];
  };
  const names = { '0': 'talker', '1': 'code2wav' };
  // The bold label "slowest phase: decode 596 ms" measures about 190 px in the panel's font.
  const TEXT = 190;

  test('Qwen3-TTS after the fix: the hatched code2wav decode holds its label on a solid plate, inside the bar', () => {
    const request = requestsOf('qwen3tts-talker-first-audio-after-fix.log').find(
      (r) => r.requestId === 'speech-1d2893d9177b5763df3d547f5103319a',
    );
    assert.ok(request !== undefined);
    const width = 1260;
    const layout = waterfallLayout(detailOf(request), names, { ...DEFAULT_BOX, width });
    const slowest = layout.slowest;
    assert.ok(slowest !== null);
    assert.equal(slowest.stageKey, '1');
    assert.equal(slowest.phase, 'decode');
    assert.equal(slowest.provenance, 'reconstructed');
    // 596 ms of decode, drawn after 88.4 ms queued and 41.1 ms prefill (all hatched): from
    // about 337 px to the axis's right end, so neither side has room clear of hatching.
    assert.ok(Math.abs(slowest.endMs - slowest.startMs - 596) < 1, String(slowest.endMs - slowest.startMs));
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
