// Known causes of a tail that its parts do not name, in the words explain, the Tail tab and
// the side panel share: cold requests (the first after a server boot) in the tail, and a
// downstream TTFT that holds a wait for upstream output (finding ttft-includes-upstream-wait),
// which no part of that stage holds, so it lies in the residual.
import { signedDurationText as signed } from '../numberText';
import { stageLabel } from '../stageRoles';
import type { TailAttribution } from './types';

/** Beyond this share of the tail's excess, cold requests make the tail: said, with the way to leave them out. */
const COLD_DOMINATES_SHARE = 0.5;

export interface ColdTail {
  readonly text: string;
  /** The cold requests bring more than half the excess: the tail is mostly cold start. */
  readonly dominates: boolean;
}

/** How many tail requests are cold and how much of the excess they bring; null when none is. */
export function coldTailText(t: TailAttribution): ColdTail | null {
  const n = t.coldRequests ?? 0;
  if (n === 0) return null;
  const coldMs = t.coldExcessMs ?? 0;
  const share = Math.abs(t.excessMs) < 1e-9 ? null : coldMs / t.excessMs;
  const dominates = share !== null && t.excessMs > 0 && share > COLD_DOMINATES_SHARE;
  const which =
    n === t.requestCount
      ? `${n === 1 ? 'the tail request is' : n === 2 ? 'both tail requests are' : `all ${n} tail requests are`} cold`
      : `${n} of ${t.requestCount} tail requests ${n === 1 ? 'is' : 'are'} cold`;
  const brings = `${signed(coldMs)} of the ${signed(t.excessMs)} excess${share === null ? '' : ` (${Math.round(share * 100)}%)`}`;
  return {
    text: `cold start: ${which} (the first after a server boot), bringing ${brings}${dominates ? ': this tail is mostly cold start, not steady-state serving' : ''}`,
    dominates,
  };
}

/**
 * Under a downstream stage's TTFT whose tail requests waited upstream: what the residual holds
 * and which target measures that time. `targetRef` names a target where it is shown (the CLI adds
 * its `--target`). Null when no tail request carries the finding.
 */
export function ttftWaitText(
  t: TailAttribution,
  roles: Readonly<Record<string, string>>,
  targetRef: (target: string) => string | null,
): string | null {
  const w = t.ttftWaitedUpstream;
  const m = /^stage([\d_]+)\.ttft$/.exec(t.target);
  if (w === undefined || m === null) return null;
  const stageKey = m[1] as string;
  const which =
    w.requests === t.requestCount
      ? `in ${w.requests === 1 ? 'the' : w.requests === 2 ? 'both' : `all ${w.requests}`} tail request${w.requests === 1 ? '' : 's'}`
      : `in ${w.requests} of ${t.requestCount} tail requests`;
  const better = targetRef(`stage${stageKey}.firstOutput`);
  return (
    `${which}, ${stageLabel(stageKey, roles)}'s TTFT includes a wait for upstream output (finding ttft-includes-upstream-wait; ${signed(w.waitMs)} on average over the tail): ` +
    `it runs to the first output handled, which waited for the stages upstream (under talker first audio, the talker's first-audio frame), so it counts time spent waiting upstream, not this stage's own queueing and prefill; that time is in the residual` +
    (better === null ? '' : `. ${better} measures it, with the upstream parts that make it`)
  );
}
