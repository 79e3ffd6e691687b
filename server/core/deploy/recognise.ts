// Whether a YAML text is a vLLM-Omni deploy config, decided by content and never by file
// name: a top-level `stages` list of maps with `stage_id`, or a `base_config` overlay.
import { entryOf, isList, isMap, type ConfigValue } from './configTree';

export function isDeployConfig(root: ConfigValue | null): boolean {
  if (!isMap(root)) return false;
  if (entryOf(root, 'base_config')) return true;
  const stages = entryOf(root, 'stages')?.value;
  return isList(stages) && stages.items.some((item) => entryOf(item, 'stage_id') !== undefined);
}
