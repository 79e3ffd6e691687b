// What "slowest" means, in one place for every view that marks something slowest (side
// panel, Over Time, the waterfall, the CLI):
//   slowest stage  of a request: the stage with the largest stage_gen_time_ms (submit ->
//                  finished, so its queueing counts). Over Time colours each request by it.
//   slowest phase  the largest single phase: input wait, ready queued (or queued where the
//                  input split is not measured: queued = input wait + ready queued, so it is
//                  never ranked beside its own halves), prefill or decode. The side panel
//                  ranks the stage rows' values at the percentile shown; the waterfall ranks
//                  one request's segments. A one-output stage's prefill+decode is two phases
//                  in one number: it is never ranked.
import type { Cell } from '../values';
import type { SplitName, TimelineSegment } from './types';

export const SLOWEST_STAGE_FIELD = 'stage_gen_time_ms';
/** How views name the slowest stage. */
export const SLOWEST_STAGE_TEXT = `slowest stage by ${SLOWEST_STAGE_FIELD}`;
/** How views name the slowest phase. */
export const SLOWEST_PHASE_TEXT = 'slowest phase';
/** The rule, for hover texts and legends. */
export const SLOWEST_PHASE_RULE =
  "the largest single phase: input wait, ready queued (queued where the input split is not measured), prefill or decode; a one-output stage's prefill+decode is two phases in one number and is not ranked";
export const SLOWEST_STAGE_RULE = `the stage with the largest ${SLOWEST_STAGE_FIELD} (stage submit -> finished, its queueing included)`;

/** The split values that compete for slowest phase on a stage. */
export function rankedPhases(hasInputSplit: boolean, prefillCoversDecode: boolean): SplitName[] {
  const out: SplitName[] = hasInputSplit ? ['inputWaitMs', 'readyQueuedMs'] : ['queuedMs'];
  if (!prefillCoversDecode) out.push('prefillMs', 'decodeMs');
  return out;
}

/** Whether a waterfall segment competes for slowest phase. */
export function isRankedSegment(phase: TimelineSegment['phase']): boolean {
  return phase !== 'stage' && phase !== 'prefillDecode';
}

/** The stage whose stage_gen_time_ms is largest among `stageKeys`, or null when none is measured. */
export function slowestStageAmong(
  stageKeys: Iterable<string>,
  genTimeOf: (stageKey: string) => Cell | undefined,
): string | null {
  let slow: string | null = null;
  let slowMs = -Infinity;
  for (const key of stageKeys) {
    const g = genTimeOf(key);
    if (g?.state === 'measured' && g.value > slowMs) {
      slowMs = g.value;
      slow = key;
    }
  }
  return slow;
}
