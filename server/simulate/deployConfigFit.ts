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
  }
  return null;
}

/** The pipeline the simulator runs `config` as: `scenario` when given, else the one its files say. */
export function deployTopology(config: JsonMap, files: readonly string[], scenario?: ScenarioName): Topology {
  return scenarioTopology(scenario ?? inferScenario(files, stageCount(config)));
}
