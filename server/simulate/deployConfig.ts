// Reads the few things the simulator needs from a vLLM-Omni deploy YAML (see
// docs/formats.md#deploy-yaml): stage ids, replicas, max_num_seqs, model_runner, async_chunk and the
// connector extras that shape codec chunks and talker first audio. `base_config`
// overlays are resolved relative to the file: stages merge by stage_id, maps merge
// deeply, anything else is replaced. Deliberately small and local: the full
// deploy-YAML engine lives in server/core/deploy.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { isMap as isYamlMap, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import type { ChunkPlan, ModelRunner, ScenarioName, StageSpec, Topology } from './topology';
import {
  cudaOf,
  cudaStageOf,
  deployConfigFault,
  deployTopology,
  isMap,
  num,
  stageMaps,
  type Json,
  type JsonMap,
} from './deployConfigFit';

export { inferScenario } from './deployConfigFit';

export class DeployConfigError extends Error {}

const MAX_CONFIG_BYTES = 1024 * 1024;

function deepMerge(base: JsonMap, over: JsonMap): JsonMap {
  const out: JsonMap = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const b = out[k];
    if (k === 'stages' && Array.isArray(b) && Array.isArray(v)) out[k] = mergeStages(b, v);
    else if (isMap(b) && isMap(v)) out[k] = deepMerge(b, v);
    else out[k] = v;
  }
  return out;
}

function mergeStages(base: Json[], over: Json[]): Json[] {
  const out = base.map((s) => s);
  for (const s of over) {
    if (!isMap(s)) continue;
    const i = out.findIndex((b) => isMap(b) && b['stage_id'] === s['stage_id']);
    const existing = i >= 0 ? out[i] : undefined;
    if (i >= 0 && isMap(existing)) out[i] = deepMerge(existing, s);
    else out.push(s);
  }
  return out;
}

/** The YAML with its base_config chain applied; `files` lists the chain, the given file first. */
export function loadMergedDeployConfig(
  file: string,
  seen: readonly string[] = [],
): { config: JsonMap; files: string[] } {
  const abs = path.resolve(file);
  if (seen.includes(abs)) throw new DeployConfigError(`base_config cycle through ${abs}`);
  let text: string;
  try {
    // A base_config path is whatever the file says (a FIFO, /dev/zero): only a regular file of a config's size is read.
    const stat = statSync(abs);
    if (!stat.isFile() || stat.size > MAX_CONFIG_BYTES)
      throw new DeployConfigError(`${file} is not a regular file of at most 1 MB`);
    text = readFileSync(abs, 'utf8');
  } catch (e) {
    if (e instanceof DeployConfigError) throw e;
    throw new DeployConfigError(`cannot read deploy config ${file}: ${(e as Error).message}`);
  }
  let doc: unknown;
  const lines = new LineCounter();
  try {
    const document = parseDocument(text, { lineCounter: lines });
    if (document.errors.length > 0) throw document.errors[0];
    doc = document.toJS();
    const duplicate = duplicateStageId(document.get('stages', true), lines);
    if (duplicate !== null) throw new DeployConfigError(`${file} ${duplicate}`);
  } catch (e) {
    if (e instanceof DeployConfigError) throw e;
    throw new DeployConfigError(`${file} is not valid YAML: ${(e as Error).message}`);
  }
  if (!isMap(doc as Json)) throw new DeployConfigError(`${file}: top level must be a mapping`);
  const config = doc as JsonMap;
  const base = config['base_config'];
  if (typeof base !== 'string') return { config, files: [abs] };
  const parent = loadMergedDeployConfig(path.resolve(path.dirname(abs), base), [...seen, abs]);
  const { base_config: _dropped, ...rest } = config;
  return { config: deepMerge(parent.config, rest), files: [abs, ...parent.files] };
}

/**
 * `line 7: stage_id 0 is given twice (first on line 2)`, or null: a server keeps only one of
 * two stages with one id, so a file that gives an id twice says no one pipeline.
 */
function duplicateStageId(stages: unknown, lines: LineCounter): string | null {
  if (!isSeq(stages)) return null;
  const first = new Map<unknown, number>();
  for (const stage of stages.items) {
    if (!isYamlMap(stage)) continue;
    const id = stage.get('stage_id', true);
    if (!isScalar(id) || id.range === undefined || id.range === null) continue;
    const line = lines.linePos(id.range[0]).line;
    const earlier = first.get(id.value);
    if (earlier !== undefined)
      return `line ${line}: stage_id ${String(id.value)} is given twice (first on line ${earlier})`;
    first.set(id.value, line);
  }
  return null;
}

