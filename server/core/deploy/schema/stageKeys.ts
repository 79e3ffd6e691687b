// One entry of `stages:` (vLLM-Omni `StageDeployConfig`): Omni fields, vLLM engine
// arguments and diffusion settings. Unknown keys are passed on to vLLM's engine
// arguments (`engine_extras`), so they are only flagged when they look like a typo.
import { diffusionStageKeys } from './diffusionStageKeys';
import { acceptAll, stageEngineKeys } from './engineArgKeys';
import { key, keyTable, METRICS, type KeySpec, type MapSchema } from './keySpec';
import { samplingSchema } from './samplingKeys';

export const MODEL_RUNNER_SPEC = key(
  'model_runner',
  'string',
  'v1',
  'vLLM Model Runner version: `v1` or `v2`. Set at the top level, per stage, or per platform (`platforms.<name>.model_runner`); NPU and XPU workers do not support `v2`.',
  "Under `v2` with async chunk a non-final autoregressive stage (the Qwen3-TTS talker) emits one output when it stops, so its **`vllm_prefill_ms` also covers its decode steps** and its `vllm_decode_ms` is near 0: read the talker's prefill as prefill + decode. `talker_first_audio` needs `v2`.",
  { values: ['v1', 'v2'] },
);

export const ASYNC_CHUNK_METRICS =
  'A downstream stage is submitted together with stage 0 and its input gate holds the request until the first chunk lands, so its **`vllm_queued_ms` includes the wait for upstream input**. Builds with the input split report it as `vllm_input_wait_ms` (waiting for input) + `vllm_ready_queued_ms` (waiting for a slot once the input was there). Waits for later chunks stay inside `vllm_decode_ms`. Real case: a cold-start codec `vllm_queued_ms` of 86,443 ms was ~86 s of input wait while stage 0 did a one-time JIT build. With `false`, downstream stages wait for the full payload instead.';

/** `to_stage_1` / `from_stage_0`: the connector that carries data to or from the stage the key names. */
const connectorRef =
  (direction: 'to' | 'from') =>
  (name: string): KeySpec => {
    // The schema's pattern (`^to_stage_\d+$`) matched: the stage id is what follows the last `_`.
    const other = `stage ${name.slice(name.lastIndexOf('_') + 1)}`;
    return key(
      name,
      'string',
      '—',
      `The connector (a name under \`connectors\`) that carries data ${direction === 'to' ? `from this stage to ${other}` : `from ${other} into this stage`}.`,
      'Each such edge is a `from->to` column of the transfer rows.',
    );
  };

const runtimeSchema: MapSchema = {
  name: 'runtime',
  keys: keyTable([
    key(
      'devices',
      ['string', 'integer'],
      'unset',
      'Devices for this stage (nested layout).',
      'Stages sharing a device compete for it.',
    ),
    key(
      'num_replicas',
      'integer',
      '1',
      'Replicas of this stage (nested layout).',
      'Each replica reports its own `replica_id`.',
      { minimum: 1 },
    ),
    key('env', 'map', 'unset', "Environment of this stage's process (nested layout).", METRICS.none, {
      children: acceptAll('env'),
    }),
    key('max_batch_size', 'integer', 'unset', 'Deprecated: use `max_num_seqs`.', 'Same as `max_num_seqs`.'),
  ]),
  unknownKeys: 'warn',
};

