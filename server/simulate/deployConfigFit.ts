// Whether the simulator can run a deploy config, and as which built-in pipeline: a pipeline
// is picked by the files' names (else the stage count), and the config must have that
// pipeline's number of stages, each with a valid stage_id and num_replicas. Pure (no I/O, no
// node:*), on the config already read and merged: the simulator applies it before simulating a
// file, and Start Demo Server asks the same question before it launches one.
import { scenarioTopology, type ScenarioName, type Topology } from './topology';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonMap = { [key: string]: Json };

export const isMap = (v: Json | undefined): v is JsonMap => typeof v === 'object' && v !== null && !Array.isArray(v);
export const num = (v: Json | undefined): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** The last segment of a path, / or \ separated. */
const fileName = (p: string): string => p.slice(Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\')) + 1);

/** Which built-in pipeline a deploy file describes, from its name chain, else its stage count. */
export function inferScenario(files: readonly string[], stageCount: number): ScenarioName {
  const names = files.map((f) => fileName(f).toLowerCase()).join(' ');
  if (names.includes('glm_image') || names.includes('glm-image')) return 'glm-image';
  if (names.includes('omni')) return 'qwen3-omni';
  if (names.includes('tts')) return 'qwen3-tts';
  return stageCount >= 3 ? 'qwen3-omni' : 'qwen3-tts';
}

/** Entries of the config's `stages` list (0 when it has none). */
export const stageCount = (config: JsonMap): number => (Array.isArray(config['stages']) ? config['stages'].length : 0);

/** The stage maps in stage_id order. */
export function stageMaps(config: JsonMap): JsonMap[] {
  const raw = config['stages'];
  return Array.isArray(raw)
    ? raw.filter(isMap).sort((a, b) => (num(a['stage_id']) ?? 0) - (num(b['stage_id']) ?? 0))
    : [];
}

/**
 * Why the simulator cannot run `config` (merged, its bases applied) as `base`'s pipeline, in
 * the words of its usage error; null when it can. `file` names the config in the message.
 */
export function deployConfigFault(config: JsonMap, file: string, base: Topology): string | null {
  if (stageCount(config) === 0) return `${file}: no stages`;
  const stages = stageMaps(config);
  if (stages.length !== base.stages.length)
    return `${file} has ${stages.length} stages; scenario ${base.scenario} runs ${base.stages.length}`;
  for (const [i, s] of stages.entries()) {
    const stageId = num(s['stage_id']);
    if (stageId === null || !Number.isInteger(stageId) || stageId < 0)
      return `${file}: stage ${i} has no valid stage_id`;
    const replicas = num(s['num_replicas']) ?? 1;
    if (!Number.isInteger(replicas) || replicas < 1)
      return `${file}: stage ${stageId}: num_replicas must be a positive integer`;
    if (replicas > MAX_REPLICAS)
      return `${file}: stage ${stageId}: num_replicas ${replicas}: the simulator runs at most ${MAX_REPLICAS} replicas of a stage`;
    if (s['max_num_seqs'] !== undefined) {
      const seqs = num(s['max_num_seqs']);
      if (seqs === null || !Number.isInteger(seqs) || seqs < 1)
        return `${file}: stage ${stageId}: max_num_seqs must be a positive integer (got ${valueText(s['max_num_seqs'])})`;
    }
    const stageFault =
      settingFault(s, `stage ${stageId}: `) ??
      settingFault(cudaStageOf(config, stageId), `platforms.cuda stage ${stageId}: `);
    if (stageFault !== null) return `${file}: ${stageFault}`;
  }
  const fault = settingFault(config, '') ?? settingFault(cudaOf(config), 'platforms.cuda: ');
  return fault === null ? null : `${file}: ${fault}`;
}

/** Replicas of one stage the simulator runs (a real server is bounded by its GPUs). */
export const MAX_REPLICAS = 64;

const valueText = (v: Json | undefined): string =>
  typeof v === 'string' ? `'${v}'` : (JSON.stringify(v) ?? 'nothing');

/**
 * What vLLM-Omni refuses in a section's settings: a model_runner other than v1 or v2 (on the
 * section or in its engine_args / engine_extras) and an async_chunk that is not true or false.
 * The server stops at start-up on them; the simulator does not run them as something else.
 */
function settingFault(section: JsonMap | null, where: string): string | null {
  if (section === null) return null;
  for (const [path, holder] of [
    ['', section],
    ['engine_args.', section['engine_args']],
    ['engine_extras.', section['engine_extras']],
  ] as const) {
    if (!isMap(holder ?? null)) continue;
    const runner = (holder as JsonMap)['model_runner'];
    if (runner !== undefined && runner !== 'v1' && runner !== 'v2')
      return `${where}${path}model_runner must be v1 or v2 (vLLM-Omni rejects ${valueText(runner)})`;
  }
  const asyncChunk = section['async_chunk'];
  if (asyncChunk !== undefined && typeof asyncChunk !== 'boolean')
    return `${where}async_chunk must be true or false (got ${valueText(asyncChunk)})`;
  return null;
}

/** The CUDA platform section (platforms.cuda; other platforms' sections do not apply to a GPU server), or null. */
export function cudaOf(config: JsonMap): JsonMap | null {
  const platforms = config['platforms'];
  const cuda = isMap(platforms) ? platforms['cuda'] : undefined;
  return isMap(cuda) ? cuda : null;
}

/** The CUDA section's entry for a stage (platforms.cuda.stages[stage_id]), or null. */
export function cudaStageOf(config: JsonMap, stageId: number): JsonMap | null {
  const stages = cudaOf(config)?.['stages'];
  const found = Array.isArray(stages) ? stages.find((s) => isMap(s) && s['stage_id'] === stageId) : undefined;
  return isMap(found) ? found : null;
}

/** The pipeline the simulator runs `config` as: `scenario` when given, else the one its files say. */
export function deployTopology(config: JsonMap, files: readonly string[], scenario?: ScenarioName): Topology {
  return scenarioTopology(scenario ?? inferScenario(files, stageCount(config)));
}
