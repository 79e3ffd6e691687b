// The latency histograms of a /metrics scrape, one row per family and stage: the series
// of a stage's replicas are added bucket by bucket (PromQL `sum by (le, stage)`), then the
// quantiles are PromQL's histogram_quantile. `model_name` is left out of the identity so
// two runs of differently named deployments still line up.
import { parseExposition } from '../metricsText';
import { SeriesCaveats } from '../metricsText/seriesCaveats';
import { histogramQuantile } from '../metricsText/histogramQuantile';
import { labelsKey, withoutLabels } from '../metricsText/labels';
import { STAGE_LATENCY_HISTOGRAMS, openEndedQuantiles } from '../metricsText/stageHistograms';
import type { HistogramBucket, HistogramSeries, Labels } from '../metricsText/model';
import { quantileBounds } from '../metricsText/quantileBounds';
import type { FindingCount, HistogramRow } from './types';
import { scrapeFindings } from './scrapeFindings';
import { DIFFUSION_PREPROCESS_FAMILY, preprocessZerosCaveat } from '../metricsText/preprocessZeros';
import {
  cutSeriesCaveat,
  scrapeCutFamilies,
  scrapeCutFinding,
  WHOLE_INPUT,
  type ScrapeCutFamilies,
  type ScrapeEnd,
} from '../metricsText/scrapeCut';

const AGGREGATED_AWAY = ['replica', 'model_name'];
const LATENCY = new Set(STAGE_LATENCY_HISTOGRAMS);

