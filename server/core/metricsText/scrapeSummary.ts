// A /metrics scrape as the CLI and the sessions report it: one row per histogram
// series of every family (stage/replica labels kept), quantiles as PromQL's
// histogram_quantile. A series that is absent stays absent: not measured. A count or
// sum the series did not expose stays null (unknown), never 0; series known to mislead
// (seriesCaveats.ts: the codec TTFT signature, a one-output stage's prefill and decode, a
// downstream stage's queue time, a family stuck at 0 when the caller hands in its
// metric-not-reporting findings), and diffusion pre-processing quantiles that the "no
// pre-processor" zeros may make, carry the explanation, so no view presents them as truth.
import { bucketInconsistency } from './bucketConsistency';
import { parseExposition } from './exposition';
import { canonicalMetricName } from './metricNames';
import { preemptionsOf, type PreemptionCount } from './preemptions';
import { SeriesCaveats, type NotReportingMark } from './seriesCaveats';
import { DIFFUSION_PREPROCESS_FAMILY, preprocessZerosCaveat } from './preprocessZeros';
import type { ParsedExposition } from './model';
import { summarizeHistogramSeries } from './stageHistograms';
import { caveatSaysCut, cutSeriesCaveat } from './scrapeCut';
import type { ParseProblem } from '../records';
import { PERCENTILES, type Percentile } from '../reportedPercentiles';
import { speechStreamsOf, type SpeechStreamCounts } from './speechStreams';

export type { SpeechStreamCounts, PreemptionCount };
import { quantileBoundsFromJson, type QuantileBounds } from './quantileBounds';

/** One histogram series of a /metrics scrape, quantiles as PromQL's histogram_quantile (family unit). */
export interface HistogramSummary {
  /** The canonical name (`vllm_omni:…`), which the rules and comparisons match on. */
  readonly family: string;
  /**
   * The name as the scrape exposed it, where it differs from `family` (an older build's
   * `vllm:omni_…`): what a user writes in PromQL against that server. Absent: the same.
   */
  readonly exposedName?: string;
  readonly labels: Readonly<Record<string, string>>;
  /** Observations; null when the series exposed neither `_count` nor a +Inf bucket (unknown, not 0). */
  readonly count: number | null;
  /** Sum of the observations; null when `_sum` was not exposed. */
  readonly sum: number | null;
  readonly p50: number | null;
  readonly p90: number | null;
  readonly p99: number | null;
  /** Quantiles whose rank fell into the +Inf bucket: the true value is at least the one given ("≥ x"). Absent: none. */
  readonly openEnded?: readonly Percentile[];
  /**
   * Quantiles that are bounds, not values (JSON: `"bounds": {"p50": {"kind": "atMost", "le": 0.3}}`):
   * `atMost` the rank fell into the lowest bucket, so the value is at most its bound (PromQL
   * interpolates from 0 there, which reads like a measurement); `atLeast` the +Inf bucket.
   * Absent: none (or an older saved scrape).
   */
  readonly bounds?: QuantileBounds;
  /**
   * Why this series' numbers are not to be read as measured: known to be wrong (e.g. the codec
   * TTFT signature), or unknown as the scrape was cut (`cut`; that sentence first). Absent or null: none.
   */
  readonly caveat?: string | null;
  /** The scrape was cut short where it may have lost lines of this series: its numbers are unknown, not measured. Absent: not cut. */
  readonly cut?: true;
  /** The series is a one-output stage's prefill (it covers the decode steps), decode or time per output token. Absent: not. */
  readonly oneOutput?: boolean;
}

/** One parse of a scrape body: its histogram rows, its speech stream and preemption counters and the lines that could not be read. */
export function summarizeScrape(body: string): ScrapeSummary {
  return summarizeParsedScrape(parseExposition(body));
}

export interface ScrapeSummary {
  histograms: HistogramSummary[];
  speechStreams: SpeechStreamCounts[];
  /** null: the scrape has no vllm:num_preemptions_total family (unknown, not 0). */
  preemptions: PreemptionCount[] | null;
  problems: ParseProblem[];
}

