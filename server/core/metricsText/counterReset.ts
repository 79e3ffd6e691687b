// A /metrics server that restarted starts its counts from 0: a series whose count is lower
// than in the previous scrape says so (Prometheus calls it a counter reset). A histogram's
// count and a counter's value (request successes, tokens) only grow while the server lives;
// either going down is the restart. A restart is missed that way when the counts grow past
// their old values between two scrapes; prometheus_client (vLLM's) exposes each series'
// `_created` time, which a restart renews: where both scrapes expose it, a change says the
// restart even though every count grew. The histograms after it cover only the time since the
// restart, which the views must say.
import type { Labels, ParsedExposition } from './model';
import type { HistogramSummary } from './scrapeSummary';

export interface CounterReset {
  /** The series whose count went down (or whose `_created` changed), as `family{label="v", ...}`. */
  readonly series: string;
  /** Its count (a histogram's) or value (a counter's) in the scrape before, and in this one. */
  readonly before: number;
  readonly after: number;
  /** Seen by its `_created` (seconds since epoch): before, and in this scrape. Absent: seen by the count going down. */
  readonly createdBefore?: number;
  readonly createdAfter?: number;
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

/** Each counter's and histogram's series `_created` (seconds since epoch), named as counterValues and histogramCounts name them. */
export function createdTimes(parsed: ParsedExposition): Map<string, number> {
  const created = new Map<string, number>();
  for (const family of parsed.families) {
    if (family.type === 'counter') {
      const name = family.canonicalName.endsWith('_total') ? family.canonicalName : `${family.canonicalName}_total`;
      for (const s of family.series) if (s.created !== null) created.set(seriesName(name, s.labels), s.created);
    } else if (family.type === 'histogram') {
      for (const s of family.series)
        if (s.created !== null) created.set(seriesName(family.canonicalName, s.labels), s.created);
    }
  }
  return created;
}

/**
 * The first series whose `_created` differs between two scrapes that both expose it, with its
 * count or value in each (`valuesBefore`, `valuesAfter`: histogramCounts and counterValues),
 * or null when none changed. A series new in `next` is no restart.
 */
export function createdChange(
  previous: ReadonlyMap<string, number>,
  next: ReadonlyMap<string, number>,
  valuesBefore: ReadonlyMap<string, number>,
  valuesAfter: ReadonlyMap<string, number>,
): CounterReset | null {
  for (const [series, createdAfter] of next) {
    const createdBefore = previous.get(series);
    if (createdBefore === undefined || createdBefore === createdAfter) continue;
    const before = valuesBefore.get(series);
    const after = valuesAfter.get(series);
    if (before !== undefined && after !== undefined) return { series, before, after, createdBefore, createdAfter };
  }
  return null;
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

/** What one endpoint scrape says about its server's life: counter values and `_created` times. */
export interface ScrapeLife {
  /** counterValues */
  readonly counters: ReadonlyMap<string, number>;
  /** createdTimes */
  readonly created: ReadonlyMap<string, number>;
}

export const NO_SCRAPE_LIFE: ScrapeLife = { counters: new Map(), created: new Map() };

export function scrapeLifeOf(parsed: ParsedExposition): ScrapeLife {
  return { counters: counterValues(parsed), created: createdTimes(parsed) };
}

/**
 * The restart of the scraped server between two scrapes of its endpoint (histogram rows and
 * ScrapeLife of each), or null: a series' `_created` changed, else a count went down.
 */
export function restartBetween(
  previousRows: readonly HistogramSummary[],
  previous: ScrapeLife,
  nextRows: readonly HistogramSummary[],
  next: ScrapeLife,
): CounterReset | null {
  const countsBefore = histogramCounts(previousRows);
  const countsAfter = histogramCounts(nextRows);
  return (
    createdChange(
      previous.created,
      next.created,
      joined(countsBefore, previous.counters),
      joined(countsAfter, next.counters),
    ) ??
    countDecrease(countsBefore, countsAfter) ??
    countDecrease(previous.counters, next.counters)
  );
}

/** Histogram counts and counter values in one map (their names differ: counters end in `_total`). */
function joined(counts: ReadonlyMap<string, number>, counters: ReadonlyMap<string, number>): Map<string, number> {
  const all = new Map(counts);
  for (const [series, value] of counters) all.set(series, value);
  return all;
}
