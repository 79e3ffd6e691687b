// A run's tail as the compare outputs show it: a part whose contribution to the target the
// log did not measure is set apart with its reason, so no output shows it as a number (and
// no difference is taken against it). Under a first-output target, the target's own stage's
// rest of gen time that holds an unmeasured prefill or decode is such a part: the first
// output lies somewhere inside that unsplit gen time, and the log does not say where, so the
// share of it before the first output (what the part would contribute) is not known.
import { parseTarget } from '../explain/targets';
import type { TailAttribution, TailPart } from '../explain/types';
import type { TailSide, UnmeasuredTailPart } from './types';

function unmeasuredReason(p: TailPart, t: TailAttribution): string | null {
  const target = parseTarget(t.target);
  if (target === null || target.kind !== 'firstOutput') return null;
  if (p.withUnmeasuredPhases !== true || p.stageKey === null || p.stageKey !== target.stageKey) return null;
  return `stage ${p.stageKey}'s first output lies inside its gen time, which the log does not split (prefill and decode not measured), so how much of that time comes before the first output is not known`;
}

/** The run's tail with its unmeasured parts set apart; their computed excess goes to the residual (the identity holds). */
export function tailSideOf(t: TailAttribution): TailSide {
  const parts: TailPart[] = [];
  const notMeasured: UnmeasuredTailPart[] = [];
  let residualMs = t.residualMs;
  for (const p of t.parts) {
    const reason = unmeasuredReason(p, t);
    if (reason === null) {
      parts.push(p);
      continue;
    }
    residualMs += p.excessMs;
    notMeasured.push({
      key: p.key,
      stageId: p.stageId,
      stageKey: p.stageKey,
      phase: p.phase,
      ...(p.withUnmeasuredPhases === undefined ? {} : { withUnmeasuredPhases: p.withUnmeasuredPhases }),
      reason,
    });
  }
  return notMeasured.length === 0 ? t : { ...t, parts, residualMs, notMeasured };
}
