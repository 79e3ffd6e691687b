// How vLLM-Omni merges a `base_config` overlay onto its base (vllm_omni/config/
// stage_config.py, `resolve_deploy_yaml`), applied to located trees so the result still
// says where each value was written:
//   - top-level keys: the overlay's value replaces the base's (no deep merge);
//   - `connectors`: merged recursively, map into map;
//   - `stages`: merged by `stage_id`; within a stage the overlay's keys replace the base's,
//     except the sampling/pooling params, `engine_args` and `engine_extras`, merged
//     recursively; a new stage id is appended;
//   - `platforms`: per platform the overlay's keys replace the base's, and the platform's
//     `stages` merge by `stage_id` like the top-level ones.
// So `compilation_config` or `env` in an overlay stage replace the base's wholesale, as
// they do on the server.
import {
  isList,
  isMap,
  MAX_WALK_DEPTH,
  MAX_WALK_NODES,
  stageIdOf,
  type ConfigEntry,
  type ConfigList,
  type ConfigMap,
  type ConfigValue,
} from './configTree';

const STAGE_DEEP_MERGE_KEYS = new Set([
  'default_sampling_params',
  'default_pooling_params',
  'subtalker_sampling_params',
  'engine_extras',
  'engine_args',
]);

export function mergeOverlay(base: ConfigMap, overlay: ConfigMap): ConfigMap {
  const deep = new DeepMerge();
  const entries = new Map(base.entries);
  entries.delete('base_config');
  for (const [key, entry] of overlay.entries) {
    if (key === 'base_config') continue;
    const old = entries.get(key);
    if (key === 'connectors') entries.set(key, mergedEntry(old, entry, deep.merge));
    else if (key === 'stages')
      entries.set(
        key,
        mergedEntry(old, entry, (b, o) => mergeStageLists(b, o, deep)),
      );
    else if (key === 'platforms')
      entries.set(
        key,
        mergedEntry(old, entry, (b, o) => mergePlatforms(b, o, deep)),
      );
    else entries.set(key, replacing(entry, old));
  }
  return { kind: 'map', entries, location: overlay.location };
}

/**
 * A recursive map merge: maps merge key by key, anything else is replaced. Maps shared
 * through aliases on both sides are merged once per pair (an alias bomb on both sides
 * would otherwise be merged along every path); past MAX_WALK_DEPTH levels or
 * MAX_WALK_NODES merged pairs the overlay's value is taken whole.
 */
export class DeepMerge {
  private readonly done = new Map<ConfigValue, Map<ConfigValue, ConfigValue>>();
  private pairs = 0;

  readonly merge = (base: ConfigValue, overlay: ConfigValue): ConfigValue => this.at(base, overlay, 0);

  private at(base: ConfigValue, overlay: ConfigValue, depth: number): ConfigValue {
    if (!isMap(base) || !isMap(overlay)) return overlay;
    const known = this.done.get(base)?.get(overlay);
    if (known) return known;
    if (depth >= MAX_WALK_DEPTH || ++this.pairs > MAX_WALK_NODES) return overlay;
    const entries = new Map(base.entries);
    for (const [key, entry] of overlay.entries)
      entries.set(
        key,
        mergedEntry(entries.get(key), entry, (b, o) => this.at(b, o, depth + 1)),
      );
    const merged: ConfigMap = { kind: 'map', entries, location: overlay.location };
    let byOverlay = this.done.get(base);
    if (!byOverlay) {
      byOverlay = new Map();
      this.done.set(base, byOverlay);
    }
    byOverlay.set(overlay, merged);
    return merged;
  }
}

export function deepMerge(base: ConfigValue, overlay: ConfigValue): ConfigValue {
  return new DeepMerge().merge(base, overlay);
}

function mergeStageLists(base: ConfigValue, overlay: ConfigValue, deep: DeepMerge): ConfigValue {
  if (!isList(base) || !isList(overlay)) return overlay;
  const byId = new Map<number, ConfigValue>();
  const withoutId: ConfigValue[] = [];
  for (const stage of base.items) addStage(byId, withoutId, stage, (_old, next) => next);
  for (const stage of overlay.items) addStage(byId, withoutId, stage, (old, next) => mergeStage(old, next, deep));
  const items: ConfigValue[] = [...byId.values(), ...withoutId];
  const merged: ConfigList = { kind: 'list', items, location: overlay.location };
  return merged;
}

function addStage(
  byId: Map<number, ConfigValue>,
  withoutId: ConfigValue[],
  stage: ConfigValue,
  combine: (old: ConfigValue, next: ConfigValue) => ConfigValue,
): void {
  const id = stageIdOf(stage);
  if (id === null) {
    withoutId.push(stage); // the server would fail on it; the checks report it
    return;
  }
  const old = byId.get(id);
  byId.set(id, old ? combine(old, stage) : stage);
}

function mergeStage(base: ConfigValue, overlay: ConfigValue, deep: DeepMerge): ConfigValue {
  if (!isMap(base) || !isMap(overlay)) return overlay;
  const entries = new Map(base.entries);
  for (const [key, entry] of overlay.entries) {
    const old = entries.get(key);
    entries.set(key, STAGE_DEEP_MERGE_KEYS.has(key) ? mergedEntry(old, entry, deep.merge) : replacing(entry, old));
  }
  return { kind: 'map', entries, location: overlay.location };
}

function mergePlatforms(base: ConfigValue, overlay: ConfigValue, deep: DeepMerge): ConfigValue {
  if (!isMap(base) || !isMap(overlay)) return overlay;
  const entries = new Map(base.entries);
  for (const [name, entry] of overlay.entries) {
    entries.set(
      name,
      mergedEntry(entries.get(name), entry, (b, o) => mergePlatform(b, o, deep)),
    );
  }
  return { kind: 'map', entries, location: overlay.location };
}

function mergePlatform(base: ConfigValue, overlay: ConfigValue, deep: DeepMerge): ConfigValue {
  if (!isMap(base) || !isMap(overlay)) return overlay;
  const entries = new Map(base.entries);
  for (const [key, entry] of overlay.entries) {
    const old = entries.get(key);
    entries.set(
      key,
      key === 'stages' ? mergedEntry(old, entry, (b, o) => mergeStageLists(b, o, deep)) : replacing(entry, old),
    );
  }
  return { kind: 'map', entries, location: overlay.location };
}

function mergedEntry(
  old: ConfigEntry | undefined,
  entry: ConfigEntry,
  merge: (base: ConfigValue, overlay: ConfigValue) => ConfigValue,
): ConfigEntry {
  if (!old) return entry;
  return { ...entry, value: merge(old.value, entry.value), replaced: old };
}

function replacing(entry: ConfigEntry, old: ConfigEntry | undefined): ConfigEntry {
  return old ? { ...entry, replaced: old } : entry;
}