const runner = (v: Json | undefined): ModelRunner | null => (v === 'v1' || v === 'v2' ? v : null);

/**
 * vLLM-Omni's model runner when a deploy config sets none (its schema's default). The scenario's
 * own runner (v2 for Qwen3-TTS, as qwen3_tts.yaml sets it) is not used for a config: a config
 * that leaves the key out runs v1, as analyze's deploy evidence reads it (server/core/deploy).
 */
export const MODEL_RUNNER_DEFAULT: ModelRunner = 'v1';

/** A stage's own model_runner: on the stage, or in its engine_args / engine_extras. */
function stageRunnerOf(stage: JsonMap | null): ModelRunner | null {
  if (stage === null) return null;
  const nested = (key: string): ModelRunner | null => {
    const m = stage[key];
    return isMap(m) ? runner(m['model_runner']) : null;
  };
  return runner(stage['model_runner']) ?? nested('engine_args') ?? nested('engine_extras');
}

/** Connector `extra` keys merged over all connectors (the pipelines here use one). */
function connectorExtra(config: JsonMap): JsonMap {
  let extra: JsonMap = {};
  const connectors = config['connectors'];
  if (isMap(connectors)) {
    for (const c of Object.values(connectors)) if (isMap(c) && isMap(c['extra'])) extra = { ...extra, ...c['extra'] };
  }
  return extra;
}

/** Applies a merged deploy config to a scenario's pipeline. */
export function applyDeployConfig(base: Topology, config: JsonMap, file: string): Topology {
  const fault = deployConfigFault(config, file, base);
  if (fault !== null) throw new DeployConfigError(fault);
  // The stage (its CUDA entry first), then the CUDA section, then the top level, then
  // vLLM-Omni's default: the order of server/core/deploy/stageViews.ts modelRunnerSetting.
  const configRunner =
    runner(cudaOf(config)?.['model_runner']) ?? runner(config['model_runner']) ?? MODEL_RUNNER_DEFAULT;
  const stages: StageSpec[] = stageMaps(config).map((s, i) => {
    const def = base.stages[i]!;
    // Both checked by deployConfigFault.
    const stageId = num(s['stage_id']) as number;
    const replicas = num(s['num_replicas']) ?? 1;
    return {
      ...def,
      stageId,
      replicas,
      maxNumSeqs: num(s['max_num_seqs']) ?? def.maxNumSeqs,
      modelRunner: stageRunnerOf(cudaStageOf(config, stageId)) ?? stageRunnerOf(s) ?? configRunner,
      diffusionProfiler: s['enable_diffusion_pipeline_profiler'] === true,
    };
  });
  const extra = connectorExtra(config);
  const chunkFrames = num(extra['codec_chunk_frames']) ?? base.chunks.chunkFrames;
  const ramp = Array.isArray(extra['codec_chunk_ramp'])
    ? extra['codec_chunk_ramp'].filter((x): x is number => typeof x === 'number' && x > 0)
    : null;
  const chunks: ChunkPlan = {
    chunkFrames,
    initialFrames: num(extra['initial_codec_chunk_frames']) ?? chunkFrames,
    ramp: ramp !== null && ramp.length > 0 ? ramp : null,
  };
  const asyncChunk = typeof config['async_chunk'] === 'boolean' ? config['async_chunk'] : true; // DeployConfig default
  return {
    ...base,
    stages,
    asyncChunk,
    chunks,
    talkerFirstAudioRequested: extra['talker_first_audio'] === true,
    deployConfigPath: file,
  };
}

/**
 * Why the simulator cannot run the deploy config `file` (as `scenario`'s pipeline, else the one
 * its files say): the usage error it would print; null when it can. Reads the file and its bases.
 */
export function deployConfigCannotRun(file: string, scenario?: ScenarioName): string | null {
  try {
    const { config, files } = loadMergedDeployConfig(file);
    return deployConfigFault(config, file, deployTopology(config, files, scenario));
  } catch (e) {
    if (e instanceof DeployConfigError) return e.message;
    throw e;
  }
}
