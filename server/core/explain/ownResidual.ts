// The tail's own residual: within each tail request, its target minus the sum of its parts,
// averaged over the tail. The attribution's residual is that minus the same figure taken across
// medians (the target's median minus the sum of the parts' medians), which need not add up: a
// positive residual can come from the medians alone while the tail's parts explain all its time.
import type { TailAttribution } from './types';

/**
 * Mean over the tail of (target − Σ its parts), within each request. A part's mean contribution
 * over the tail is its excess plus its median in the requests that measured it, so this needs no
 * pass over the requests. Null when a part's contribution is nowhere known (notMeasured): its
 * time is in every figure here.
 */
export function tailOwnResidualMs(t: TailAttribution): number | null {
  if ((t.notMeasured ?? []).length > 0 || !(t.requestCount > 0)) return null;
  let medians = 0;
  for (const p of t.parts) medians += (p.medianMs * p.measuredIn) / t.requestCount;
  return t.residualMs + t.targetMedianMs - medians;
}
