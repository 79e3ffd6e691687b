// What a deploy config sets that bounds a stage's KV-cache room (finding preempted-requests):
// vLLM preempts a request when the blocks run out, and the blocks are what
// gpu_memory_utilization leaves after the weights, shared by up to max_num_seqs requests and
// max_num_batched_tokens tokens a step. The finding comes from the numbers; this names the
// lines to change, with where each is set.
import * as path from 'node:path';
import { isScalar, type ConfigEntry, type ConfigMap } from './configTree';
import { where } from './evidenceText';
import { stageSetting, stageViews } from './stageViews';

/** The settings that bound the KV-cache room of a stage, in the order they are tried. */
const KV_ROOM_KEYS = ['gpu_memory_utilization', 'max_num_seqs', 'max_num_batched_tokens'] as const;
/** A gpu_memory_utilization from which raising it is no real option. */
const HIGH_UTILIZATION = 0.9;

function settingText(key: string, entry: ConfigEntry | undefined): string {
  if (entry === undefined || !isScalar(entry.value)) return `${key} (not set: vLLM's default)`;
  return `${key}: ${String(entry.value.value)} (${where(entry)})`;
}

/** One sentence: what the effective config `root` (of the file `configPath`) sets for the stage's KV-cache room. */
export function preemptionEvidence(root: ConfigMap, configPath: string, stageId: number): string | null {
  const view = stageViews(root).find((v) => v.id === stageId);
  if (view === undefined) return null;
  const settings = KV_ROOM_KEYS.map((key) => settingText(key, stageSetting(root, view, key)));
  const utilization = stageSetting(root, view, 'gpu_memory_utilization');
  const fraction = utilization !== undefined && isScalar(utilization.value) ? Number(utilization.value.value) : NaN;
  // Near all of the GPU already: room comes from fewer requests or tokens at a time, or more replicas.
  const high =
    fraction >= HIGH_UTILIZATION
      ? ` At ${fraction} of the GPU there is little memory left to give it: fewer requests or tokens a step, or more replicas.`
      : '';
  return `The deploy config ${path.basename(configPath)} gives stage ${stageId} ${settings.join(', ')}.${high}`;
}
