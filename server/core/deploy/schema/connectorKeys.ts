// Connectors (`connectors.<name>`) and the keys of their `extra` map. `extra` is passed
// to the connector backend and to the models that read it (Qwen3-TTS, Qwen3-Omni
// Code2Wav), so unknown keys are only flagged when they look like a typo of a known one.
import { key, keyTable, METRICS, type KeySpec, type MapSchema } from './keySpec';

const TFA_PREREQUISITES =
  "It only takes effect with Model Runner V2 (`model_runner: v2`), `async_chunk` on, a one-frame first codec chunk (`initial_codec_chunk_frames: 1`, or a `codec_chunk_ramp` starting at 1), CUDA, a single-rank talker on a local executor (tensor and pipeline parallel size 1, `distributed_executor_backend` `uni` or unset), prefix caching off for the talker, and the environment switch `VLLM_OMNI_TALKER_FIRST_AUDIO` on: the talker's process reads it as on when it is unset or exactly `\"1\"`, so `0` (or any other value) turns the feature off. A stage's `env` in this file can set it; the server's own environment cannot be seen from the YAML.";

/** What is known of the H200 profile's keys: a public vLLM-Omni note, not tied to a released config. */
const H200_NOTE =
  "vLLM-Omni's Qwen3-Omni MRv2 performance note names it in the experimental H200 profile (`qwen3_omni_moe_mrv2_h200.yaml`), which turns it on";

export const TALKER_FIRST_AUDIO_SPEC = key(
  'talker_first_audio',
  'boolean',
  'false',
  `The talker decodes each stream's first audio frame itself and sends it to the client through the codec stage, before the codec has produced anything, to cut time-to-first-audio. ${TFA_PREREQUISITES}`,
  [
    'The first audible packet comes from the talker but is reported as a **codec-stage** output: stage-1 `serving_time_to_first_output_ms` and `vllm_omni:audio_ttfp_s{stage="1"}` can be lower than the codec\'s own first decode.',
    '',
    "**Builds without the stats fix** show a signature: the first-audio frame ends the codec's prefill state, so on every request the codec stage reports `vllm_ttft_ms` = 0.0 with no `vllm_prefill_ms` / `vllm_decode_ms` (18 of 18 requests on an H100 run); its Prometheus histograms get no TTFT sample, a negative prefill and ITLs measured from 0. Stage Lens shows that TTFT as *not recorded*, never as 0 ms.",
    '',
    "**With the fix** the codec's split and TTFT start at its own first engine-core output. Codec outputs that arrive before the frame keep their batch timestamps, so prefill and ITLs leave out the wait for the frame, while `vllm_ttft_ms` includes it.",
  ].join('\n'),
);

