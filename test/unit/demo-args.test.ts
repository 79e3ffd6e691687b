// Start Demo Server's simulator arguments: with a deploy config open the simulator runs that
// config (talker_first_audio as the file sets it), keeping the demo scenario only when it is
// the file's pipeline; without one, the built-in scenario with talker first audio.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { demoSimulatorArgv, type DemoLaunch } from '../../src/demoArgs';

const base: DemoLaunch = {
  node: 'node',
  cli: 'cli.js',
  scenario: 'cold-start',
  rps: 2,
  port: 4000,
  deployConfig: null,
};
const pipeline = (argv: string[]): string[] => argv.slice(3, argv.indexOf('--stats-build'));

test('no deploy config: the scenario with talker first audio, on a build before the stats fix', () => {
  const argv = demoSimulatorArgv(base);
  assert.deepEqual(argv.slice(0, 3), ['node', 'cli.js', 'simulate']);
  assert.deepEqual(pipeline(argv), ['--scenario', 'cold-start', '--talker-first-audio']);
  assert.deepEqual(argv.slice(argv.indexOf('--stats-build')), [
    '--stats-build',
    'before-fix',
    '--color',
    '--port',
    '4000',
    '--rps',
    '2',
  ]);
});

test('a deploy config of the scenario’s pipeline: that config, the scenario kept, talker first audio as the file says', () => {
  assert.deepEqual(pipeline(demoSimulatorArgv({ ...base, deployConfig: '/ws/qwen3_tts.yaml' })), [
    '--deploy-config',
    '/ws/qwen3_tts.yaml',
    '--scenario',
    'cold-start',
  ]);
});

test('a deploy config of another pipeline, or of one not known by name: the simulator takes the pipeline from the file', () => {
  for (const file of ['/ws/qwen3_omni_moe.yaml', '/ws/glm_image.yaml', '/ws/my-deploy.yaml'])
    assert.deepEqual(pipeline(demoSimulatorArgv({ ...base, deployConfig: file })), ['--deploy-config', file]);
});
