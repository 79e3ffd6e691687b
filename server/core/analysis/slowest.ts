// What "slowest" means, in one place for every view that marks something slowest (side
// panel, Over Time, the waterfall, the CLI):
//   slowest stage  of a request: the stage with the largest stage_gen_time_ms (submit ->
//                  finished, so its queueing counts). The Each request chart colours each
//                  request by it where the stages ran one after another; where they ran
//                  alongside (stage-times-overlap: a downstream stage's time holds the upstream
//                  time it overlapped) it colours by the request's slowest phase instead.
//   slowest phase  the largest phase of a stage's own work: ready queued (on the first stage
//                  also input wait, or queued where the input split is not measured), prefill,
//                  decode, or a one-output stage's prefill+decode (two phases in one number,
//                  named so). A downstream stage's input wait, and its queued time where the
//                  split is not printed, are its wait for the upstream stages' output: the
//                  upstream stages' time seen again, so they are not ranked (a caveat names one
//                  that is larger). The side panel ranks the stage rows' values at the
//                  percentile shown; the waterfall ranks one request's segments, and the Each
//                  request chart one request's phases (slowestPhaseOfRequest).
import type { Cell } from '../values';
import type { Percentile } from '../reportedPercentiles';
import { PREFILL_DECODE_LABEL, prefillCoversDecode } from './oneOutputStage';
import { firstStageIdOf } from './crossStage';
import { stageLabel } from '../stageRoles';
import type { AnalyzedRequest, FindingCode, RequestStage, SplitName, StageSummary, TimelineSegment } from './types';
import { SPLIT_LABEL } from './types';

export const SLOWEST_STAGE_FIELD = 'stage_gen_time_ms';
/** How views name the slowest stage. */
export const SLOWEST_STAGE_TEXT = `slowest stage by ${SLOWEST_STAGE_FIELD}`;
/** How views name the slowest phase. */
export const SLOWEST_PHASE_TEXT = 'slowest phase';
/** The rule, for hover texts and legends. */
export const SLOWEST_PHASE_RULE =
  "the largest phase of a stage's own work: ready queued (on the first stage also input wait, or queued where the input split is not measured), prefill, decode, or a one-output stage's prefill+decode; a downstream stage's input wait (or its queued time without the split) is its wait for the upstream stages' output and is not ranked";
export const SLOWEST_STAGE_RULE = `the stage with the largest ${SLOWEST_STAGE_FIELD} (stage submit -> finished, its queueing included)`;

/** A phase that competes for slowest: a split value, or a one-output stage's prefill+decode. */
export type RankedPhase = SplitName | 'prefillDecodeMs';

/**
 * The phases that compete for slowest phase on a stage: its own work. A downstream stage's
 * input wait, or its queued time without the split (which holds that wait), is left out.
 */
export function rankedPhases(hasInputSplit: boolean, prefillCoversDecode: boolean, downstream: boolean): RankedPhase[] {
  const out: RankedPhase[] = downstream
    ? hasInputSplit
      ? ['readyQueuedMs']
      : []
    : hasInputSplit
      ? ['inputWaitMs', 'readyQueuedMs']
      : ['queuedMs'];
  if (prefillCoversDecode) out.push('prefillDecodeMs');
  else out.push('prefillMs', 'decodeMs');
  return out;
}

