// A histogram series whose buckets cannot be one scrape's counts: a bucket count that is not a
// number of observations (NaN, negative, infinite), counts that fall as `le` grows (buckets are
// cumulative), or a `_count` other than the +Inf bucket's. PromQL's histogram_quantile repairs
// falling counts (and says so); its quantiles of such a series are then no measurement, so the
// series is marked with why, as the known lies are.
import { groupedNumber } from '../numberText';
import type { HistogramSeries } from './model';
import { nonFiniteSampleText } from './sampleLine';

const leText = (le: number): string => nonFiniteSampleText(le) ?? String(le);
const countText = (v: number): string => nonFiniteSampleText(v) ?? groupedNumber(v, 0, 3);

/** `family{stage="1",replica="0"}`: the series as the scrape names it. */
function seriesName(family: string, series: HistogramSeries): string {
  const labels = Object.entries(series.labels).map(([k, v]) => `${k}="${v}"`);
  return labels.length === 0 ? family : `${family}{${labels.join(',')}}`;
}

/** Why the series' buckets are not a histogram's, naming it; null when they are consistent. */
export function bucketInconsistency(family: string, series: HistogramSeries): string | null {
  const name = seriesName(family, series);
  let previous: { le: number; count: number } | null = null;
  for (const b of series.buckets) {
    if (!Number.isFinite(b.cumulative) || b.cumulative < 0)
      return `${name}: its bucket le="${leText(b.le)}" counts ${countText(b.cumulative)}, not a number of observations: the series is no histogram, and its quantiles are no measurement.`;
    if (previous !== null && b.cumulative < previous.count)
      return `${name}: its buckets are not cumulative: le="${leText(previous.le)}" counts ${countText(previous.count)} and le="${leText(b.le)}" only ${countText(b.cumulative)} (a histogram's counts never fall as le grows). PromQL's histogram_quantile raises the lower counts to repair it, as here; the quantiles of such a series are no measurement.`;
    previous = { le: b.le, count: b.cumulative };
  }
  const last = series.buckets[series.buckets.length - 1];
  if (last !== undefined && last.le === Infinity && series.count !== null && series.count !== last.cumulative)
    return `${name}: its _count (${countText(series.count)}) is not its +Inf bucket's count (${countText(last.cumulative)}): the two are one number in a scrape, so its counts and quantiles are no measurement.`;
  return null;
}
