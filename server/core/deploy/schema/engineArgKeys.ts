// vLLM engine arguments as they appear in deploy YAMLs: pipeline-wide ones (top level,
// applied to every stage, a stage value wins) and per-stage ones.
import { key, keyTable, METRICS, type KeySpec, type MapSchema } from './keySpec';

const PREFIX_CACHING_METRICS =
  'A prefix-cache hit shortens `vllm_prefill_ms` (and TTFT) for that request only, so prefill times vary with how much prompts overlap. `talker_first_audio` needs it off for the talker: set `false` explicitly there, since vLLM enables it by default for most models.';

/** Engine args that may be set at the top level for every stage, or per stage. */
export const pipelineWideEngineKeys: KeySpec[] = [
  key(
    'trust_remote_code',
    'boolean',
    'unset (vLLM default)',
    'Allow model code from the model repository.',
    METRICS.none,
  ),
  key(
    'distributed_executor_backend',
    'string',
    'unset (vLLM picks `uni` for one GPU)',
    "How vLLM runs a stage's workers: `uni` (in process), `mp` (processes), `ray`, `external_launcher`.",
    'Process hops add a little to every step. `talker_first_audio` needs a local executor for the talker (`uni` or unset).',
  ),
  key('dtype', 'string', 'auto', 'Weight and activation dtype (`auto`, `bfloat16`, `float16`…).', METRICS.engineSpeed),
  key('quantization', 'string', 'unset', 'Quantization method.', METRICS.engineSpeed),
  key(
    'enable_prefix_caching',
    'boolean',
    'unset (vLLM default: on for most models)',
    'Reuse the KV cache of shared prompt prefixes.',
    PREFIX_CACHING_METRICS,
  ),
  key(
    'enable_chunked_prefill',
    'boolean',
    'unset (vLLM default)',
    'Split long prefills into chunks scheduled together with decodes.',
    "A long prompt's `vllm_prefill_ms` spans several steps; other requests' decode steps (ITL) stay steadier.",
  ),
  key(
    'data_parallel_size',
    'integer',
    '1',
    'Data-parallel ranks; each schedules its own requests.',
    'Queued time depends on the rank a request lands on.',
    { minimum: 1 },
  ),
  key(
    'pipeline_parallel_size',
    'integer',
    '1',
    'Pipeline-parallel ranks.',
    'Each step crosses the ranks. `talker_first_audio` needs 1 for the talker.',
    { minimum: 1 },
  ),
];

const compilationSchema: MapSchema = {
  name: 'compilation_config',
  keys: keyTable([
    key(
      'cudagraph_mode',
      'string',
      'vLLM default',
      'CUDA graph mode: `NONE`, `PIECEWISE`, `FULL`, `FULL_DECODE_ONLY`, `FULL_AND_PIECEWISE`.',
      'Full graphs make decode steps shorter (lower ITL / `vllm_decode_ms`).',
    ),
    key(
      'cudagraph_capture_sizes',
      'list',
      'vLLM default',
      'Batch sizes captured as CUDA graphs.',
      'A batch size not captured runs padded to the next size or eagerly: steps at that concurrency are slower.',
    ),
    key(
      'max_cudagraph_capture_size',
      'integer',
      'vLLM default',
      'Largest captured batch size.',
      'Batches above it run eagerly: slower steps at high concurrency.',
    ),
  ]),
  unknownKeys: 'accept',
};

