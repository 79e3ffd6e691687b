// What the simulated server runs: the stages of one pipeline and the deploy options
// that change its timing. Stage roles are not in a deploy YAML; they come from the
// model's pipeline, so every scenario fixes them (docs/formats.md#stage-roles).

export type StageKind = 'ar' | 'generation' | 'diffusion';
export type ScenarioName = 'qwen3-tts' | 'qwen3-omni' | 'glm-image' | 'cold-start';
export const SCENARIOS: readonly ScenarioName[] = ['qwen3-tts', 'qwen3-omni', 'glm-image', 'cold-start'];
export type ModelRunner = 'v1' | 'v2';
export type OutputUnitType = 'text' | 'latent' | 'audio' | 'image';

export interface StageSpec {
  readonly stageId: number;
  /** Pipeline role, e.g. `talker`, `code2wav`, `thinker`, `ar`, `diffusion`. */
  readonly role: string;
  readonly kind: StageKind;
  readonly replicas: number;
  readonly maxNumSeqs: number;
  readonly modelRunner: ModelRunner;
  readonly outputUnitType: OutputUnitType;
  /** Diffusion stages: `enable_diffusion_pipeline_profiler` (forward/VAE timings measured). */
  readonly diffusionProfiler: boolean;
}

/** Codec chunking from the connector's `extra` (qwen3_tts.yaml comments). */
export interface ChunkPlan {
  readonly initialFrames: number;
  readonly chunkFrames: number;
  readonly ramp: readonly number[] | null;
}

export interface Topology {
  readonly scenario: ScenarioName;
  readonly model: string;
  readonly stages: readonly StageSpec[];
  readonly asyncChunk: boolean;
  /** `talker_first_audio` as configured; whether it takes effect is decided by `talkerFirstAudioActive`. */
  readonly talkerFirstAudioRequested: boolean;
  readonly chunks: ChunkPlan;
  /** Where the stages came from, for the startup lines. */
  readonly deployConfigPath: string | null;
}

const stage = (
  stageId: number,
  role: string,
  kind: StageKind,
  outputUnitType: OutputUnitType,
  modelRunner: ModelRunner,
  maxNumSeqs = 64,
): StageSpec => ({
  stageId,
  role,
  kind,
  replicas: 1,
  maxNumSeqs,
  modelRunner,
  outputUnitType,
  diffusionProfiler: false,
});

/** The built-in pipelines, matching the deploy YAMLs they are named after. */
export function scenarioTopology(scenario: ScenarioName): Topology {
  switch (scenario) {
    case 'qwen3-tts':
    case 'cold-start':
      // qwen3_tts.yaml: model_runner v2, async_chunk, initial_codec_chunk_frames 1.
      return {
        scenario,
        model: 'Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice',
        asyncChunk: true,
        talkerFirstAudioRequested: false,
        stages: [stage(0, 'talker', 'ar', 'latent', 'v2'), stage(1, 'code2wav', 'generation', 'audio', 'v2')],
        chunks: { initialFrames: 1, chunkFrames: 25, ramp: null },
        deployConfigPath: null,
      };
    case 'qwen3-omni':
      // qwen3_omni_moe.yaml: every stage on V1, async_chunk, 25-frame codec chunks.
      return {
        scenario,
        model: 'Qwen/Qwen3-Omni-30B-A3B-Instruct',
        asyncChunk: true,
        talkerFirstAudioRequested: false,
        stages: [
          stage(0, 'thinker', 'ar', 'text', 'v1'),
          stage(1, 'talker', 'ar', 'latent', 'v1'),
          stage(2, 'code2wav', 'generation', 'audio', 'v1'),
        ],
        chunks: { initialFrames: 25, chunkFrames: 25, ramp: null },
        deployConfigPath: null,
      };
    case 'glm-image':
      // glm_image.yaml: async_chunk false, max_num_seqs 1 on both stages.
      return {
        scenario,
        model: 'zai-org/GLM-Image',
        asyncChunk: false,
        talkerFirstAudioRequested: false,
        stages: [stage(0, 'ar', 'ar', 'latent', 'v1', 1), stage(1, 'diffusion', 'diffusion', 'image', 'v1', 1)],
        chunks: { initialFrames: 25, chunkFrames: 25, ramp: null },
        deployConfigPath: null,
      };
  }
}

/**
 * Talker first audio only takes effect with Model Runner V2 and async chunk on a
 * talker that feeds a codec (docs/formats.md#numbers-that-lie-in-known-ways). Returns the codec stage id, or null.
 */
export function talkerFirstAudioCodec(t: Topology): number | null {
  if (!t.talkerFirstAudioRequested || !t.asyncChunk) return null;
  for (let i = 1; i < t.stages.length; i++) {
    const up = t.stages[i - 1]!;
    const codec = t.stages[i]!;
    if (codec.kind === 'generation' && up.kind === 'ar' && up.role === 'talker' && up.modelRunner === 'v2')
      return codec.stageId;
  }
  return null;
}

/** Frames in codec chunk `index` (0-based), per the ramp or the initial/steady sizes. */
export function chunkFrames(plan: ChunkPlan, index: number): number {
  if (plan.ramp !== null && plan.ramp.length > 0) return plan.ramp[index] ?? plan.chunkFrames;
  return index === 0 ? plan.initialFrames : plan.chunkFrames;
}
