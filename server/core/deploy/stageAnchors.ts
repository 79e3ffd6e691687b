// Where each effective stage can be pointed at in a file: its own `stage_id` entry when
// this file lists the stage, else this file's `base_config` (the stage comes from there).
import type { DeployAnalysis } from './analysis';
import { entryOf, isList, stageIdOf, valueOf, type ConfigEntry } from './configTree';
import { stageViews } from './stageViews';

export interface StageAnchor {
  readonly stageId: number;
  /** `stage_id` entry in this file, or the `base_config` entry for an inherited stage. */
  readonly entry: ConfigEntry;
  readonly inherited: boolean;
}

export function stageAnchors(analysis: DeployAnalysis): StageAnchor[] {
  const file = analysis.file.path;
  // A stage id listed twice: vLLM-Omni keeps the last entry (the first's settings are dropped),
  // so the stage is pointed at there, in the order the stages are first listed.
  const byId = new Map<number, ConfigEntry>();
  const stages = valueOf(analysis.file.root, 'stages');
  for (const stage of isList(stages) ? stages.items : []) {
    const id = stageIdOf(stage);
    const idEntry = entryOf(stage, 'stage_id');
    if (id === null || !idEntry || idEntry.keyLocation.file !== file) continue;
    byId.set(id, idEntry);
  }
  const own = new Set(byId.keys());
  const anchors: StageAnchor[] = [...byId].map(([stageId, entry]) => ({ stageId, entry, inherited: false }));
  const base = entryOf(analysis.file.root, 'base_config');
  if (base) {
    for (const view of stageViews(analysis.effective.root)) {
      if (!own.has(view.id)) anchors.push({ stageId: view.id, entry: base, inherited: true });
    }
  }
  return anchors;
}
