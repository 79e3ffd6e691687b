// The waterfall's words and labels: the slow phase's label never lands on the stage names of
// the gutter, and placement rules read as sentences, not rule ids.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  DEFAULT_BOX,
  placementWords,
  slowLabelPlace,
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
    assert.deepEqual(slowLabelPlace(bar(150, 300), 140, box), { x: 456, inside: false });
  });

  test('left of the bar when the bar reaches the right edge, but never into the gutter', () => {
    assert.deepEqual(slowLabelPlace(bar(400, 490), 140, box), { x: 254, inside: false });
    // A live request: its prefill is the whole axis, from the gutter to the right edge.
    const whole = bar(DEFAULT_BOX.gutter, 900 - DEFAULT_BOX.gutter - DEFAULT_BOX.rightPad);
    const place = slowLabelPlace(whole, 140, box);
    assert.ok(
      place !== null && place.x >= DEFAULT_BOX.gutter,
      `x ${place?.x} is in the gutter (stage names end at ${DEFAULT_BOX.gutter})`,
    );
    assert.equal(place.inside, true);
  });

  test('nowhere when neither beside nor inside has room', () => {
    assert.equal(slowLabelPlace(bar(160, 60), 140, { gutter: DEFAULT_BOX.gutter, width: 330 }), null);
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
