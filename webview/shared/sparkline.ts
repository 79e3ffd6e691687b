// Geometry of the side panel's trend lines. DOM-free.
//
// The y axis runs from 0 to the largest value, not from the smallest: a line's height is its
// value's share of the largest, so a change of 1% moves it 1% of the box and a doubling half
// of it. Scaled min..max, a wobble of 1% would be drawn as a cliff the full height of the box.
import { maxOf, minOf } from '../../server/shared';

export interface SparkPoint {
  readonly x: number;
  readonly y: number;
}

/** The values at the bottom and the top of the box: 0 and the largest (the smallest when below 0). */
export function sparklineRange(
  values: readonly (number | null)[],
): { readonly lo: number; readonly hi: number } | null {
  const numbers = values.filter((v): v is number => v !== null && Number.isFinite(v));
  if (numbers.length === 0) return null;
  return { lo: Math.min(0, minOf(Infinity, numbers)), hi: Math.max(0, maxOf(-Infinity, numbers)) };
}

/** Points of a sparkline for `values` (nulls are gaps) in a w × h box with `pad` pixels inside. */
export function sparklinePoints(
  values: readonly (number | null)[],
  w: number,
  h: number,
  pad = 2,
): (SparkPoint | null)[] {
  const range = sparklineRange(values);
  if (range === null) return values.map(() => null);
  const span = range.hi - range.lo;
  const n = values.length;
  return values.map((v, i) => {
    if (v === null || !Number.isFinite(v)) return null;
    const x = n === 1 ? w / 2 : pad + (i / (n - 1)) * (w - 2 * pad);
    // Only zeros: they lie on the bottom, where 0 is.
    const y = span === 0 ? h - pad : h - pad - ((v - range.lo) / span) * (h - 2 * pad);
    return { x, y };
  });
}
