// Pieces of the sentences that add a deploy config's evidence to a finding: where a value is
// written, a list of stage ids, and whether the config's stages are the log's at all.
import { andList } from '../andList';
import { baseName } from '../baseName';
import type { ConfigEntry, ConfigMap } from './configTree';
import { stageViews } from './stageViews';

/** `qwen3_tts.yaml line 12`. */
export function where(entry: ConfigEntry): string {
  return `${baseName(entry.value.location.file)} line ${entry.value.location.range.start.line + 1}`;
}

/** "0, 1 and 2". */
export function idList(ids: readonly number[]): string {
  return andList(ids);
}

/**
 * The sentence that a config whose stage ids are not the log's (`logStageIds`) is not the
 * config the server ran, or null when they match (or the log's ids are not known).
 */
export function stageMismatch(root: ConfigMap, configPath: string, logStageIds?: readonly number[]): string | null {
  const configIds = [...new Set(stageViews(root).map((v) => v.id))].sort((a, b) => a - b);
  const logIds = logStageIds === undefined ? null : [...new Set(logStageIds)].sort((a, b) => a - b);
  if (logIds === null || configIds.length === 0 || configIds.join() === logIds.join()) return null;
  return `The deploy config ${baseName(configPath)} has stage${configIds.length === 1 ? '' : 's'} ${idList(configIds)}, this log's requests have stage${logIds.length === 1 ? '' : 's'} ${idList(logIds)}: it is not the config this server ran, so its settings are no evidence here.`;
}
