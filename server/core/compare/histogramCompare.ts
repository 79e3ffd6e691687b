// Two scrapes compared series by series: p50/p90/p99 from the buckets and their
// difference. A histogram holds no per-request values, so there is nothing to resample:
// significance is "not testable", said on every row rather than implied.
import { labelsKey } from '../metricsText/labels';
import { isSecondsMetric } from '../metricsText/metricNames';
import { changeThresholdMs, DEFAULT_SIGNIFICANCE, percentChange, type SignificanceOptions } from './metricCompare';
import { compareHistogramRows } from './scrapeHistograms';
import { scaleBounds } from '../metricsText/quantileBounds';
import type { ComparisonStatus, HistogramComparison, HistogramRow, HistogramSide, QuantileComparison } from './types';
import { PERCENTILES } from '../reportedPercentiles';

export const HISTOGRAM_NOT_TESTABLE = 'histogram quantiles: no per-request values to resample';

function side(row: HistogramRow | undefined, scale: number): HistogramSide | null {
  if (row === undefined) return null;
  const s = (v: number | null): number | null => (v === null ? null : v * scale);
  return {
    count: row.count,
    p50: s(row.p50),
    p90: s(row.p90),
    p99: s(row.p99),
    openEnded: [...(row.openEnded ?? [])],
    bounds: scaleBounds(row.bounds, scale),
    caveat: row.caveat ?? null,
    cut: row.cut === true,
    oneOutput: row.oneOutput === true,
  };
}

/** A side with observations: a quantile exists only then (a family stuck at 0 has none). */
export function hasObservations(s: HistogramSide | null): boolean {
  // A quantile exists only when there were observations; the count itself may be unknown.
  return s !== null && s.count !== 0 && s.p50 !== null;
}

/** Per run, the families its scrape read whole when it was cut short (RunData.scrapeCut). */
export interface FamiliesReadWhole {
  readonly baseline?: readonly string[];
  readonly candidate?: readonly string[];
}

/** The run lacking the series whose scrape was cut short before it: the series is unknown there, not absent. */
function unreadRun(
  family: string,
  bs: HistogramSide | null,
  cs: HistogramSide | null,
  readWhole: FamiliesReadWhole,
): 'baseline' | 'candidate' | undefined {
  const unread = (side: HistogramSide | null, whole: readonly string[] | undefined): boolean =>
    side === null && whole !== undefined && !whole.includes(family);
  return unread(bs, readWhole.baseline) ? 'baseline' : unread(cs, readWhole.candidate) ? 'candidate' : undefined;
}

export function compareHistograms(
  baseline: readonly HistogramRow[],
  candidate: readonly HistogramRow[],
  options: Pick<SignificanceOptions, 'minChangeMs' | 'minChangePct'> = DEFAULT_SIGNIFICANCE,
  readWhole: FamiliesReadWhole = {},
): HistogramComparison[] {
  const key = (r: HistogramRow): string => `${r.family}|${labelsKey(r.labels)}`;
  const b = new Map(baseline.map((r) => [key(r), r]));
  const c = new Map(candidate.map((r) => [key(r), r]));
  const rows = [...new Map([...baseline, ...candidate].map((r) => [key(r), r])).values()].sort(compareHistogramRows);
  const out: HistogramComparison[] = [];
  for (const row of rows) {
    const seconds = isSecondsMetric(row.family);
    const scale = seconds ? 1000 : 1;
    const bs = side(b.get(key(row)), scale);
    const cs = side(c.get(key(row)), scale);
    const status: ComparisonStatus =
      hasObservations(bs) && hasObservations(cs)
        ? 'compared'
        : hasObservations(bs)
          ? 'baselineOnly'
          : hasObservations(cs)
            ? 'candidateOnly'
            : 'neither';
    const unreadIn = unreadRun(row.family, bs, cs, readWhole);
    // An empty series in both: nothing was observed. A series cut short, or absent from a scrape cut
    // short before it, is unknown, not empty: kept, to say so.
    if (status === 'neither' && bs?.cut !== true && cs?.cut !== true && unreadIn === undefined) continue;
    const wrongB = bs?.caveat != null;
    const wrongC = cs?.caveat != null;
    const notUsableIn = wrongB && wrongC ? 'both' : wrongB ? 'baseline' : wrongC ? 'candidate' : null;
    const quantiles: QuantileComparison[] = [];
    // A series known to be wrong in a run is shown, never differenced (a Δ would read as a change).
    if (status === 'compared' && notUsableIn === null && bs !== null && cs !== null) {
      for (const q of PERCENTILES) {
        const bv = bs[q];
        const cv = cs[q];
        if (bv === null || cv === null) continue;
        quantiles.push({
          quantile: q,
          baseline: bv,
          candidate: cv,
          diffMs: cv - bv,
          diffPct: percentChange(bv, cv),
          ci: null,
          beyondNoise: null,
          notTestable: HISTOGRAM_NOT_TESTABLE,
          thresholdMs: changeThresholdMs(bv, options),
          minSamples: 0,
          verdict: 'notTestable',
        });
      }
    }
    // As the scrapes exposed it where both runs (or the one that has it) spell it alike (an older
    // build's `vllm:omni_…`): the name to query that server with; two spellings keep the canonical one.
    const spellings = new Set(
      [b.get(key(row)), c.get(key(row))].flatMap((r) => (r === undefined ? [] : [r.exposedName ?? r.family])),
    );
    const exposed = spellings.size === 1 ? [...spellings][0] : undefined;
    out.push({
      family: row.family,
      ...(exposed === undefined || exposed === row.family ? {} : { exposedName: exposed }),
      labels: row.labels,
      unit: seconds ? 'ms' : '',
      status,
      baseline: bs,
      candidate: cs,
      notUsableIn,
      ...(unreadIn === undefined ? {} : { unreadIn }),
      quantiles,
    });
  }
  return out;
}
