// The stage ids a deploy config declares, base_config overlays resolved: what a session's
// stages are checked against before its numbers show on the config. One rule for a file read
// from disk and for an editor buffer with unsaved edits, so both refuse the same configs.
import { isMap } from './configTree';
import type { EffectiveDeployConfig } from './effectiveConfig';
import type { ParsedDeployFile } from './parsedFile';
import { stageViews } from './stageViews';

/**
 * Sorted, each once; null when the stages cannot be told: a YAML error, not a mapping, an
 * overlay whose base did not resolve (a fragment's few stages would read as another
 * pipeline), or no stage with a stage_id.
 */
export function configStageIds(file: ParsedDeployFile, effective: EffectiveDeployConfig): number[] | null {
  if (file.problems.some((p) => p.severity === 'error')) return null;
  if (!isMap(file.root) || effective.problems.length > 0) return null;
  const ids = [...new Set(stageViews(effective.root).map((v) => v.id))].sort((a, b) => a - b);
  return ids.length === 0 ? null : ids;
}
