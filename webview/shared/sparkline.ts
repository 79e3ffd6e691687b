// Geometry of the side panel's trend line. DOM-free.
import { maxOf, minOf } from '../../server/shared';

export interface SparkPoint {
  readonly x: number;
  readonly y: number;
}

/** Points of a sparkline for `values` (nulls are gaps) in a w × h box with `pad` pixels inside. */
export function sparklinePoints(
  values: readonly (number | null)[],
  w: number,
  h: number,
  pad = 2,
): (SparkPoint | null)[] {
  const numbers = values.filter((v): v is number => v !== null && Number.isFinite(v));
  if (numbers.length === 0) return values.map(() => null);
  const lo = minOf(Infinity, numbers);
  const hi = maxOf(-Infinity, numbers);
  const span = hi - lo;
  const n = values.length;
  return values.map((v, i) => {
    if (v === null || !Number.isFinite(v)) return null;
    const x = n === 1 ? w / 2 : pad + (i / (n - 1)) * (w - 2 * pad);
    // A flat series sits in the middle rather than on an edge.
    const y = span === 0 ? h / 2 : h - pad - ((v - lo) / span) * (h - 2 * pad);
    return { x, y };
  });
}
