// The eight real deploy configs (test/fixtures/deploy, provenance in SOURCES.md) must
// raise no false alarm, and their overlays must resolve the way vLLM-Omni resolves them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { deployDiagnostics, talkerFirstAudioReports } from '../../server/core/deploy';
import { entryOf, isList, stageIdOf, valueOf } from '../../server/core/deploy/configTree';
import { analyzeFixture, FIXTURES, summary } from './support/deployHelpers';

// Exact diagnostics per file. All eight are empty, and that is right:
// - every key they use is in the schema (engine args, diffusion `parallel_config`, NPU
//   `worker_cls`/`scheduler_cls`, XPU `max_cudagraph_capture_size`, all connector extras);
// - the two files that turn on talker_first_audio meet every prerequisite on their
//   effective config: qwen3_omni_moe_mrv2 (talker stage 1 with model_runner v2 per stage,
//   async_chunk from its base, a codec_chunk_ramp starting at 1, prefix caching off in the
//   base) and qwen3_tts_high_concurrency_mrv2_single_gpu (model_runner v2 from its base
//   qwen3_tts_high_concurrency_mrv2, async_chunk and prefix caching off from
//   qwen3_tts_high_concurrency, initial_codec_chunk_frames 1 itself);
// - every connector a stage names is defined (overlays inherit them), every edge names an
//   existing stage, every base_config exists.
const EXPECTED: Record<string, string[]> = {
  'glm_image.yaml': [],
  'qwen3_omni_moe.yaml': [],
  'qwen3_omni_moe_mrv2.yaml': [],
  'qwen3_tts.yaml': [],
  'qwen3_tts_high_concurrency.yaml': [],
  'qwen3_tts_high_concurrency_mrv2.yaml': [],
  'qwen3_tts_high_concurrency_mrv2_single_gpu.yaml': [],
  'qwen3_tts_mrv2.yaml': [],
};

for (const [name, expected] of Object.entries(EXPECTED)) {
  test(`${name}: recognised, exact diagnostics`, () => {
    const analysis = analyzeFixture(name);
    assert.equal(analysis.isDeployConfig, true);
    assert.deepEqual(summary(deployDiagnostics(analysis)), expected);
  });
}

test('overlay chains resolve relative to the file, several levels deep', () => {
  const chain = analyzeFixture('qwen3_tts_high_concurrency_mrv2_single_gpu.yaml').effective.chain.map((f) =>
    path.relative(FIXTURES, f.path),
  );
  assert.deepEqual(chain, [
    'qwen3_tts_high_concurrency_mrv2_single_gpu.yaml',
    'qwen3_tts_high_concurrency_mrv2.yaml',
    'qwen3_tts_high_concurrency.yaml',
  ]);
});

test('the effective config records which file and line each value comes from', () => {
  const root = analyzeFixture('qwen3_tts_high_concurrency_mrv2_single_gpu.yaml').effective.root;
  const where = (entry: ReturnType<typeof entryOf>) =>
    entry && `${path.basename(entry.keyLocation.file)}:${entry.keyLocation.range.start.line + 1}`;
  assert.equal(where(entryOf(root, 'model_runner')), 'qwen3_tts_high_concurrency_mrv2.yaml:3');
  assert.equal(where(entryOf(root, 'async_chunk')), 'qwen3_tts_high_concurrency.yaml:13');
  assert.equal(where(entryOf(root, 'cuda_mps')), 'qwen3_tts_high_concurrency_mrv2_single_gpu.yaml:16');
  const extra = valueOf(valueOf(valueOf(root, 'connectors'), 'connector_of_shared_memory'), 'extra');
  // connectors merge deeply: the overlay's keys and the base's keys side by side
  assert.equal(where(entryOf(extra, 'talker_first_audio')), 'qwen3_tts_high_concurrency_mrv2_single_gpu.yaml:21');
  assert.equal(where(entryOf(extra, 'shm_threshold_bytes')), 'qwen3_tts_high_concurrency.yaml:19');
  const stages = valueOf(root, 'stages');
  assert.ok(isList(stages));
  assert.deepEqual(stages.items.map(stageIdOf), [0, 1]);
  const stage0 = stages.items[0];
  const maxSeqs = entryOf(stage0, 'max_num_seqs');
  assert.equal(where(maxSeqs), 'qwen3_tts_high_concurrency_mrv2_single_gpu.yaml:37');
  assert.equal(where(maxSeqs?.replaced), 'qwen3_tts_high_concurrency.yaml:59');
  // a stage key the overlay does not set is inherited
  assert.equal(where(entryOf(stage0, 'max_num_batched_tokens')), 'qwen3_tts_high_concurrency.yaml:64');
  // compilation_config is not a deep-merge key on the server: the overlay's replaces the base's
  assert.equal(
    where(entryOf(valueOf(stage0, 'compilation_config'), 'cudagraph_capture_sizes')),
    'qwen3_tts_high_concurrency_mrv2_single_gpu.yaml:40',
  );
});

test('talker and codec are found from the connector edges', () => {
  const omni = talkerFirstAudioReports(analyzeFixture('qwen3_omni_moe_mrv2.yaml').effective.root);
  assert.deepEqual(
    omni.map((r) => [
      r.connector,
      r.talkers,
      r.codecs,
      r.checks.filter((c) => c.ok !== true).map((c) => [c.code, c.ok]),
    ]),
    [['connector_of_shared_memory', [1], [2], [['tfa-env-switch-off', null]]]],
  );
  const tts = talkerFirstAudioReports(analyzeFixture('qwen3_tts_high_concurrency_mrv2_single_gpu.yaml').effective.root);
  assert.deepEqual(
    tts.map((r) => [
      r.talkers,
      r.codecs,
      r.checks.map((c) => `${c.ok === null ? 'undecided' : c.ok ? 'ok' : 'fail'} ${c.actual}`),
    ]),
    [
      [
        [0],
        [1],
        [
          'ok async_chunk: true',
          'ok stage 0 model_runner: v2',
          'ok initial_codec_chunk_frames: 1',
          'ok stage 0 enable_prefix_caching: false',
          'ok stage 0 tensor_parallel_size: 1 (default)',
          'ok stage 0 pipeline_parallel_size: 1 (default)',
          'ok stage 0 distributed_executor_backend: unset',
          'undecided not set in this config: it is on unless the server\'s environment sets VLLM_OMNI_TALKER_FIRST_AUDIO to anything but "1" (Stage Lens cannot see that environment from the YAML)',
        ],
      ],
    ],
  );
  // no talker_first_audio anywhere in the chain: no report
  assert.deepEqual(talkerFirstAudioReports(analyzeFixture('qwen3_tts.yaml').effective.root), []);
});
