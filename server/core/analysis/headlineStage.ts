// The stage whose time to first output is a session's headline latency (the side panel's trend,
// the status bar): the one `explain` takes for its main target (explain/mainTarget.ts), so the
// editor and the CLI name the same number.
import type { StageSummary } from './types';

const FIRST_OUTPUT = 'serving_time_to_first_output_ms';

/**
 * The last stage (over all its replicas) with a measured time to first output; of a stage's
 * segments, the first that has one (a later segment's first output comes after it). A last stage
 * that records none (a negative or default value left out) does not hide an earlier stage's. Null
 * when no stage measured one. `stages` in stage order, as a summary lists them.
 */
export function headlineStage(stages: readonly StageSummary[]): StageSummary | null {
  let best: StageSummary | null = null;
  for (const stage of stages) {
    if (stage.replicaId !== null || (stage.fields[FIRST_OUTPUT]?.count ?? 0) === 0) continue;
    if (best !== null && stageNumber(best) === stageNumber(stage)) continue;
    best = stage;
  }
  return best;
}

/** `1_2` (stage 1's second segment) -> `1`. */
function stageNumber(stage: StageSummary): string {
  return stage.stageKey.split('_')[0] ?? stage.stageKey;
}
