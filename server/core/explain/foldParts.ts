// Which of a tail's parts are listed and which are summed into one "N other parts" row, in the
// rule explain, the Tail tab and the side panel share: the `top` largest, then any part whose
// share of the excess is large enough to matter on its own; the rest fold only when they are
// two or more (a single leftover part is named: a row "1 other part" would hide its name).
import type { TailPart } from './types';

/** A part at or beyond this share of the excess (either sign) is named, never folded. */
export const FOLD_SHARE = 0.05;

export function foldParts(
  parts: readonly TailPart[],
  excessMs: number,
  top: number,
): { shown: TailPart[]; folded: TailPart[] } {
  const shown: TailPart[] = [];
  const folded: TailPart[] = [];
  // No excess, no shares: the top parts only.
  const large = (p: TailPart): boolean =>
    Math.abs(excessMs) >= 1e-9 && Math.abs(p.excessMs) >= FOLD_SHARE * Math.abs(excessMs);
  parts.forEach((p, i) => (i < top || large(p) ? shown : folded).push(p));
  return folded.length === 1 ? { shown: [...parts], folded: [] } : { shown, folded };
}
