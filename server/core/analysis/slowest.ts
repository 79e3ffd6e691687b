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
import type { Percentile } from '../reportedPercentiles';
import { PREFILL_DECODE_LABEL } from './oneOutputStage';
import { firstStageIdOf } from './crossStage';
import { stageLabel } from '../stageRoles';
import type { SplitName, StageSummary, TimelineSegment } from './types';
import { SPLIT_LABEL } from './types';

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

/** The slowest phase of a table of stage summaries at a percentile. */
export interface SlowestPhase {
  readonly stage: StageSummary;
  readonly name: SplitName;
  readonly value: number;
}

/** The largest ranked phase over the stage rows (replica rows left out) at `pct`; null when none is above 0. */
export function slowestPhaseOf(stages: readonly StageSummary[], pct: Percentile): SlowestPhase | null {
  let best: SlowestPhase | null = null;
  for (const s of stages) {
    if (s.replicaId !== null) continue;
    const split = s.splitStates.inputWaitMs.measured + s.splitStates.inputWaitMs.inferred > 0;
    for (const name of rankedPhases(split, false)) {
      const v = s.split[name]?.[pct];
      if (v !== undefined && v > 0 && (best === null || v > best.value)) best = { stage: s, name, value: v };
    }
  }
  return best;
}

/**
 * What a reader must know to weigh the slowest phase, one sentence each: a downstream stage's
 * input wait (or queued time without the split) is its wait for upstream output, and an
 * unranked prefill+decode may be larger. `ms` formats a number as the view does; stages are
 * named with their roles where `roles` knows them (server/core/stageRoles.ts).
 */
export function slowestPhaseCaveats(
  stages: readonly StageSummary[],
  slowest: SlowestPhase,
  pct: Percentile,
  ms: (value: number) => string,
  roles: Readonly<Record<string, string>> = {},
): string[] {
  const firstStageId = firstStageIdOf(stages);
  const label = stageLabel(slowest.stage.stageKey, roles);
  const downstream = slowest.stage.stageId !== null && slowest.stage.stageId > firstStageId;
  const out: string[] = [];
  if (downstream && slowest.name === 'inputWaitMs')
    out.push(`${label}'s input wait is its wait for the upstream stages' output, not work of its own`);
  if (downstream && slowest.name === 'queuedMs')
    out.push(
      `${label}'s queued time includes its wait for the upstream stages' output: the input-wait split is not printed`,
    );
  for (const s of stages) {
    const combined = s.replicaId === null ? s.prefillDecodeMs?.[pct] : undefined;
    if (combined !== undefined && combined > slowest.value)
      out.push(
        `not ranked, and larger: ${stageLabel(s.stageKey, roles)} ${PREFILL_DECODE_LABEL} ${ms(combined)} ms, two phases in one number`,
      );
  }
  return out;
}

/** `stage 1 · code2wav decode 1,115 ms` (`stage 1 decode ...` where the roles are not known). */
export function slowestPhaseText(
  slowest: SlowestPhase,
  ms: (value: number) => string,
  roles: Readonly<Record<string, string>> = {},
): string {
  return `${stageLabel(slowest.stage.stageKey, roles)} ${SPLIT_LABEL[slowest.name]} ${ms(slowest.value)} ms`;
}
