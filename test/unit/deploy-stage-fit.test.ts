// A session's numbers fit a deploy config only when their stage ids are the same and, where
// both pipelines are known by name, their roles: otherwise one pipeline's numbers would show
// on another's stages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deployStageMismatch } from '../../server/core/deploy/stageFit';
import { stageRolesOf } from '../../server/core/stageRoles';

const TTS = stageRolesOf('qwen3_tts.yaml');

test('a three-stage session for a two-stage config is a mismatch that names both', () => {
  const m = deployStageMismatch('/w/qwen3_tts.yaml', [1, 0], TTS, {
    title: 'omni.log',
    stageIds: [0, 1, 2, 1],
    roles: {},
  });
  assert.deepEqual(m?.configStageIds, [0, 1]);
  assert.deepEqual(m?.sessionStageIds, [0, 1, 2]);
  assert.match(m?.message ?? '', /^qwen3_tts\.yaml has stages 0 and 1; the session omni\.log has stages 0, 1 and 2,/);
});

test('the same stage ids, or ids not known yet on either side, are no mismatch', () => {
  const t = (stageIds: number[], roles = {}) => ({ title: 't', stageIds, roles });
  assert.equal(deployStageMismatch('/w/a.yaml', [0, 1], {}, t([1, 0])), null);
  assert.equal(deployStageMismatch('/w/a.yaml', [0, 1], {}, t([])), null);
  assert.equal(deployStageMismatch('/w/a.yaml', [], {}, t([0])), null);
  assert.equal(deployStageMismatch('/w/qwen3_tts.yaml', [0, 1], TTS, t([0, 1], TTS)), null);
  assert.equal(deployStageMismatch('/w/qwen3_tts.yaml', [0, 1], TTS, t([0, 1], {})), null);
});

test('the same stage ids of another pipeline (GLM-Image for a Qwen3-TTS config) are a mismatch that names both', () => {
  const glm = stageRolesOf('/logs/glm-image-run.log');
  const m = deployStageMismatch('/w/qwen3_tts.yaml', [0, 1], TTS, { title: 'glm.log', stageIds: [0, 1], roles: glm });
  assert.match(
    m?.message ?? '',
    /^qwen3_tts\.yaml is a talker → code2wav pipeline; the session glm\.log ran AR → diffusion, so it did not run this config/,
  );
});

test('a config named by a Windows path is named by its file in the message, on any platform', () => {
  const m = deployStageMismatch('C:\\w\\deploy\\qwen3_tts.yaml', [0, 1], TTS, {
    title: 'omni.log',
    stageIds: [0, 1, 2],
    roles: {},
  });
  assert.match(m?.message ?? '', /^qwen3_tts\.yaml has stages 0 and 1; /);
});
