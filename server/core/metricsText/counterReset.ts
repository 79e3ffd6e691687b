// A /metrics server that restarted starts its counts from 0: a series whose count is lower
// than in the previous scrape says so (Prometheus calls it a counter reset). The histograms
// after it cover only the time since the restart, which the views must say.
import type { HistogramSummary } from './scrapeSummary';

export interface CounterReset {
  /** The series whose count went down, as `family{label="v", ...}`. */
  readonly series: string;
  readonly before: number;
  readonly after: number;
}

const seriesName = (h: HistogramSummary): string => {
  const labels = Object.keys(h.labels)
    .sort()
    .map((k) => `${k}="${h.labels[k]}"`);
  return labels.length === 0 ? h.family : `${h.family}{${labels.join(', ')}}`;
};

/** The first series whose count went down from `previous` to `next`, or null when none did. */
export function counterReset(
  previous: readonly HistogramSummary[],
  next: readonly HistogramSummary[],
): CounterReset | null {
  const before = new Map<string, number>();
  for (const h of previous) if (h.count !== null) before.set(seriesName(h), h.count);
  for (const h of next) {
    const name = seriesName(h);
    const was = before.get(name);
    if (was !== undefined && h.count !== null && h.count < was) return { series: name, before: was, after: h.count };
  }
  return null;
}
