// The one order of a log's stages, for every list of them: by stage id, then segment; a stage
// column with no stage id (a header that is no `N` or `N_k`) after all numbered ones, by name,
// since where it runs in the pipeline is unknown.
import { smallInt } from '../log/strings';

export interface StagePosition {
  /** null: the column names no stage id. */
  readonly stageId: number | null;
  readonly segment: number;
}

/** `1` -> stage 1 segment 1; `1_2` -> stage 1 segment 2; anything else -> no stage id. */
export function stagePositionOf(stageKey: string): StagePosition {
  const underscore = stageKey.indexOf('_');
  if (underscore === -1) return { stageId: smallInt(stageKey, 0, stageKey.length), segment: 1 };
  const stageId = smallInt(stageKey, 0, underscore);
  const segment = smallInt(stageKey, underscore + 1, stageKey.length);
  return stageId === null || segment === null ? { stageId: null, segment: 1 } : { stageId, segment };
}

export function compareStageKeys(a: string, b: string): number {
  const pa = stagePositionOf(a);
  const pb = stagePositionOf(b);
  if (pa.stageId !== null && pb.stageId !== null) return pa.stageId - pb.stageId || pa.segment - pb.segment;
  if (pa.stageId !== null) return -1;
  if (pb.stageId !== null) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
