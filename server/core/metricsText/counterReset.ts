// A /metrics server that restarted starts its counts from 0: a series whose count is lower
// than in the previous scrape says so (Prometheus calls it a counter reset). A histogram's
// count and a counter's value (request successes, tokens) only grow while the server lives;
// either going down is the restart. The histograms after it cover only the time since the
// restart, which the views must say.
import type { Labels, ParsedExposition } from './model';
import type { HistogramSummary } from './scrapeSummary';

export interface CounterReset {
  /** The series whose count went down, as `family{label="v", ...}`. */
  readonly series: string;
  readonly before: number;
  readonly after: number;
}

const seriesName = (family: string, labels: Labels): string => {
  const names = Object.keys(labels)
    .sort()
    .map((k) => `${k}="${labels[k]}"`);
  return names.length === 0 ? family : `${family}{${names.join(', ')}}`;
};

/** Each histogram series' count by series name (a series without a count is left out). */
export function histogramCounts(histograms: readonly HistogramSummary[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const h of histograms) if (h.count !== null) counts.set(seriesName(h.family, h.labels), h.count);
  return counts;
}

/** Each counter series' value by series name, named by its samples (`vllm:request_success_total{…}`). */
export function counterValues(parsed: ParsedExposition): Map<string, number> {
  const values = new Map<string, number>();
  for (const family of parsed.families) {
    if (family.type !== 'counter') continue;
    // Declared `X_total`, or OpenMetrics-style `X` with `X_total` samples.
    const name = family.canonicalName.endsWith('_total') ? family.canonicalName : `${family.canonicalName}_total`;
    for (const s of family.series) if (Number.isFinite(s.value)) values.set(seriesName(name, s.labels), s.value);
  }
  return values;
}

/** The first series whose count went down from `previous` to `next`, or null when none did. */
export function countDecrease(
  previous: ReadonlyMap<string, number>,
  next: ReadonlyMap<string, number>,
): CounterReset | null {
  for (const [series, after] of next) {
    const before = previous.get(series);
    if (before !== undefined && after < before) return { series, before, after };
  }
  return null;
}

/** The first histogram series whose count went down from `previous` to `next`, or null when none did. */
export function counterReset(
  previous: readonly HistogramSummary[],
  next: readonly HistogramSummary[],
): CounterReset | null {
  return countDecrease(histogramCounts(previous), histogramCounts(next));
}