const extraKeys: KeySpec[] = [
  TALKER_FIRST_AUDIO_SPEC,
  key(
    'initial_codec_chunk_frames',
    'integer',
    "unset (the model's first chunk; 0 for the talker-first-audio check)",
    "Size in frames of the first chunk sent to the codec; later chunks use `codec_chunk_frames`. `1` emits the first audio frame alone. Ignored when `codec_chunk_ramp` is set (the ramp's first entry is the first chunk).",
    "A smaller first chunk gets the codec's first output out sooner: lower stage-1 `serving_time_to_first_output_ms` (time to first audio), at the price of more codec steps in `vllm_decode_ms`. `talker_first_audio` needs exactly 1.",
    { minimum: 0 },
  ),
  key(
    'codec_chunk_frames',
    'integer',
    'model default (25 for Qwen3-TTS)',
    "Steady chunk size in codec frames after the first chunk(s). For Qwen3-TTS it must match the decoder's sliding attention window.",
    'Under async chunk the codec decodes chunk by chunk and the waits for later chunks stay inside its `vllm_decode_ms` (only the initial queued interval is split). Larger chunks mean fewer, longer codec steps: burstier ITL and audio packets.',
    { minimum: 1 },
  ),
  key(
    'codec_chunk_ramp',
    ['list', 'string'],
    'unset (no ramp)',
    'Sizes of the first chunks (a list, or a comma-separated string, of at least 2 positive frame counts); chunks past the table use `codec_chunk_frames`. A ramp overrides `initial_codec_chunk_frames`; `null` turns it off. The last entry should equal `codec_chunk_frames`.',
    'The first entry sets the first codec chunk, so it drives time to first audio; the ramp smooths the jump from the first chunk to the steady size, so early codec steps (ITL) are more even. A ramp that starts at 1 satisfies `talker_first_audio`.',
  ),
  key(
    'codec_left_context_frames',
    'integer',
    'model default (25)',
    'Frames of already-decoded codes the codec re-decodes before each chunk for continuity.',
    'Each codec step decodes left context + chunk: more context makes every codec step (prefill and decode) longer without adding audio.',
    { minimum: 0 },
  ),
  key(
    'codec_chunk_adaptive',
    'boolean',
    'false',
    'Adaptive chunk ramp: chunk 0 uses a load-dependent initial chunk and later chunks are sized from live buffer-depth feedback. Takes precedence over a fixed `codec_chunk_ramp`.',
    'The first chunk then grows with load, so time to first audio varies with concurrency: compare sessions at the same load. A dynamic first chunk is not the one-frame chunk `talker_first_audio` relies on.',
  ),
  key(
    'codec_chunk_min_frames',
    'integer',
    'model default',
    'Smallest chunk the adaptive ramp emits.',
    'Smaller chunks: more, shorter codec steps.',
  ),
  key(
    'codec_chunk_safety_margin_ms',
    'number',
    'model default',
    'Code2Wav decode + transfer margin the adaptive ramp keeps.',
    'Larger margins make chunks bigger (fewer codec steps, later audio packets).',
  ),
  key(
    'codec_chunk_ramp_divisor',
    'number',
    'model default',
    'Adaptive ramp: EWMA-to-delta divisor (higher = gentler ramp).',
    'Shapes how fast chunk sizes (and codec step times) grow.',
  ),
  key(
    'codec_chunk_ramp_delta_min',
    'integer',
    'model default',
    'Adaptive ramp: minimum chunk-size growth per emit.',
    'Shapes how fast chunk sizes (and codec step times) grow.',
  ),
  key(
    'codec_streaming',
    'boolean',
    'model default',
    'Stream codec codes to Code2Wav chunk by chunk.',
    "With streaming the codec produces audio before the talker finishes: its first output is early and its decode spans the talker's generation.",
  ),
  key(
    'connector_get_sleep_s',
    'number',
    'connector default',
    'Polling interval, in seconds, of a stage waiting for its next chunk from the connector.',
    "Waits are observed with one-poll granularity: a downstream stage's input wait (`vllm_input_wait_ms`, inside `vllm_queued_ms`) can be up to one interval longer than the upstream delay.",
  ),
  key(
    'connector_get_max_wait_first_chunk',
    'number',
    'connector default',
    'Bound on how long a downstream stage polls for its first chunk before giving up.',
    'The wait for the first chunk is input wait: it is in the downstream `vllm_queued_ms` (split out as `vllm_input_wait_ms` on builds that have it). A cold start upstream (JIT, graph capture) can make it tens of seconds.',
  ),
  key(
    'connector_get_max_wait',
    'number',
    'connector default',
    'Bound on how long a stage polls for a later chunk.',
    'Waits for later chunks stay inside the downstream `vllm_decode_ms`.',
  ),
  key(
    'shm_threshold_bytes',
    'integer',
    '65536',
    'Payloads larger than this go through shared memory; smaller ones inline (`--shm-threshold-bytes`).',
    'Changes the transfer rows (`TransferEdgeStats`) of each edge, not the stage split.',
  ),
  key(
    'ref_code_context_frames',
    'integer',
    'model default',
    'Bounds the voice-clone reference context passed to the codec.',
    'Keeps codec chunk lengths (and codec step times) stable across reference-audio durations.',
  ),
  key(
    'ref_audio_artifact_cache_max_entries',
    'integer',
    'model default',
    'Cache of voice-clone reference artifacts (GPU ref codes, speaker embeddings).',
    "Cache misses add preprocessing to the talker's first steps (its prefill); hits remove it.",
  ),
  key(
    'code_predictor_prefix_graphs',
    'boolean',
    'false',
    'CUDA graphs for the Qwen3-TTS code-predictor prefix (talker hot path).',
    'Faster talker steps: lower talker `vllm_decode_ms` / ITL.',
  ),
  key(
    'code_predictor_prefix_graph_buckets',
    'list',
    'unset',
    'Batch buckets captured for the code-predictor prefix graphs.',
    METRICS.engineSpeed,
  ),
  key(
    'code_predictor_prefix_graph_seq_lens',
    'list',
    'unset',
    'Sequence lengths captured for the code-predictor prefix graphs.',
    METRICS.engineSpeed,
  ),
  key(
    'code_predictor_kv_cache',
    'boolean',
    'false',
    'Frame-local KV cache for the code predictor.',
    METRICS.engineSpeed,
  ),
  key(
    'code_predictor_fused_sampling',
    'boolean',
    'false',
    `Fused sampling in the code predictor (a connector \`extra\` key). ${H200_NOTE}; the note says to keep a control with it \`false\` when C64 P99 latency matters most, and that the fused kernels are not bitwise-equivalent.`,
    "Only changes how fast the talker's code predictor runs (its steps: talker `vllm_decode_ms`, ITL); compare sessions with and without it at the same load. Stage Lens has no field of its own for it.",
  ),
  key(
    'codec_cudnn_benchmark',
    'boolean',
    'false',
    `cuDNN algorithm search in the Qwen3-Omni Code2Wav decoder (a connector \`extra\` key; it must be a boolean). ${H200_NOTE}; the note says the search has a start-up cost and restores the process's cuDNN settings on exit, and to keep a control with it \`false\` when C64 P99 latency matters most.`,
    "The search happens when a shape is first used, so the first requests after a boot can be slower (a cold start in the codec's `vllm_decode_ms`); later codec steps may be faster. Compare sessions with and without it.",
  ),
  key(
    'decode_cudagraph_capture_sizes',
    'list',
    'derived from the chunk sizes',
    'Extra stateless decoder shapes to capture as CUDA graphs (ignored with async chunk, where shapes come from the chunk sizes).',
    METRICS.codecGraphs,
  ),
  key('decode_cudagraph_batch_sizes', 'list', '[1]', 'Batch sizes of the decoder CUDA graphs.', METRICS.codecGraphs),
  key('decode_compile_shapes', 'list', 'unset', 'Decoder shapes to compile.', METRICS.codecGraphs),
  key(
    'decode_batch_max_size',
    'integer',
    'model default',
    'Largest eager decoder batch (limits temporary stateful cache allocations).',
    'Larger codec batches raise throughput but make each codec step longer (`vllm_decode_ms`, ITL).',
  ),
  key(
    'decode_batch_bucket_frames',
    'list',
    'unset',
    'Groups uneven terminal windows into frame buckets for batched decoding.',
    METRICS.codecGraphs,
  ),
  key('decode_enable_tf32', 'boolean', 'model default', 'TF32 matmuls in the decoder.', METRICS.engineSpeed),
  key('decode_time_major_conv', 'boolean', 'false', 'Time-major codec convolutions.', METRICS.engineSpeed),
  key(
    'decode_cudnn_benchmark',
    'boolean',
    'false',
    'cuDNN autotuning in the decoder.',
    'Autotuning happens on first use: the first requests after a boot can be slower (cold start).',
  ),
  key(
    'decode_chunk_frames',
    'integer',
    'model default',
    "Chunk size of the decoder's non-streaming path.",
    METRICS.codecGraphs,
  ),
  key(
    'decode_left_context_frames',
    'integer',
    'model default',
    "Left context of the decoder's non-streaming path.",
    METRICS.codecGraphs,
  ),
  key(
    'codec_graph_batch_sizes',
    'list',
    'unset',
    'Qwen3-Omni Code2Wav: decode a streaming step as a few length groups on multi-row CUDA graphs instead of one padded eager call.',
    METRICS.codecGraphs,
  ),
  key(
    'codec_fused_snake',
    'boolean',
    'false',
    `Fused decoder blocks (the Snake activation) in the Qwen3-Omni Code2Wav decoder, on CUDA only (a connector \`extra\` key). ${H200_NOTE}; the note says it explicitly opts CUDA profiles into fused decoder blocks, while the base V1 profile keeps the original blocks.`,
    METRICS.engineSpeed,
  ),
  key(
    'talker_stream_decode',
    'boolean',
    'false',
    'Qwen3-TTS: the talker decodes streamed audio itself (CUDA, MRv2, async chunk, TP=PP=1, prefix caching off).',
    'Audio packets then come from the talker stage: codec-stage fields cover less of the audio.',
  ),
];

export const connectorExtraSchema: MapSchema = {
  name: 'connector extra',
  keys: keyTable(extraKeys),
  unknownKeys: 'typo-only',
};

export const connectorSchema: MapSchema = {
  name: 'connector',
  keys: keyTable([
    key(
      'name',
      'string',
      'required',
      'Connector backend: `SharedMemoryConnector` (single node, lowest latency), `MooncakeTransferEngineConnector`/`MooncakeConnector` (TCP/RDMA, multi-node), `YuanrongConnector`…',
      'Decides the cost of each inter-stage transfer (the `from->to` transfer rows); under async chunk that cost is part of the downstream input wait.',
    ),
    key(
      'extra',
      'map',
      '{}',
      'Backend- and model-specific settings (chunk sizes, first-audio delivery, polling).',
      'See the individual keys: several decide when downstream stages get their input.',
      { children: connectorExtraSchema },
    ),
  ]),
  unknownKeys: 'warn',
};

export const CONNECTOR_SPEC = key(
  '<connector name>',
  'map',
  '—',
  'A named connector definition; stages refer to it by this name in `output_connectors` / `input_connectors`.',
  'Transfer rows (`TransferEdgeStats`) measure its work per edge.',
  { children: connectorSchema },
);
