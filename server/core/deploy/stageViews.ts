// Questions about the effective config that the checks and the hover share: which
// stages exist, which value a stage runs with (stage, nested engine args, platform
// override, pipeline-wide default), and which stage sends to which over which connector.
import { entryOf, isList, isMap, isScalar, stageIdOf, valueOf, type ConfigEntry, type ConfigMap } from './configTree';

/** Talker first audio and the CUDA-only settings are judged for CUDA, the default platform. */
export const DEFAULT_PLATFORM = 'cuda';

/** Top-level engine args that vLLM-Omni applies to every stage (`_PIPELINE_WIDE_ENGINE_FIELDS`). */
const PIPELINE_WIDE = new Set([
  'trust_remote_code',
  'distributed_executor_backend',
  'dtype',
  'quantization',
  'enable_prefix_caching',
  'enable_chunked_prefill',
  'data_parallel_size',
  'pipeline_parallel_size',
  'active_stream_window',
  'custom_voice_dir',
  'async_chunk',
]);

export interface StageView {
  readonly id: number;
  readonly stage: ConfigMap;
  /** The `platforms.<platform>.stages` entry for this stage, if any. */
  readonly platformStage: ConfigMap | undefined;
}

export function stageViews(root: ConfigMap, platform = DEFAULT_PLATFORM): StageView[] {
  const stages = valueOf(root, 'stages');
  if (!isList(stages)) return [];
  const overrides = platformStages(root, platform);
  const views: StageView[] = [];
  for (const stage of stages.items) {
    const id = stageIdOf(stage);
    if (id === null || !isMap(stage)) continue;
    views.push({ id, stage, platformStage: overrides.get(id) });
  }
  return views;
}

function platformStages(root: ConfigMap, platform: string): Map<number, ConfigMap> {
  const result = new Map<number, ConfigMap>();
  const stages = valueOf(valueOf(valueOf(root, 'platforms'), platform), 'stages');
  if (!isList(stages)) return result;
  for (const stage of stages.items) {
    const id = stageIdOf(stage);
    if (id !== null && isMap(stage)) result.set(id, stage);
  }
  return result;
}

/** The entry a stage's engine runs with for `key`, most specific first; undefined when unset. */
export function stageSetting(root: ConfigMap, view: StageView, key: string): ConfigEntry | undefined {
  return (
    ownSetting(view.platformStage, key) ??
    ownSetting(view.stage, key) ??
    (PIPELINE_WIDE.has(key) ? entryOf(root, key) : undefined)
  );
}

function ownSetting(stage: ConfigMap | undefined, key: string): ConfigEntry | undefined {
  if (!stage) return undefined;
  return (
    entryOf(stage, key) ?? entryOf(valueOf(stage, 'engine_args'), key) ?? entryOf(valueOf(stage, 'engine_extras'), key)
  );
}

/** model_runner: stage, then the platform section, then the top level. */
export function modelRunnerSetting(
  root: ConfigMap,
  view: StageView | undefined,
  platform = DEFAULT_PLATFORM,
): ConfigEntry | undefined {
  return (
    (view ? (ownSetting(view.platformStage, 'model_runner') ?? ownSetting(view.stage, 'model_runner')) : undefined) ??
    entryOf(valueOf(valueOf(root, 'platforms'), platform), 'model_runner') ??
    entryOf(root, 'model_runner')
  );
}

export interface StageEdge {
  readonly from: number;
  readonly to: number;
  /** The connector name as written (may name an undefined connector). */
  readonly connector: string | null;
  /** The `to_stage_N` / `from_stage_N` entry that declares the edge. */
  readonly entry: ConfigEntry;
}

const EDGE_KEY = { output_connectors: /^to_stage_(\d+)$/, input_connectors: /^from_stage_(\d+)$/ } as const;

/** Edges declared by the stages' `output_connectors` and `input_connectors`. */
export function connectorEdges(views: readonly StageView[]): StageEdge[] {
  const edges: StageEdge[] = [];
  for (const view of views) {
    for (const field of ['output_connectors', 'input_connectors'] as const) {
      const connectors = valueOf(view.stage, field);
      if (!isMap(connectors)) continue;
      for (const [key, entry] of connectors.entries) {
        const match = EDGE_KEY[field].exec(key);
        if (!match) continue;
        const other = Number(match[1]);
        const connector = isScalar(entry.value) && typeof entry.value.value === 'string' ? entry.value.value : null;
        edges.push(
          field === 'output_connectors'
            ? { from: view.id, to: other, connector, entry }
            : { from: other, to: view.id, connector, entry },
        );
      }
    }
  }
  return edges;
}

/** A boolean setting as vLLM-Omni's `_parse_bool_config` reads it (`true`, `"1"`, `"yes"`…). */
export function readsAsTrue(entry: ConfigEntry | undefined): boolean {
  if (!entry || !isScalar(entry.value)) return false;
  const value = entry.value.value;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  return typeof value === 'string' && ['1', 'true', 'yes', 'on'].includes(value.trim().toLowerCase());
}

export function readsAsFalse(entry: ConfigEntry | undefined): boolean {
  if (!entry || !isScalar(entry.value)) return false;
  const value = entry.value.value;
  if (typeof value === 'boolean') return !value;
  if (typeof value === 'number') return value === 0;
  return typeof value === 'string' && ['0', 'false', 'no', 'off'].includes(value.trim().toLowerCase());
}

export function integerOf(entry: ConfigEntry | undefined): number | null {
  if (!entry || !isScalar(entry.value)) return null;
  const value = entry.value.value;
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value)) return Number(value);
  return null;
}
