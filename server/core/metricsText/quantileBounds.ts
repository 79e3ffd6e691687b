// Which histogram quantiles are bounds, not values. PromQL's histogram_quantile
// interpolates linearly inside the bucket that holds the rank, the first bucket starting
// at 0: when every observation up to the rank sits in the lowest bucket, the result is a
// fraction of that bucket's upper bound (queue time p50 "150 ms" from a 300 ms bucket whose
// observations were all 0.2 ms). All it shows is "at most the bucket's bound". In the +Inf
// bucket PromQL returns the highest finite bound: "at least" that. Same bucket walk as
// histogramQuantile.ts (sorted by bound, equal bounds merged, counts made monotonic).
import { PERCENTILES, PERCENT_OF, type Percentile } from '../reportedPercentiles';
import type { HistogramBucket } from './model';

/**
 * atMost   the rank fell into the lowest bucket: the true value is <= `le` (its upper bound)
 * atLeast  the rank fell into the +Inf bucket: the true value is >= `le` (the highest finite bound)
 */
export type QuantileBoundKind = 'atMost' | 'atLeast';

export interface QuantileBound {
  readonly kind: QuantileBoundKind;
  /** The bucket bound, in the family's unit (seconds for `_seconds` / `_s`). */
  readonly le: number;
}

/** Only the quantiles that are bounds; a quantile absent here is an interpolation between two finite bounds. */
export type QuantileBounds = Readonly<Partial<Record<Percentile, QuantileBound>>>;

export function quantileBounds(buckets: readonly HistogramBucket[]): QuantileBounds {
  const sorted = [...buckets].sort((a, b) => a.le - b.le);
  const merged: { le: number; count: number }[] = [];
  for (const b of sorted) {
    const last = merged[merged.length - 1];
    if (last !== undefined && last.le === b.le) last.count += b.cumulative;
    else merged.push({ le: b.le, count: b.cumulative });
  }
  for (let i = 1; i < merged.length; i++)
    (merged[i] as { count: number }).count = Math.max(
      (merged[i] as { count: number }).count,
      (merged[i - 1] as { count: number }).count,
    );
  // What histogram_quantile needs to answer at all: 2+ buckets, the last +Inf, some observations.
  if (merged.length < 2 || merged[merged.length - 1]?.le !== Infinity) return {};
  const total = (merged[merged.length - 1] as { count: number }).count;
  if (!(total > 0)) return {};
  const first = merged[0] as { le: number; count: number };
  const highest = merged[merged.length - 2] as { le: number; count: number };
  const out: Partial<Record<Percentile, QuantileBound>> = {};
  for (const p of PERCENTILES) {
    const rank = (PERCENT_OF[p] / 100) * total;
    if (highest.count < rank) out[p] = { kind: 'atLeast', le: highest.le };
    else if (first.count >= rank && first.le !== Infinity) out[p] = { kind: 'atMost', le: first.le };
  }
  return out;
}

/** Bounds read back from JSON (a saved scrape, another build): only well-formed entries. */
export function quantileBoundsFromJson(raw: unknown): QuantileBounds {
  if (typeof raw !== 'object' || raw === null) return {};
  const out: Partial<Record<Percentile, QuantileBound>> = {};
  for (const p of PERCENTILES) {
    const b = (raw as Record<string, unknown>)[p];
    if (typeof b !== 'object' || b === null) continue;
    const { kind, le } = b as { kind?: unknown; le?: unknown };
    if ((kind === 'atMost' || kind === 'atLeast') && typeof le === 'number' && Number.isFinite(le))
      out[p] = { kind, le };
  }
  return out;
}

/** The bounds with `le` scaled (seconds -> ms). */
export function scaleBounds(bounds: QuantileBounds | undefined, factor: number): QuantileBounds {
  const out: Partial<Record<Percentile, QuantileBound>> = {};
  for (const p of PERCENTILES) {
    const b = bounds?.[p];
    if (b !== undefined) out[p] = { kind: b.kind, le: b.le * factor };
  }
  return out;
}

/** `≤` / `≥` before a bounded quantile, '' for an interpolated one. */
export function boundSign(bound: QuantileBound | undefined): string {
  return bound === undefined ? '' : bound.kind === 'atMost' ? '≤' : '≥';
}