/** Per-stage vLLM engine arguments (flat in the stage, or under `engine_args:`). */
export const stageEngineKeys: KeySpec[] = [
  ...pipelineWideEngineKeys,
  key(
    'tensor_parallel_size',
    'integer',
    '1',
    'GPUs one step of this stage is split over.',
    'Shorter steps; `talker_first_audio` needs 1 on the talker.',
    { minimum: 1 },
  ),
  key('enable_expert_parallel', 'boolean', 'false', 'Expert parallelism for MoE layers.', METRICS.engineSpeed),
  key(
    'gpu_memory_utilization',
    'number',
    '0.9',
    'Fraction of GPU memory this stage may use (weights, activations, KV cache). Stages sharing a GPU must add up to at most 1.',
    'Sets the KV-cache capacity: when it runs out requests are preempted (`vllm_num_preemptions` > 0) or wait for blocks, which grows `vllm_ready_queued_ms` / `vllm_queued_ms`.',
    { exclusiveMinimum: 0, maximum: 1 },
  ),
  key(
    'max_num_seqs',
    'integer',
    'unset (vLLM default)',
    'Most requests this stage runs at once (per replica).',
    'Requests beyond it wait for a slot: that wait is `vllm_ready_queued_ms` (part of `vllm_queued_ms`). Larger values raise throughput but lengthen each step, so ITL and `vllm_decode_ms` grow under load.',
    { minimum: 1 },
  ),
  key(
    'max_num_batched_tokens',
    'integer',
    'unset (vLLM default, 32768 here)',
    'Tokens one scheduler step may process.',
    "Small values (512 on the Qwen3-TTS talker) split a long prompt's prefill over several steps (longer `vllm_prefill_ms` for it) but keep steps short, lowering first-chunk latency for the rest. Code2Wav needs it ≥ codebooks × frames for correctness.",
    { minimum: 1 },
  ),
  key(
    'max_model_len',
    'integer',
    'model default',
    "Longest prompt + output. Under async chunk the codec's accumulated stream must fit.",
    METRICS.none,
    { minimum: 1 },
  ),
  key(
    'enforce_eager',
    'boolean',
    'false',
    'Run without CUDA graphs.',
    'Eager steps are slower (higher `vllm_decode_ms`, ITL) but there is no graph capture at start-up.',
  ),
  key(
    'async_scheduling',
    'boolean',
    'vLLM default',
    'Overlap scheduling of the next step with execution of the current one.',
    'Shorter gaps between steps: lower ITL and `vllm_decode_ms`.',
  ),
  key(
    'disable_hybrid_kv_cache_manager',
    'boolean',
    'false',
    'Use one KV-cache manager for all layer types.',
    METRICS.engineSpeed,
  ),
  key(
    'mm_processor_cache_gb',
    'number',
    'vLLM default',
    'Cache size of the multimodal processor.',
    "Misses add preprocessing before the stage's first step.",
  ),
  key('mamba_ssm_cache_dtype', 'string', 'auto', 'SSM state dtype of hybrid-Mamba stages.', METRICS.engineSpeed),
  key(
    'compilation_config',
    'map',
    'vLLM default',
    "vLLM compilation and CUDA-graph settings. An overlay's value replaces the base's wholesale.",
    'The first request after a boot can include compilation and graph capture: a cold-start outlier in any phase.',
    { children: compilationSchema },
  ),
  key(
    'max_cudagraph_capture_size',
    'integer',
    'vLLM default',
    'Largest batch size captured as a CUDA graph.',
    'Batches above it run eagerly: slower steps at high concurrency.',
  ),
  key('profiler_config', 'map', 'unset', 'vLLM profiler settings.', 'Profiling slows the stage while it records.', {
    children: acceptAll('profiler_config'),
  }),
  key('skip_mm_profiling', 'boolean', 'vLLM default', 'Skip multimodal memory profiling at start-up.', METRICS.none),
  key(
    'enable_flashinfer_autotune',
    'boolean',
    'vLLM default',
    'FlashInfer kernel autotuning at start-up.',
    METRICS.engineSpeed,
  ),
  key('config_format', 'string', 'auto', 'Model config format.', METRICS.none),
  key('load_format', 'string', 'auto', 'Weight loading format.', METRICS.none),
  key('tokenizer_mode', 'string', 'auto', 'Tokenizer mode.', METRICS.none),
  key(
    'additional_config',
    'map',
    'unset',
    'Model- or platform-specific settings passed through (e.g. `talker_stream_first_audio` on the fused Qwen3-TTS profile).',
    'Depends on the model; see its documentation.',
    { children: acceptAll('additional_config') },
  ),
  key('attention_config', 'map', 'unset', 'Attention backend settings.', METRICS.engineSpeed, {
    children: acceptAll('attention_config'),
  }),
  key(
    'worker_cls',
    'string',
    'platform default',
    'Worker class path (platform-specific workers, e.g. NPU).',
    METRICS.none,
  ),
  key(
    'scheduler_cls',
    'string',
    'pipeline default',
    'Scheduler class path.',
    'The scheduler decides when a request is SCHEDULED: it shapes `vllm_queued_ms`.',
  ),
  key(
    'parallel_config',
    'map',
    'unset',
    'Parallelism settings as a map (diffusion stages: `ulysses_degree`, `ring_degree`, `sequence_parallel_size`…).',
    METRICS.diffusion,
    { children: acceptAll('parallel_config') },
  ),
  key('seed', 'integer', 'vLLM default', 'Random seed of the engine.', METRICS.none),
  key(
    'kv_cache_dtype',
    'string',
    'auto',
    'KV-cache dtype.',
    'A smaller dtype fits more requests: fewer preemptions and block waits.',
  ),
  key('block_size', 'integer', 'vLLM default', 'KV-cache block size in tokens.', METRICS.engineSpeed),
  key('swap_space', 'number', 'vLLM default', 'CPU swap space per GPU, in GiB.', METRICS.none),
  key(
    'cpu_offload_gb',
    'number',
    '0',
    'Weights offloaded to CPU, in GiB.',
    'Offloaded weights are copied each step: slower steps.',
  ),
  key('limit_mm_per_prompt', 'map', 'vLLM default', 'Most multimodal items per prompt.', METRICS.none, {
    children: acceptAll('limit_mm_per_prompt'),
  }),
  key('hf_overrides', 'map', 'unset', 'Overrides of the Hugging Face model config.', METRICS.none, {
    children: acceptAll('hf_overrides'),
  }),
  key(
    'speculative_config',
    'map',
    'unset',
    'Speculative decoding.',
    'Several tokens per step: lower `vllm_decode_ms`, uneven ITL.',
    { children: acceptAll('speculative_config') },
  ),
  key(
    'long_prefill_token_threshold',
    'integer',
    'vLLM default',
    'Prompts longer than this count as long prefills.',
    METRICS.engineSpeed,
  ),
  key('max_num_partial_prefills', 'integer', 'vLLM default', 'Concurrent partial prefills.', METRICS.engineSpeed),
  key(
    'scheduling_policy',
    'string',
    'fcfs',
    'Scheduling policy (`fcfs`, `priority`).',
    'Decides who waits: shapes `vllm_queued_ms` across requests.',
  ),
  key(
    'enable_sleep_mode',
    'boolean',
    'false',
    'Allow the engine to sleep and wake.',
    'A request after a wake-up pays the wake-up (cold-start-like outlier).',
  ),
  key('kv_transfer_config', 'map', 'unset', 'KV transfer between engines.', METRICS.none, {
    children: acceptAll('kv_transfer_config'),
  }),
  key('generation_config', 'string', 'auto', 'Where default generation settings come from.', METRICS.none),
  key('override_generation_config', 'map', 'unset', 'Overrides of the generation config.', METRICS.none, {
    children: acceptAll('override_generation_config'),
  }),
  key('tokenizer', 'string', 'model path', 'Tokenizer path.', METRICS.none),
  key('revision', 'string', 'unset', 'Model revision.', METRICS.none),
  key('max_logprobs', 'integer', 'vLLM default', 'Most logprobs returned.', METRICS.none),
  key('disable_cascade_attn', 'boolean', 'false', 'Disable cascade attention.', METRICS.engineSpeed),
  key('model_impl', 'string', 'auto', 'Model implementation (`auto`, `vllm`, `transformers`).', METRICS.engineSpeed),
];

export function acceptAll(name: string, specs: readonly KeySpec[] = []): MapSchema {
  return { name, keys: keyTable(specs), unknownKeys: 'accept' };
}
