// The top level of a deploy YAML (vLLM-Omni `DeployConfig`) and the `platforms` block.
// vLLM-Omni reads known top-level keys and ignores the rest, so an unknown top-level key
// is always worth a warning.
import { CONNECTOR_SPEC } from './connectorKeys';
import { acceptAll, pipelineWideEngineKeys } from './engineArgKeys';
import { key, keyTable, METRICS, type KeySpec, type MapSchema } from './keySpec';
import { ASYNC_CHUNK_METRICS, MODEL_RUNNER_SPEC, stageSchema } from './stageKeys';

const duplexSchema: MapSchema = {
  name: 'duplex_session',
  keys: keyTable([
    key('idle_ttl_s', 'number', '300', 'Idle session lifetime in seconds (`null` = no limit).', METRICS.none),
    key('disconnect_grace_s', 'number', '30', 'Grace period after a client disconnects.', METRICS.none),
    key('reaper_interval_s', 'number', '5', 'How often idle sessions are reaped.', METRICS.none),
    key('resume_replay_ttl_s', 'number', '60', 'How long output is kept for a resumed session.', METRICS.none),
    key('resume_replay_max_bytes_per_session', 'integer', '8 MiB', 'Replay buffer per session.', METRICS.none),
    key('max_pending_input_bytes_per_session', 'integer', '16 MiB', 'Input buffered per session.', METRICS.none),
    key(
      'max_pending_turns_per_session',
      'integer',
      '4',
      'Turns queued per session.',
      'Queued turns wait before any stage sees them: that wait is in no stage field.',
    ),
    key(
      'max_sessions',
      'integer',
      '1',
      'Concurrent duplex sessions; also the engine admission limit of every stage.',
      'Sessions beyond it wait before any stage sees them: that wait is in no stage field.',
    ),
    key(
      'completed_append_cache_size',
      'integer',
      '256',
      'Unused by current builds; kept so older configs parse.',
      METRICS.none,
    ),
    key('server_vad_model_path', 'string', 'unset', 'Server-side voice-activity model.', METRICS.none),
    key(
      'warmup_frames',
      'integer',
      '0',
      'Silent frames run at start-up before clients are admitted (negative disables every warm-up).',
      'A warm-up keeps compilation out of the first real request: no cold-start outlier.',
    ),
  ]),
  unknownKeys: 'warn',
};

const platformSectionSchema: MapSchema = {
  name: 'platform',
  keys: keyTable([
    MODEL_RUNNER_SPEC,
    key(
      'stages',
      'list',
      'unset',
      'Stage overrides for this platform, merged by `stage_id` into the stages.',
      'Numbers from this platform run with these overrides.',
      { items: stageSchema },
    ),
  ]),
  unknownKeys: 'warn',
};

const platformSpec = (name: string, label: string): KeySpec =>
  key(
    name,
    'map',
    'unset',
    `Overrides applied when the server runs on ${label}: a \`model_runner\` and \`stages\` entries merged by \`stage_id\`.`,
    'Compare sessions of the same platform only: their stage settings differ.',
    { children: platformSectionSchema },
  );

const platformsSchema: MapSchema = {
  name: 'platforms',
  keys: keyTable([
    platformSpec('cuda', 'NVIDIA CUDA (normally the top-level settings are the CUDA ones)'),
    platformSpec('rocm', 'AMD ROCm'),
    platformSpec('npu', 'Ascend NPU'),
    platformSpec('xpu', 'Intel XPU'),
    platformSpec('musa', 'Moore Threads MUSA'),
    platformSpec('cpu', 'CPU'),
    platformSpec('tpu', 'TPU'),
  ]),
  unknownKeys: 'typo-only',
};