/** Family order of STAGE_LATENCY_HISTOGRAMS, then stage, then the other labels. */
export function compareHistogramRows(
  a: Pick<HistogramRow, 'family' | 'labels'>,
  b: Pick<HistogramRow, 'family' | 'labels'>,
): number {
  const fa = STAGE_LATENCY_HISTOGRAMS.indexOf(a.family);
  const fb = STAGE_LATENCY_HISTOGRAMS.indexOf(b.family);
  if (fa !== fb) return fa - fb;
  const sa = Number(a.labels['stage'] ?? Infinity);
  const sb = Number(b.labels['stage'] ?? Infinity);
  if (sa !== sb && !Number.isNaN(sa - sb)) return sa - sb;
  const ka = labelsKey(a.labels);
  const kb = labelsKey(b.labels);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

/** Sum of cumulative histograms: at each bound, every series' count at its largest bound <= it. */
export function addHistograms(series: readonly HistogramSeries[]): HistogramBucket[] {
  const bounds = [...new Set(series.flatMap((s) => s.buckets.map((b) => b.le)))].sort((x, y) => x - y);
  return bounds.map((le) => {
    let cumulative = 0;
    for (const s of series) {
      let c = 0;
      for (const b of s.buckets) if (b.le <= le) c = b.cumulative;
      cumulative += c;
    }
    return { le, cumulative };
  });
}

function finite(v: number): number | null {
  return Number.isFinite(v) ? v : null;
}

export function histogramRowsOfScrape(
  body: string,
  end: ScrapeEnd = WHOLE_INPUT,
): {
  rows: HistogramRow[];
  problemCount: number;
  findings: FindingCount[];
  /** Histogram series exposed, every family and replica (what analyze counts). */
  exposed: number;
  /** The sentence of its input-cut-short finding (its text ends inside a line), as analyze lists it; null: not cut so. */
  cutShort: string | null;
  /** Cut short (inside a line, or its gzip data broke): the families it read whole and the one it broke off in (RunData.scrapeCut); null: whole. */
  scrapeCut: ScrapeCutFamilies | null;
} {
  const parsed = parseExposition(body, end);
  // A stage whose series show a known lie (codec TTFT, one output, downstream queue time): marked, never compared as truth.
  const caveats = new SeriesCaveats(parsed, AGGREGATED_AWAY);
  const groups = new Map<string, { family: string; exposed: string; labels: Labels; series: HistogramSeries[] }>();
  for (const family of parsed.families) {
    if (family.type !== 'histogram' || !LATENCY.has(family.canonicalName)) continue;
    for (const series of family.series) {
      const labels = withoutLabels(series.labels, AGGREGATED_AWAY);
      const key = `${family.canonicalName}|${labelsKey(labels)}`;
      let g = groups.get(key);
      if (g === undefined)
        groups.set(key, (g = { family: family.canonicalName, exposed: family.name, labels, series: [] }));
      g.series.push(series);
    }
  }
  const rows: HistogramRow[] = [];
  for (const g of groups.values()) {
    const buckets = addHistograms(g.series);
    const counts = g.series.map((s) => s.count);
    const count = counts.some((c) => c === null) ? null : counts.reduce((n: number, c) => n + (c ?? 0), 0);
    // A replica's series the cut may have reached: the stage's quantiles are not those of the others alone.
    const cut = g.series.some((s) => s.cut === true);
    const q = (x: number): number | null => (count === 0 || cut ? null : finite(histogramQuantile(x, buckets)));
    const bounds = quantileBounds(buckets);
    const first = buckets[0];
    // The caveats analyze marks a scrape's series with, on the stage's added series.
    const known =
      g.family === DIFFUSION_PREPROCESS_FAMILY && first !== undefined
        ? preprocessZerosCaveat(g.labels, { le: first.le, count: first.cumulative }, count, bounds)
        : caveats.caveatOf(g.family, g.labels);
    const caveat = cut
      ? [cutSeriesCaveat(g.series.length > 1 ? 'stage' : 'series'), known].filter((c) => c !== null).join(' ')
      : known;
    rows.push({
      family: g.family,
      ...(g.exposed === g.family ? {} : { exposedName: g.exposed }),
      labels: g.labels,
      count,
      p50: q(0.5),
      p90: q(0.9),
      p99: q(0.99),
      openEnded: cut ? [] : openEndedQuantiles(buckets),
      bounds: cut ? {} : bounds,
      caveat,
      ...(cut ? { cut: true as const } : {}),
      ...(caveats.isOneOutput(g.family, g.labels) ? { oneOutput: true } : {}),
    });
  }
  rows.sort(compareHistogramRows);
  const exposed = parsed.families.reduce((n, f) => n + (f.type === 'histogram' ? f.series.length : 0), 0);
  return {
    rows,
    problemCount: parsed.problems.length,
    findings: scrapeFindings(rows, parsed, end),
    exposed,
    cutShort: scrapeCutFinding(parsed, end)?.message ?? null,
    scrapeCut: scrapeCutFamilies(parsed, end),
  };
}

/**
 * Rows of a session's saved scrape (quantiles per series, no buckets): series cannot be
 * added, so a stage with several replicas keeps one row per replica; a single replica
 * stands for its stage.
 */
export function histogramRowsOfSummaries(summaries: readonly HistogramRow[]): HistogramRow[] {
  const latency = summaries.filter((s) => LATENCY.has(s.family));
  const perStage = new Map<string, number>();
  const stageKey = (s: HistogramRow): string => `${s.family}|${labelsKey(withoutLabels(s.labels, AGGREGATED_AWAY))}`;
  for (const s of latency) perStage.set(stageKey(s), (perStage.get(stageKey(s)) ?? 0) + 1);
  return latency
    .map((s) => ({
      family: s.family,
      labels: withoutLabels(s.labels, (perStage.get(stageKey(s)) ?? 0) > 1 ? ['model_name'] : AGGREGATED_AWAY),
      count: s.count,
      p50: s.p50,
      p90: s.p90,
      p99: s.p99,
      openEnded: s.openEnded ?? [],
      bounds: s.bounds ?? {},
      caveat: s.caveat ?? null,
      ...(s.cut === true ? { cut: true as const } : {}),
      ...(s.oneOutput === true ? { oneOutput: true } : {}),
    }))
    .sort(compareHistogramRows);
}