/** Whether a waterfall segment competes for slowest phase (`downstream`: its stage is not the request's first). */
export function isRankedSegment(phase: TimelineSegment['phase'], downstream: boolean): boolean {
  if (phase === 'stage') return false;
  return !(downstream && (phase === 'inputWait' || phase === 'queued'));
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

/**
 * What colours a request in the Each request chart. By slowest stage where the stages ran one
 * after another; by slowest phase where they ran alongside (the stage-times-overlap finding):
 * there a downstream stage_gen_time_ms holds the upstream time it ran alongside, so comparing
 * the stages' times of one request ranks the same time twice.
 */
export type RequestColourRule = 'slowestStage' | 'slowestPhase';

export function requestColourRule(hasFinding: (code: FindingCode) => boolean): RequestColourRule {
  return hasFinding('stage-times-overlap') ? 'slowestPhase' : 'slowestStage';
}

/** Why the Each request chart colours by phase, for its legend's hover text. */
export const PHASE_COLOUR_REASON = `the stages ran alongside (stage-times-overlap): a downstream ${SLOWEST_STAGE_FIELD} holds the upstream time it ran alongside, so the stages are not compared by it`;

/** One request's slowest phase: its stage, the phase, and its value (ms). */
export interface RequestSlowestPhase {
  readonly stageKey: string;
  readonly phase: RankedPhase;
  readonly ms: number;
}

/** A measured (or inferred) split value of a request's stage, or null. */
function splitMs(stage: RequestStage, name: SplitName): number | null {
  const state = stage.split.states[name];
  return state === 'measured' || state === 'inferred' ? stage.split.values[name] : null;
}

/**
 * The largest ranked phase over one request's stages (the rule the side panel applies to the
 * stage rows, within the request): null when none is above 0.
 */
export function slowestPhaseOfRequest(request: AnalyzedRequest): RequestSlowestPhase | null {
  const firstStageId = firstStageIdOf(request.stages);
  let best: RequestSlowestPhase | null = null;
  for (const stage of request.stages) {
    const downstream = stage.stageId !== null && stage.stageId > firstStageId;
    const hasSplit = splitMs(stage, 'inputWaitMs') !== null;
    for (const phase of rankedPhases(hasSplit, prefillCoversDecode(request, stage), downstream)) {
      const ms = splitMs(stage, phase === 'prefillDecodeMs' ? 'prefillMs' : phase);
      if (ms !== null && ms > 0 && (best === null || ms > best.ms)) best = { stageKey: stage.stageKey, phase, ms };
    }
  }
  return best;
}

/** The slowest phase of a table of stage summaries at a percentile. */
export interface SlowestPhase {
  readonly stage: StageSummary;
  readonly name: RankedPhase;
  readonly value: number;
}

/** A phase's value on a stage summary at `pct`. */
function phaseValue(s: StageSummary, name: RankedPhase, pct: Percentile): number | undefined {
  return name === 'prefillDecodeMs' ? s.prefillDecodeMs?.[pct] : s.split[name]?.[pct];
}

function hasInputSplit(s: StageSummary): boolean {
  return s.splitStates.inputWaitMs.measured + s.splitStates.inputWaitMs.inferred > 0;
}

/** The largest ranked phase over the stage rows (replica rows left out) at `pct`; null when none is above 0. */
export function slowestPhaseOf(stages: readonly StageSummary[], pct: Percentile): SlowestPhase | null {
  const firstStageId = firstStageIdOf(stages);
  let best: SlowestPhase | null = null;
  for (const s of stages) {
    if (s.replicaId !== null) continue;
    const downstream = s.stageId !== null && s.stageId > firstStageId;
    // A stage can hold both: requests with one output (prefill+decode) and requests with a split.
    const phases = rankedPhases(hasInputSplit(s), false, downstream);
    if (s.prefillDecodeMs !== null) phases.push('prefillDecodeMs');
    for (const name of phases) {
      const v = phaseValue(s, name, pct);
      if (v !== undefined && v > 0 && (best === null || v > best.value)) best = { stage: s, name, value: v };
    }
  }
  return best;
}

/** How a ranked phase is named: the split's label, or "prefill+decode (one output)". */
export function rankedPhaseLabel(name: RankedPhase): string {
  return name === 'prefillDecodeMs' ? PREFILL_DECODE_LABEL : SPLIT_LABEL[name];
}

/**
 * What a reader must know to weigh the slowest phase, one sentence each: a prefill+decode is two
 * phases in one number, and a downstream stage's wait for its input, which is not ranked, may be
 * larger. `ms` formats a number as the view does; stages are named with their roles where
 * `roles` knows them (server/core/stageRoles.ts).
 */
export function slowestPhaseCaveats(
  stages: readonly StageSummary[],
  slowest: SlowestPhase,
  pct: Percentile,
  ms: (value: number) => string,
  roles: Readonly<Record<string, string>> = {},
): string[] {
  const firstStageId = firstStageIdOf(stages);
  const out: string[] = [];
  if (slowest.name === 'prefillDecodeMs')
    out.push(
      `${stageLabel(slowest.stage.stageKey, roles)}'s prefill+decode is two phases in one number: the stage emits one output, so its vllm_prefill_ms covers its decode steps`,
    );
  for (const s of stages) {
    if (s.replicaId !== null || s.stageId === null || !(s.stageId > firstStageId)) continue;
    const label = stageLabel(s.stageKey, roles);
    const split = hasInputSplit(s);
    const wait = split ? s.split.inputWaitMs?.[pct] : s.split.queuedMs?.[pct];
    if (wait === undefined || !(wait > slowest.value)) continue;
    out.push(
      split
        ? `not ranked, and larger: ${label} input wait ${ms(wait)} ms, its wait for the upstream stages' output, not work of its own`
        : `not ranked, and larger: ${label} queued ${ms(wait)} ms, which includes its wait for the upstream stages' output (the input-wait split is not printed)`,
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
  return `${stageLabel(slowest.stage.stageKey, roles)} ${rankedPhaseLabel(slowest.name)} ${ms(slowest.value)} ms`;
}
