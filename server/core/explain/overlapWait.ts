// Which part of a tail attribution is the wait behind its overlap. Where the residual is
// negative, parts ran at the same time: a downstream stage waits for its input (input wait, or
// its queued time, which holds that wait when the split is not printed) while the upstream
// stages work, so its excess and theirs are the same time seen twice. explain, compare, the
// views and the deploy hint show that part apart and add up the others (additiveTail; the
// views' sentence: webview/shared/tailModel.ts); the JSON keeps every part.
import { firstStageIdOf } from '../analysis/crossStage';
import type { TailAttribution, TailPart } from './types';

/**
 * The downstream wait with the largest positive excess, when it accounts for at least half of
 * the overlap; null when the residual is not negative or no wait does (the overlap is then
 * elsewhere: under async chunk, a downstream stage's rest of gen time can hold its waiting).
 */
function overlapWait(t: Pick<TailAttribution, 'parts' | 'residualMs'>): TailPart | null {
  if (!(t.residualMs < 0)) return null;
  const first = firstStageIdOf(t.parts);
  let wait: TailPart | null = null;
  for (const p of t.parts) {
    const waits = p.phase === 'inputWait' || p.phase === 'queued';
    if (
      waits &&
      p.stageId !== null &&
      p.stageId > first &&
      p.excessMs > 0 &&
      (wait === null || p.excessMs > wait.excessMs)
    )
      wait = p;
  }
  return wait !== null && wait.excessMs >= -t.residualMs / 2 ? wait : null;
}

/** A tail's parts as they add up: the overlap wait apart, the residual without it. */
export interface AdditiveTail {
  /** The parts whose excesses add up to the target's, largest first (the wait left out). */
  readonly parts: readonly TailPart[];
  /** The downstream wait behind the overlap (overlapWait), shown apart: not added, no share. */
  readonly wait: TailPart | null;
  /** What the parts above do not explain: the attribution's residual with the wait's time given back. */
  readonly residualMs: number;
}

/**
 * The tail as the CLI and the views show it. The wait is the upstream stages' time seen from
 * downstream: counting it as well would put both near 100% and take it back in a residual
 * near −100%.
 */
export function additiveTail(t: Pick<TailAttribution, 'parts' | 'residualMs'>): AdditiveTail {
  const wait = overlapWait(t);
  // Only a wait that is mostly the overlap: one far longer than it waits on more than the
  // upstream parts above (a transfer, a slot), and stays a part of its own.
  if (wait === null || -t.residualMs < wait.excessMs / 2)
    return { parts: t.parts, wait: null, residualMs: t.residualMs };
  return { parts: t.parts.filter((p) => p !== wait), wait, residualMs: t.residualMs + wait.excessMs };
}
