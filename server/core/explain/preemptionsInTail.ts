// Preemptions in a tail: vLLM preempts a request when its KV-cache blocks are needed by
// others and schedules it again later; vllm_queued_ms ends at the first scheduling, so the wait
// lies inside the request's prefill (before its first token) or decode (after it). Were the tail's requests
// preempted more often than the rest? Per stage up to the target's, the requests that printed a
// preemption, in the tail (at or above the target's value at the quantile, as the tail
// attribution takes it) against all in scope that measured the target. One pass per question.
import { countOf } from '../numberText';
import { stageLabel } from '../stageRoles';
import type { ColumnReads } from './columnReads';
import type { ExplainIndex } from './explainIndex';
import { rowsInScope } from './scope';
import { percentileInPlace } from './select';
import { parseTarget } from './targets';
import type {
  PreemptionReading,
  PreemptionsInTail,
  StagePreemptions,
  TailQuantile,
  TargetName,
  ExplainScope,
} from './types';
import { TAIL_PERCENT } from './types';

/** The tail's share of preempted requests at least this many times the share in scope: they explain part of it. */
export const OVER_REPRESENTED_RATIO = 2;
/** Fewer preempted tail requests than this tell nothing either way. */
const MIN_TAIL_PREEMPTED = 2;

export interface PreemptionQuery {
  readonly target: TargetName;
  readonly quantile: TailQuantile;
  readonly scope: ExplainScope;
}

/** null when no request in scope measured the target, or none printed a preemption on a stage up to it. */
export function preemptionsInTail(
  index: ExplainIndex,
  query: PreemptionQuery,
  reads: ColumnReads,
  roles: Readonly<Record<string, string>> = {},
): PreemptionsInTail | null {
  const target = parseTarget(query.target);
  const column = target === null ? undefined : index.target(target.name);
  if (target === null || column === undefined) return null;
  // A stage after the target's runs after its value is taken: its preemptions cannot delay it.
  const stages = index
    .stages()
    .filter((s) => target.stageId === null || s.stageId === null || s.stageId <= target.stageId);
  if (stages.length === 0) return null;
  const scoped = rowsInScope(index, query.scope);
  const values = reads.read(column, scoped);
  const measured = new Float64Array(values.length);
  let n = 0;
  for (let k = 0; k < values.length; k++) if (!Number.isNaN(values[k])) measured[n++] = values[k];
  if (n === 0) return null;
  const threshold = percentileInPlace(measured, n, TAIL_PERCENT[query.quantile]);
  let tailCount = 0;
  for (let k = 0; k < values.length; k++) if (values[k] >= threshold) tailCount++;
  const counted: StagePreemptions[] = [];
  for (const stage of stages) {
    const preemptions = reads.read(stage.preemptions, scoped);
    let tailPreempted = 0;
    let allPreempted = 0;
    for (let k = 0; k < values.length; k++) {
      if (Number.isNaN(values[k]) || !(preemptions[k] > 0)) continue;
      allPreempted++;
      if (values[k] >= threshold) tailPreempted++;
    }
    if (allPreempted > 0)
      counted.push({ stageKey: stage.stageKey, stageId: stage.stageId, tailPreempted, allPreempted });
  }
  if (counted.length === 0) return null;
  const { reading, text } = readingOf(counted, tailCount, n, query.quantile, roles);
  return {
    target: target.name,
    quantile: query.quantile,
    thresholdMs: threshold,
    tailCount,
    scopeCount: n,
    stages: counted,
    reading,
    readingText: text,
  };
}

function percent(part: number, whole: number): string {
  return `${whole === 0 ? 0 : Math.round((100 * part) / whole)}%`;
}

function readingOf(
  stages: readonly StagePreemptions[],
  tailCount: number,
  scopeCount: number,
  quantile: TailQuantile,
  roles: Readonly<Record<string, string>>,
): { reading: PreemptionReading; text: string } {
  const over = stages.filter(
    (s) =>
      s.tailPreempted >= MIN_TAIL_PREEMPTED &&
      s.tailPreempted * scopeCount >= OVER_REPRESENTED_RATIO * s.allPreempted * tailCount,
  );
  if (over.length > 0) {
    const named = over.map((s) => stageLabel(s.stageKey, roles)).join(' and ');
    return {
      reading: 'overRepresented',
      text: `Preempted requests are over-represented in the ${quantile} tail on ${named}: part of the tail is time lost waiting to be scheduled again (in prefill or decode), for want of KV-cache room.`,
    };
  }
  const tailPreempted = Math.max(...stages.map((s) => s.tailPreempted));
  if (tailPreempted === 0)
    return {
      reading: 'notOverRepresented',
      text: `${tailCount === 1 ? `The one request in the ${quantile} tail printed no preemption` : `None of the ${tailCount} requests in the ${quantile} tail printed a preemption`}: preemption does not explain it.`,
    };
  if (tailPreempted < MIN_TAIL_PREEMPTED)
    return {
      reading: 'tooFew',
      text: `${countOf(tailPreempted, 'request')} of the ${tailCount} in the ${quantile} tail printed a preemption: too few to tell whether preemption made it slow.`,
    };
  return {
    reading: 'notOverRepresented',
    text: `Preempted requests are no more common in the ${quantile} tail than in all ${scopeCount} requests: preemption does not explain it.`,
  };
}

/** `stage 1 · talker: 5 of 15 in the tail (33%), 9 of 300 in all (3%)`. */
export function stagePreemptionsText(
  s: StagePreemptions,
  tailCount: number,
  scopeCount: number,
  roles: Readonly<Record<string, string>>,
): string {
  return `${stageLabel(s.stageKey, roles)}: ${s.tailPreempted} of ${tailCount} in the tail (${percent(s.tailPreempted, tailCount)}), ${s.allPreempted} of ${scopeCount} in all (${percent(s.allPreempted, scopeCount)})`;
}
