// The stage whose time to first output is a session's headline latency: the side panel's trend,
// the status bar and explain's main target (explain/mainTarget.ts) all pick it with headlineOf,
// so the editor and the CLI name the same number.
import { stagePositionOf, type StagePosition } from './stageOrder';
import type { StageSummary } from './types';

const FIRST_OUTPUT = 'serving_time_to_first_output_ms';

/**
 * Of stages that measured a time to first output, in any order: the last stage by stage id and,
 * of its segments, the first (a later segment's first output comes after it). A column with no
 * stage id is never the one: where it runs in the pipeline is unknown and no explain target
 * names it. Null when none has a stage id.
 */
export function headlineOf<T>(measured: Iterable<T>, positionOf: (item: T) => StagePosition): T | null {
  let best: { item: T; stageId: number; segment: number } | null = null;
  for (const item of measured) {
    const { stageId, segment } = positionOf(item);
    if (stageId === null) continue;
    if (best === null || stageId > best.stageId || (stageId === best.stageId && segment < best.segment))
      best = { item, stageId, segment };
  }
  return best?.item ?? null;
}

/**
 * The headline stage of a summary (its rows over all replicas): a last stage that records no
 * first output (a negative or default value left out) does not hide an earlier stage's. Null
 * when no numbered stage measured one.
 */
export function headlineStage(stages: readonly StageSummary[]): StageSummary | null {
  const measured = stages.filter((s) => s.replicaId === null && (s.fields[FIRST_OUTPUT]?.count ?? 0) > 0);
  return headlineOf(measured, (s) => stagePositionOf(s.stageKey));
}
