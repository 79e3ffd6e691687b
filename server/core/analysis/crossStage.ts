// Cross-stage figures, computed inside one request and only then aggregated.
// serving_time_to_first_output_ms is measured from the client request's arrival on every
// stage, so its stage-to-stage difference is meaningful; vllm_ttft_ms is stage-local and
// is never subtracted across stages.
import { toLogPrecision } from '../values';
import type { RequestStage } from './types';
import { FIRST_OUTPUT_FIELD, measurementOf } from './unrecordedValues';

/**
 * What a negative +1st output means, said under the CLI's table and the side panel's (in the
 * CLI's two lines): not a stage taking negative time, but a first output that is not what it seems.
 */
export const NEGATIVE_ADDED_NOTE_LINES: readonly [string, string] = [
  'A negative +1st output means the stage produced output before its upstream stage did: under talker first audio the codec forwards the',
  "talker's first frame, and under Model Runner V2 + async chunk the talker emits its one output only when it stops.",
];
export const NEGATIVE_ADDED_NOTE = NEGATIVE_ADDED_NOTE_LINES.join(' ');

/**
 * The lowest stage id among `stages` (Infinity when none has one): a stage with a higher id is
 * downstream of it, and its queued time may hold its wait for the upstream stages' output.
 */
export function firstStageIdOf(stages: readonly { readonly stageId: number | null }[]): number {
  let first = Number.POSITIVE_INFINITY;
  for (const s of stages) if (s.stageId !== null && s.stageId < first) first = s.stageId;
  return first;
}

/**
 * stageKey -> this stage's time to first output minus that of the nearest upstream
 * stage of the same request. Only measurements take part (unrecordedValues.ts): not its 0.0
 * default for a stage with no non-empty output, nor a negative value.
 */
export function addedTimeToFirstOutput(stages: readonly RequestStage[]): Record<string, number> {
  const added: Record<string, number> = {};
  // Nearly every table prints its stages in stage order: then no filtered, sorted copy is made.
  let ordered = true;
  let last = Number.NEGATIVE_INFINITY;
  for (const s of stages) {
    if (s.stageId === null || s.segment !== 1) continue;
    if (s.stageId < last) {
      ordered = false;
      break;
    }
    last = s.stageId;
  }
  const firstSegments = ordered
    ? stages
    : stages
        .filter((s) => s.stageId !== null && s.segment === 1)
        .sort((a, b) => (a.stageId as number) - (b.stageId as number));
  let previous: number | undefined;
  for (const stage of firstSegments) {
    if (stage.stageId === null || stage.segment !== 1) continue;
    const usable = measurementOf(FIRST_OUTPUT_FIELD, stage.fields[FIRST_OUTPUT_FIELD]);
    // The difference of two printed 3-decimal values, at that precision (no float noise).
    if (usable !== undefined && previous !== undefined) added[stage.stageKey] = toLogPrecision(usable - previous);
    if (usable !== undefined) previous = usable;
  }
  return added;
}
