// A session's numbers fit a deploy config only when their stage ids are the same: otherwise
// one pipeline's numbers would show on another's stages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deployStageMismatch } from '../../server/core/deploy/stageFit';

test('a three-stage session for a two-stage config is a mismatch that names both', () => {
  const m = deployStageMismatch('/w/qwen3_tts.yaml', [1, 0], { title: 'omni.log', stageIds: [0, 1, 2, 1] });
  assert.deepEqual(m?.configStageIds, [0, 1]);
  assert.deepEqual(m?.sessionStageIds, [0, 1, 2]);
  assert.match(m?.message ?? '', /^qwen3_tts\.yaml has stages 0 and 1; the session omni\.log has stages 0, 1 and 2,/);
});

test('the same stage ids, or ids not known yet on either side, are no mismatch', () => {
  assert.equal(deployStageMismatch('/w/a.yaml', [0, 1], { title: 't', stageIds: [1, 0] }), null);
  assert.equal(deployStageMismatch('/w/a.yaml', [0, 1], { title: 't', stageIds: [] }), null);
  assert.equal(deployStageMismatch('/w/a.yaml', [], { title: 't', stageIds: [0] }), null);
});