const topLevelKeys: KeySpec[] = [
  key(
    'base_config',
    'string',
    'unset',
    "Overlay inheritance: this file is applied on top of the named file (relative to this file's folder; the base may have its own `base_config`). Top-level keys replace the base's; `connectors` merge deeply; `stages` and each platform's `stages` merge by `stage_id`, where a stage's keys replace the base's except `default_sampling_params`, `subtalker_sampling_params`, `engine_args` and `engine_extras`, which merge deeply.",
    'A session launched with an overlay runs the merged settings: compare it with sessions of the base to see what the overlay changed. Hover a `stage_id` for the effective values of that stage and the file each comes from.',
  ),
  key(
    'pipeline',
    'string',
    'inferred from the model',
    'Selects a registered pipeline topology when it is not inferred (e.g. `qwen3_tts_fused`).',
    'Decides which stages exist and what a stage id means in the metrics: stage numbers of a fused pipeline are not comparable with the unfused one.',
  ),
  MODEL_RUNNER_SPEC,
  key(
    'async_chunk',
    'boolean',
    'true (`--async-chunk` / `--no-async-chunk` override it)',
    "Stream each stage's output to the next stage in chunks instead of one full payload.",
    ASYNC_CHUNK_METRICS,
  ),
  key(
    'session_mode',
    'string',
    'turn',
    '`turn` (request/response) or `duplex` (full-duplex realtime sessions, limits in `duplex_session`).',
    "In duplex mode a request's intervals span a session turn, not one HTTP request.",
  ),
  key(
    'active_stream_window',
    'integer',
    '0 (off: every stream cycles)',
    'Active stream slots of stage 1: only this many streams receive chunks at a time.',
    'A request without an active-stream slot gets no chunks, so **its wait for a slot counts as input wait** (`vllm_input_wait_ms`), not as `vllm_ready_queued_ms`: a large input wait with a small window can be slot contention rather than a slow upstream stage.',
    { minimum: 0 },
  ),
  key(
    'duplex_session',
    'map',
    'built-in limits',
    'Lifecycle and buffering limits of duplex sessions.',
    'See the individual keys.',
    { children: duplexSchema },
  ),
  key(
    'cuda_mps',
    'boolean',
    'false',
    "Start one private NVIDIA MPS daemon shared by this pipeline's stages and stop it when they exit (single-GPU profiles). Needs `nvidia-cuda-mps-control` on PATH.",
    "Stages on one GPU then run kernels concurrently: each stage's prefill and decode include contention with the other stages. Warm the pipeline before measuring.",
  ),
  key(
    'connectors',
    'map',
    'unset (shared memory between stages)',
    'Named connectors that move data between stages; stages refer to them by name.',
    'Transfer rows (`TransferEdgeStats`) measure their work per edge.',
    {
      children: { name: 'connectors', keys: keyTable([]), anyKey: CONNECTOR_SPEC, unknownKeys: 'accept' },
    },
  ),
  key(
    'edges',
    'list',
    'from the pipeline',
    'Explicit stage edges (normally inferred from the pipeline); each a map such as `{from: 0, to: 1}`.',
    'Each edge is a `from->to` column of the transfer rows.',
    { items: acceptAll('edge') },
  ),
  key(
    'stages',
    'list',
    '[]',
    'Per-stage deployment settings, one entry per `stage_id`.',
    'Stage ids here are the stage columns of the metrics.',
    { items: stageSchema },
  ),
  key(
    'platforms',
    'map',
    'unset',
    'Per-platform overrides (`npu`, `rocm`, `xpu`, `musa`); CUDA uses the top-level settings.',
    'Compare sessions of the same platform only.',
    { children: platformsSchema },
  ),
  ...pipelineWideEngineKeys.map((spec) => ({
    ...spec,
    description: `${spec.description} At the top level it applies to every stage; a stage's own value wins.`,
  })),
  key('custom_voice_dir', 'string', 'unset', 'Folder of custom voice profiles (Qwen3-TTS).', METRICS.none),
];

export const topLevelSchema: MapSchema = { name: 'top level', keys: keyTable(topLevelKeys), unknownKeys: 'warn' };
