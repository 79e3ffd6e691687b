// The metrics a tail can be explained for, and which parts of a request's breakdown make
// each one up:
//  e2e                   the request's end-to-end time: every part
//  stage<N>.firstOutput  serving_time_to_first_output_ms of stage N (from the request's
//                        arrival; for Qwen3-TTS the last stage's is time to first audio):
//                        preprocess, the parts of stages up to N and the hand-offs into
//                        them, each counted for the time it lies before that first output
//  stage<N>.ttft         vllm_ttft_ms of stage N (stage-local: from that stage request's
//                        arrival): that stage's queued (or input wait + ready queued) and prefill
// `stage1_2` names the second segment of stage 1, as the columns do.
import type { AnalyzedRequest } from '../analysis/types';
import { FIRST_OUTPUT_FIELD, measurementOf } from '../analysis/unrecordedValues';
import { partStageId } from './breakdown';
import type { BreakdownPart, PartPhase, TargetName } from './types';
import { segmentStageKey } from '../analysis/timingSegments';

export type TargetKind = 'e2e' | 'firstOutput' | 'ttft';

export interface Target {
  readonly name: TargetName;
  readonly kind: TargetKind;
  /** The stage column (`1`, `1_2`); null for e2e. */
  readonly stageKey: string | null;
  readonly stageId: number | null;
  readonly segment: number;
}

// Any case, as compare's rules: `STAGE1.TTFT` is stage1.ttft; the name returned is canonical.
const STAGE_TARGET = /^stage(\d{1,4})(?:_(\d{1,4}))?\.(firstOutput|ttft)$/i;

export const TARGET_GRAMMAR = 'e2e | stage<N>.firstOutput | stage<N>.ttft (stage<N>_<k> for segment k)';

export function parseTarget(name: string): Target | null {
  if (name.toLowerCase() === 'e2e') return { name: 'e2e', kind: 'e2e', stageKey: null, stageId: null, segment: 1 };
  const m = STAGE_TARGET.exec(name);
  if (m === null) return null;
  const stageId = Number(m[1]);
  const segment = m[2] === undefined ? 1 : Number(m[2]);
  const stageKey = segmentStageKey(stageId, segment);
  const kind: TargetKind = (m[3] as string).toLowerCase() === 'ttft' ? 'ttft' : 'firstOutput';
  return { name: `stage${stageKey}.${kind}`, kind, stageKey, stageId, segment };
}

/**
 * Why targets asked for cannot be explained at all: those of a stage the log does not have,
 * said with the stages and targets it has; null when each names one of its stages. (A target
 * of a stage it has that no request measures, such as a TTFT never recorded, is reported
 * with the analysis, whose findings say why.)
 */
export function unknownTargetsText(
  wanted: readonly TargetName[],
  known: readonly TargetName[],
  stageKeys: readonly string[],
): string | null {
  const missing = wanted.filter((t) => {
    const key = parseTarget(t)?.stageKey ?? null;
    return key !== null && !stageKeys.includes(key);
  });
  if (missing.length === 0) return null;
  const has =
    stageKeys.length === 0
      ? 'the log has no stage'
      : `the log has stage${stageKeys.length === 1 ? '' : 's'} ${stageKeys.join(', ')}`;
  const measures = known.length === 0 ? 'and measures no target' : `and measures ${known.join(', ')}`;
  return `--target ${missing.join(', ')}: no such stage in the log; ${has} ${measures}`;
}

export function stageTargetName(stageKey: string, kind: Exclude<TargetKind, 'e2e'>): TargetName {
  return `stage${stageKey}.${kind}`;
}

/** The target's value in one request; null when it was not measured (never 0 for unknown). */
export function targetValue(request: AnalyzedRequest, target: Target, totalMs: number | null): number | null {
  if (target.kind === 'e2e') return totalMs;
  const stage = request.stages.find((s) => s.stageKey === target.stageKey);
  if (stage === undefined) return null;
  if (target.kind === 'ttft') return stage.split.values.ttftMs;
  // Not its 0.0 default (no non-empty output), nor a negative value (unrecordedValues.ts).
  return measurementOf(FIRST_OUTPUT_FIELD, stage.fields[FIRST_OUTPUT_FIELD]) ?? null;
}

const TTFT_PHASES: ReadonlySet<PartPhase> = new Set(['inputWait', 'readyQueued', 'queued', 'prefill']);

/** Whether a part makes up the target at all (before clipping to the target's instant). */
export function partCounts(
  part: Pick<BreakdownPart, 'stageKey' | 'stageId' | 'phase' | 'edge'>,
  target: Target,
): boolean {
  if (target.kind === 'e2e') return true;
  if (target.kind === 'ttft') return part.stageKey === target.stageKey && TTFT_PHASES.has(part.phase);
  if (part.phase === 'finalOutput') return false;
  if (part.phase === 'preprocess') return true;
  const stageId = partStageId(part);
  if (stageId === null || target.stageId === null) return false;
  if (part.phase === 'transfer') return stageId <= target.stageId;
  if (stageId < target.stageId) return true;
  if (stageId > target.stageId) return false;
  // Same stage: its earlier segments, and the target segment itself.
  const segment = part.stageKey === null ? 1 : Number(part.stageKey.split('_')[1] ?? '1');
  return segment <= target.segment;
}

/**
 * How much of a part lies in the target: for time to first output, the part of its interval
 * before that instant; a part with no place on the clock counts whole when it belongs to
 * an earlier stage (or is a hand-off) and not at all otherwise. e2e and TTFT take parts whole.
 */
export function contribution(ms: number, startMs: number, target: Target, targetMs: number, ownStage: boolean): number {
  if (target.kind !== 'firstOutput') return ms;
  if (Number.isNaN(startMs)) return ownStage ? Number.NaN : ms;
  const end = Math.min(startMs + ms, targetMs);
  const start = Math.max(0, startMs);
  return end > start ? end - start : 0;
}

/** The targets a request supports (each measured in it). */
// The targets of a stage key, parsed once (every request of a log names the same few stages).
const stageTargets = new Map<string, readonly (Target | null)[]>();

function targetsOfStage(stageKey: string): readonly (Target | null)[] {
  let targets = stageTargets.get(stageKey);
  if (targets === undefined) {
    targets = (['firstOutput', 'ttft'] as const).map((kind) => parseTarget(stageTargetName(stageKey, kind)));
    if (stageTargets.size < 1024) stageTargets.set(stageKey, targets);
  }
  return targets;
}

const E2E = parseTarget('e2e') as Target;

export function targetsOf(request: AnalyzedRequest, totalMs: number | null): Target[] {
  const out: Target[] = [];
  if (totalMs !== null) out.push(E2E);
  for (const stage of request.stages) {
    if (stage.stageId === null) continue;
    for (const t of targetsOfStage(stage.stageKey)) {
      if (t !== null && targetValue(request, t, totalMs) !== null) out.push(t);
    }
  }
  return out;
}

/** Targets in a stable order: e2e, then per stage first output, then TTFT. */
export function compareTargets(a: TargetName, b: TargetName): number {
  const ta = parseTarget(a);
  const tb = parseTarget(b);
  if (ta === null || tb === null) return a < b ? -1 : a > b ? 1 : 0;
  const rank = (t: Target): number => (t.kind === 'e2e' ? 0 : t.kind === 'firstOutput' ? 1 : 2);
  return rank(ta) - rank(tb) || (ta.stageId ?? 0) - (tb.stageId ?? 0) || ta.segment - tb.segment;
}