/** summarizeScrape of a parsed body; `notReporting`: its families stuck at 0, whose rows then say so. */
export function summarizeParsedScrape(
  parsed: ParsedExposition,
  notReporting: readonly NotReportingMark[] = [],
): ScrapeSummary {
  return {
    histograms: histogramSummariesOf(parsed, notReporting),
    speechStreams: speechStreamsOf(parsed),
    preemptions: preemptionsOf(parsed),
    problems: scrapeProblemsOf(parsed),
  };
}

/** The lines of a scrape that could not be read, as parse problems (line numbers of the scrape). */
export function scrapeProblemsOf(parsed: ParsedExposition): ParseProblem[] {
  return parsed.problems.map((p) => ({ line: p.line, message: `metrics: ${p.message}` }));
}

export function histogramSummariesOf(
  parsed: ParsedExposition,
  notReporting: readonly NotReportingMark[] = [],
): HistogramSummary[] {
  const caveats = new SeriesCaveats(parsed, [], notReporting);
  const out: HistogramSummary[] = [];
  for (const family of parsed.families) {
    if (family.type !== 'histogram') continue;
    const canonical = canonicalMetricName(family.name);
    for (const series of family.series) {
      const row = summarizeHistogramSeries(family.name, series);
      const first = series.buckets[0];
      const preprocessCaveat =
        canonical === DIFFUSION_PREPROCESS_FAMILY && first !== undefined
          ? preprocessZerosCaveat(series.labels, { le: first.le, count: first.cumulative }, row.count, row.bounds)
          : null;
      out.push({
        family: row.family,
        ...(family.name === row.family ? {} : { exposedName: family.name }),
        labels: row.labels,
        count: row.count,
        sum: row.sum,
        p50: row.p50,
        p90: row.p90,
        p99: row.p99,
        openEnded: row.openEnded,
        bounds: row.bounds,
        caveat: joinCaveats(
          series.cut === true ? cutSeriesCaveat('series') : null,
          bucketInconsistency(family.name, series),
          caveats.caveatOf(canonical, row.labels) ?? preprocessCaveat,
        ),
        ...(series.cut === true ? { cut: true as const } : {}),
        ...(caveats.isOneOutput(canonical, row.labels) ? { oneOutput: true } : {}),
      });
    }
  }
  return out;
}

/** The caveats that apply, one sentence after the other; null when none does. */
function joinCaveats(...caveats: (string | null)[]): string | null {
  const found = caveats.filter((c): c is string => c !== null);
  return found.length === 0 ? null : found.join(' ');
}

const numberOrNull = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * Rows read back from a session's scrape.json (written by this or an older build, or
 * damaged): what is well formed is kept; a missing count or sum stays unknown (null).
 */
export function histogramSummariesFromJson(raw: unknown): HistogramSummary[] {
  if (!Array.isArray(raw)) return [];
  const out: HistogramSummary[] = [];
  for (const item of raw as unknown[]) {
    if (typeof item !== 'object' || item === null) continue;
    const r = item as Record<string, unknown>;
    if (typeof r['family'] !== 'string' || typeof r['labels'] !== 'object' || r['labels'] === null) continue;
    const labels: Record<string, string> = {};
    for (const [k, v] of Object.entries(r['labels'] as Record<string, unknown>))
      if (typeof v === 'string') labels[k] = v;
    const openEnded = Array.isArray(r['openEnded'])
      ? PERCENTILES.filter((p) => (r['openEnded'] as unknown[]).includes(p))
      : [];
    out.push({
      family: r['family'],
      ...(typeof r['exposedName'] === 'string' ? { exposedName: r['exposedName'] } : {}),
      labels,
      count: numberOrNull(r['count']),
      sum: numberOrNull(r['sum']),
      p50: numberOrNull(r['p50']),
      p90: numberOrNull(r['p90']),
      p99: numberOrNull(r['p99']),
      openEnded,
      bounds: quantileBoundsFromJson(r['bounds']),
      caveat: typeof r['caveat'] === 'string' ? r['caveat'] : null,
      ...(r['cut'] === true || caveatSaysCut(typeof r['caveat'] === 'string' ? r['caveat'] : null)
        ? { cut: true as const }
        : {}),
      ...(r['oneOutput'] === true ? { oneOutput: true } : {}),
    });
  }
  return out;
}
