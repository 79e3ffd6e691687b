// Stage roles come from the pipeline a path or a command line names (stageRoles.ts): the
// simulator's command line of every demo scenario carries `--cold-start-ms`, which names no
// pipeline.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stageRolesOf } from '../../server/core/stageRoles';

const simulatorCommand = (scenario: string): string =>
  `simulator (${scenario}) /usr/bin/node /opt/stage-lens/dist/cli.js simulate --scenario ${scenario} --talker-first-audio --stats-build before-fix --port 0 --rps 4 --speed 4 --cold-start-ms 6000`;

test('each demo scenario: the roles of its own pipeline', () => {
  assert.deepEqual(stageRolesOf(simulatorCommand('glm-image')), { '0': 'AR', '1': 'diffusion' });
  assert.deepEqual(stageRolesOf(simulatorCommand('qwen3-omni')), { '0': 'thinker', '1': 'talker', '2': 'code2wav' });
  assert.deepEqual(stageRolesOf(simulatorCommand('qwen3-tts')), { '0': 'talker', '1': 'code2wav' });
  assert.deepEqual(stageRolesOf(simulatorCommand('cold-start')), { '0': 'talker', '1': 'code2wav' });
});

test('cold-start names the Qwen3-TTS pipeline only as a word of its own', () => {
  assert.deepEqual(stageRolesOf('samples/qwen3-tts-first-audio-cold-start.log'), { '0': 'talker', '1': 'code2wav' });
  assert.deepEqual(stageRolesOf('/logs/cold-start.log'), { '0': 'talker', '1': 'code2wav' });
  assert.deepEqual(stageRolesOf('vllm serve my-model --cold-start-ms 100'), {});
  assert.deepEqual(stageRolesOf('/logs/precold-start/server.log'), {});
});