const omniStageKeys: KeySpec[] = [
  key(
    'stage_id',
    'integer',
    'required',
    "Index of the stage in the model's pipeline. Roles come from the pipeline, not the YAML: Qwen3-TTS 0 talker, 1 code2wav; Qwen3-Omni-MoE 0 thinker, 1 talker, 2 code2wav; GLM-Image 0 AR, 1 diffusion.",
    'The stage column in the metrics tables (`0`, `1`; `1_2` for a later segment of stage 1) and the `stage` label in Prometheus.',
    { required: true, minimum: 0 },
  ),
  key(
    'devices',
    ['string', 'integer'],
    'unset (pipeline default)',
    'Devices for this stage, e.g. `"0"` or `"0,1,2,3"`. Several stages may share one device.',
    "Stages sharing a GPU compete for it: a stage's prefill/decode include the other stages' work.",
  ),
  key(
    'num_replicas',
    'integer',
    '1',
    'Engine replicas of this stage; requests are spread across them.',
    "Each replica reports its own `replica_id` (row and Prometheus label); a stage's distribution mixes its replicas. More replicas lower `vllm_queued_ms` under load, not a request's prefill or decode.",
    { minimum: 1 },
  ),
  key(
    'env',
    'map',
    'unset',
    "Environment variables of this stage's process.",
    'e.g. `VLLM_OMNI_TALKER_FIRST_AUDIO: "0"` turns talker first audio off.',
    { children: acceptAll('env') },
  ),
  key(
    'async_chunk',
    'boolean',
    "the pipeline's `async_chunk`",
    '`false` opts this stage out of pipeline-wide async chunking; both ends of an edge must agree.',
    ASYNC_CHUNK_METRICS,
  ),
  key(
    'output_connectors',
    'map',
    'unset',
    'Connectors this stage sends on, `to_stage_N: <connector name>`.',
    'Each edge is a `from->to` column of the transfer rows.',
    {
      children: {
        name: 'output_connectors',
        keys: keyTable([]),
        patterns: [{ pattern: /^to_stage_\d+$/, spec: connectorRef('to') }],
        unknownKeys: 'warn',
      },
    },
  ),
  key(
    'input_connectors',
    'map',
    'unset',
    'Connectors this stage receives on, `from_stage_N: <connector name>`.',
    'Each edge is a `from->to` column of the transfer rows; under async chunk the wait on it is input wait.',
    {
      children: {
        name: 'input_connectors',
        keys: keyTable([]),
        patterns: [{ pattern: /^from_stage_\d+$/, spec: connectorRef('from') }],
        unknownKeys: 'warn',
      },
    },
  ),
  key(
    'default_sampling_params',
    'map',
    'unset',
    "Default sampling parameters of this stage's requests (merged deeply over a base config).",
    '`max_tokens` / `min_tokens` bound how long the stage decodes: `vllm_decode_ms` scales with output length.',
    { children: samplingSchema },
  ),
  key('default_pooling_params', 'map', 'unset', 'Default pooling parameters (pooling stages).', METRICS.none, {
    children: acceptAll('default_pooling_params'),
  }),
  key(
    'subtalker_sampling_params',
    'map',
    'unset',
    'Sampling of the Qwen3-TTS sub-talker (code predictor).',
    "Runs inside each talker step: part of the talker's step time.",
    { children: samplingSchema },
  ),
  key(
    'silence_ban_frames',
    'integer',
    '0 (off)',
    'Suppress codebook-0 silence tokens for the first N decode frames of every request on this stage (#4966); meant for x-vector-only voice-clone deploys.',
    'Can add talker decode steps at the start of speech.',
    { minimum: 0 },
  ),
  MODEL_RUNNER_SPEC,
  key(
    'runtime',
    'map',
    'unset',
    'Nested layout: `devices`, `num_replicas`, `env` of the stage.',
    'See the individual keys.',
    { children: runtimeSchema },
  ),
  key(
    'engine_extras',
    'map',
    '{}',
    'vLLM engine arguments passed through as they are (merged deeply over a base config).',
    'Depends on the argument.',
    { children: acceptAll('engine_extras') },
  ),
];

const engineArgsSchema: MapSchema = {
  name: 'engine_args',
  keys: keyTable([...stageEngineKeys, ...diffusionStageKeys]),
  unknownKeys: 'typo-only',
};

export const stageSchema: MapSchema = {
  name: 'stage',
  keys: keyTable([
    ...omniStageKeys,
    key(
      'engine_args',
      'map',
      'unset',
      "Nested layout: the stage's vLLM engine arguments (the same keys as the flat layout).",
      'See the individual keys.',
      { children: engineArgsSchema },
    ),
    ...stageEngineKeys,
    ...diffusionStageKeys,
  ]),
  unknownKeys: 'typo-only',
};
