// Every key named in section D of the format reference has a hover: a type, a default,
// a description and a metrics note.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { specAtPath } from '../../server/core/deploy/schema';

const SECTION_D: string[][] = [
  ...[
    'base_config',
    'pipeline',
    'model_runner',
    'async_chunk',
    'session_mode',
    'active_stream_window',
    'duplex_session',
    'cuda_mps',
    'connectors',
    'edges',
    'stages',
    'platforms',
  ].map((k) => [k]),
  ...[
    'trust_remote_code',
    'distributed_executor_backend',
    'dtype',
    'quantization',
    'enable_prefix_caching',
    'enable_chunked_prefill',
    'data_parallel_size',
    'pipeline_parallel_size',
    'custom_voice_dir',
  ].map((k) => [k]),
  ...['name', 'extra'].map((k) => ['connectors', 'shm', k]),
  ...[
    'talker_first_audio',
    'initial_codec_chunk_frames',
    'codec_chunk_frames',
    'codec_chunk_ramp',
    'codec_left_context_frames',
    'codec_chunk_adaptive',
  ].map((k) => ['connectors', 'shm', 'extra', k]),
  ...[
    'stage_id',
    'devices',
    'num_replicas',
    'env',
    'output_connectors',
    'input_connectors',
    'default_sampling_params',
    'subtalker_sampling_params',
    'max_num_seqs',
    'gpu_memory_utilization',
    'max_num_batched_tokens',
    'max_model_len',
    'enforce_eager',
    'async_scheduling',
    'enable_prefix_caching',
    'trust_remote_code',
    'tensor_parallel_size',
    'compilation_config',
    'ulysses_degree',
    'ring_degree',
    'vae_use_tiling',
    'cache_backend',
    'enable_diffusion_pipeline_profiler',
    'model_runner',
    'additional_config',
    'attention_config',
    'silence_ban_frames',
    'worker_cls',
    'scheduler_cls',
    'parallel_config',
    'engine_extras',
  ].map((k) => ['stages', '[]', k]),
  ['stages', '[]', 'output_connectors', 'to_stage_1'],
  ['stages', '[]', 'input_connectors', 'from_stage_0'],
  ...['npu', 'rocm', 'xpu', 'musa'].map((p) => ['platforms', p]),
  ['platforms', 'npu', 'model_runner'],
  ['platforms', 'npu', 'stages', '[]', 'enforce_eager'],
];

test('every section-D key has type, default, description and a metrics note', () => {
  for (const keyPath of SECTION_D) {
    const found = specAtPath(keyPath);
    assert.ok(found, `no spec for ${keyPath.join('.')}`);
    assert.ok(
      found.spec.kinds.length > 0 && found.spec.defaultText && found.spec.description && found.spec.metrics,
      keyPath.join('.'),
    );
  }
});

test('the metrics notes the issue names say what they must', () => {
  const metrics = (...keyPath: string[]) => specAtPath(keyPath)?.spec.metrics ?? '';
  assert.match(
    metrics('connectors', 'c', 'extra', 'talker_first_audio'),
    /`vllm_ttft_ms` = 0\.0 with no `vllm_prefill_ms`/,
  );
  assert.match(metrics('async_chunk'), /`vllm_input_wait_ms`.*`vllm_ready_queued_ms`/);
  assert.match(metrics('model_runner'), /`vllm_prefill_ms` also covers its decode steps/);
  assert.match(metrics('active_stream_window'), /wait for a slot counts as input wait/);
  assert.match(metrics('stages', '[]', 'num_replicas'), /`replica_id`/);
  assert.match(metrics('stages', '[]', 'max_num_seqs'), /`vllm_ready_queued_ms`/);
  assert.equal(specAtPath(['stages', '[]', 'no_such_key']), undefined);
});
