// Per-stage settings of diffusion stages (vLLM-Omni `StageDeployConfig`, diffusion
// section). They never change the LLM split (diffusion stages report none of it).
import { key, METRICS, type KeySpec } from './keySpec';
import { acceptAll } from './engineArgKeys';

const integer = (name: string, description: string): KeySpec =>
  key(name, 'integer', 'unset (pipeline default)', description, METRICS.diffusion);
const flag = (name: string, description: string): KeySpec =>
  key(name, 'boolean', 'unset (pipeline default)', description, METRICS.diffusion);
const text = (name: string, description: string): KeySpec =>
  key(name, 'string', 'unset (pipeline default)', description, METRICS.diffusion);
const map = (name: string, description: string): KeySpec =>
  key(name, 'map', 'unset', description, METRICS.diffusion, { children: acceptAll(name) });

export const diffusionStageKeys: KeySpec[] = [
  integer('ulysses_degree', 'Ulysses sequence-parallel degree.'),
  text('ulysses_mode', 'Ulysses sequence-parallel mode.'),
  flag('ulysses_a2a_permute', 'Permute in the Ulysses all-to-all.'),
  integer('ring_degree', 'Ring-attention degree.'),
  integer('allgather_degree', 'All-gather parallel degree.'),
  integer('context_parallel_degree', 'Context-parallel degree.'),
  integer('sequence_parallel_size', 'Sequence-parallel size.'),
  integer('cfg_parallel_size', 'Classifier-free-guidance parallel size.'),
  integer('vae_patch_parallel_size', 'VAE patch-parallel size.'),
  text('vae_parallel_mode', 'VAE parallel mode.'),
  integer('text_encoder_tp_size', 'Tensor-parallel size of the text encoder.'),
  flag('use_hsdp', 'Hybrid sharded data parallel.'),
  integer('hsdp_shard_size', 'HSDP shard size.'),
  integer('hsdp_replicate_size', 'HSDP replicate size.'),
  text('model_class_name', 'Diffusion pipeline class.'),
  text('diffusion_load_format', 'Diffusion weight loading format.'),
  key('lora_path', ['string', 'list'], 'unset', 'LoRA adapter path(s).', METRICS.diffusion),
  text('lora_backend', 'LoRA backend.'),
  key('lora_scale', 'number', 'unset', 'LoRA scale.', METRICS.diffusion),
  map('diffusers_load_kwargs', 'Extra arguments to the diffusers loader.'),
  map('diffusers_call_kwargs', 'Extra arguments to the diffusers pipeline call.'),
  text('diffusion_quantization_config', 'Diffusion quantization.'),
  text('diffusion_attention_backend', 'Diffusion attention backend.'),
  integer('fastvideo_vsa_topk', 'FastVideo VSA top-k.'),
  map('diffusion_attention_config', 'Diffusion attention settings.'),
  text('diffusion_compile_granularity', 'torch.compile granularity.'),
  flag('diffusion_compile_dynamic', 'Dynamic shapes in torch.compile.'),
  flag('fa_deterministic', 'Deterministic flash attention.'),
  text('cache_backend', 'Step cache backend (e.g. cache-dit, TeaCache).'),
  map('cache_config', 'Step cache settings.'),
  map('video_output_transport', 'How video output is transported.'),
  flag('enable_cache_dit_summary', 'Log a cache-dit summary.'),
  flag('step_execution', 'Step-wise execution.'),
  flag('vae_use_slicing', 'VAE slicing.'),
  flag('vae_use_tiling', 'VAE tiling.'),
  key(
    'boundary_ratio',
    'number',
    'unset',
    'Boundary ratio between expert models (two-stage video models).',
    METRICS.diffusion,
  ),
  key('flow_shift', 'number', 'unset', 'Flow-matching shift.', METRICS.diffusion),
  text('diffusion_kv_cache_dtype', 'Diffusion KV-cache dtype.'),
  text('diffusion_kv_cache_skip_steps', 'Steps that skip the diffusion KV cache.'),
  text('diffusion_kv_cache_skip_layers', 'Layers that skip the diffusion KV cache.'),
  text('auxiliary_text_encoder', 'Auxiliary text encoder.'),
  flag('enable_multithread_weight_load', 'Multithreaded weight loading.'),
  flag('enable_broadcast_weight_load', 'Broadcast weight loading.'),
  integer('num_weight_load_threads', 'Weight loading threads.'),
  map('diffusion_offload_config', 'CPU offload settings.'),
  flag('enable_cpu_offload', 'CPU offload (compatibility alias).'),
  flag('enable_layerwise_offload', 'Layer-wise offload (compatibility alias).'),
  flag('enable_distributed_layerwise_offload', 'Distributed layer-wise offload.'),
  flag('dlo_use_allgather', 'Distributed layer-wise offload: all-gather.'),
  integer('dlo_resident_layers', 'Distributed layer-wise offload: resident layers.'),
  text('host_weight_runtime_mode', 'Host weight runtime mode.'),
  text('host_weight_runtime_root', 'Host weight runtime root.'),
  key(
    'dlo_host_registration_limit_gib',
    'number',
    'unset',
    'Distributed layer-wise offload: host registration limit.',
    METRICS.diffusion,
  ),
  key(
    'enable_diffusion_pipeline_profiler',
    'boolean',
    'false',
    'Record per-phase diffusion timings (with `--log-stats`).',
    'Adds the diffusion timings to the stats; keys are written only once measured, so a missing key is not 0.',
  ),
  integer('max_generated_image_size', 'Largest image the service generates.'),
  integer('tts_max_instructions_length', 'Longest TTS instruction accepted.'),
];
