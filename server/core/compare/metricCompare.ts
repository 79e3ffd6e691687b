// Per scope and metric: the counts of both runs, p50/p90/p99, the difference in ms and %,
// and whether it is beyond noise (bootstrap CI of the quantile difference; Mann-Whitney U
// for the whole distribution). A metric measured in one run only is reported as such,
// never as a difference against 0.
import { percentileOfSorted } from '../analysis/distribution';
import { quantileDifferenceCi } from './bootstrap';
import { mannWhitney } from './mannWhitney';
import { ALL_METRICS } from './metrics';
import { hashSeed, bootstrapRandom } from './bootstrapRandom';
import { compareScopes } from './runSamples';
import type {
  ChangeVerdict,
  ComparisonStatus,
  MetricComparison,
  MetricId,
  MetricSamples,
  QuantileComparison,
  RankTest,
  RunSamples,
  ScopeSamples,
  SideStats,
} from './types';
import { EDGE_METRICS } from './types';
import { PERCENTILES, PERCENT_OF, valuesAbovePercentile, type Percentile } from '../reportedPercentiles';

export interface SignificanceOptions {
  readonly confidence: number;
  readonly resamples: number;
  readonly seed: number;
  /** Fewer measured values than this on either side: not testable. */
  readonly minSamples: number;
  /** Practical threshold: a change is flagged only when |Δ| exceeds the larger of this (ms)... */
  readonly minChangeMs: number;
  /** ...and this percentage of the baseline's quantile. */
  readonly minChangePct: number;
}

export const DEFAULT_SIGNIFICANCE: SignificanceOptions = {
  confidence: 0.95,
  resamples: 2000,
  seed: 1,
  minSamples: 10,
  minChangeMs: 0.1,
  minChangePct: 1,
};

/**
 * Values each run needs for a quantile to be flagged: at least `minSamples`, and enough that
 * some value lies above the quantile (n ≥ 1/(1 − q)): p50 and p90 need 10, p99 needs 100.
 * Below that a p99 is the largest value or an interpolation towards it.
 */
export function quantileMinSamples(
  percentile: Percentile,
  options: Pick<SignificanceOptions, 'minSamples'> = DEFAULT_SIGNIFICANCE,
): number {
  return Math.max(options.minSamples, valuesAbovePercentile(percentile));
}

/** The smallest |Δ| worth flagging for a baseline value. */
export function changeThresholdMs(
  baseline: number,
  options: Pick<SignificanceOptions, 'minChangeMs' | 'minChangePct'> = DEFAULT_SIGNIFICANCE,
): number {
  return Math.max(options.minChangeMs, (options.minChangePct / 100) * Math.abs(baseline));
}

/** The verdict of one quantile difference (see ChangeVerdict). */
export function verdictOf(
  beyondNoise: boolean | null,
  diffMs: number,
  thresholdMs: number,
  enoughSamples: boolean,
): ChangeVerdict {
  if (beyondNoise === null) return 'notTestable';
  if (!enoughSamples) return 'fewSamples';
  if (!beyondNoise) return 'withinNoise';
  return Math.abs(diffMs) > thresholdMs ? 'changed' : 'belowThreshold';
}

const EMPTY = new Float64Array(0);

function sideStats(scope: ScopeSamples | undefined, samples: MetricSamples | undefined): SideStats {
  const values = samples?.values ?? EMPTY;
  const q = (p: number): number | null => (values.length === 0 ? null : percentileOfSorted(values, p));
  return {
    requests: scope?.requestCount ?? 0,
    measured: values.length,
    inferred: samples?.inferred ?? 0,
    unknown: { ...(samples?.unknown ?? {}) },
    p50: q(50),
    p90: q(90),
    p99: q(99),
  };
}

export function percentChange(baseline: number, candidate: number): number | null {
  if (baseline === 0) return candidate === 0 ? 0 : null;
  return (100 * (candidate - baseline)) / Math.abs(baseline);
}

function statusOf(b: number, c: number): ComparisonStatus {
  if (b > 0 && c > 0) return 'compared';
  if (b > 0) return 'baselineOnly';
  if (c > 0) return 'candidateOnly';
  return 'neither';
}

function compareMetric(
  scope: string,
  metric: MetricId,
  b: ScopeSamples | undefined,
  c: ScopeSamples | undefined,
  options: SignificanceOptions,
): MetricComparison {
  const bs = b?.metrics[metric];
  const cs = c?.metrics[metric];
  const baseline = sideStats(b, bs);
  const candidate = sideStats(c, cs);
  const status = statusOf(baseline.measured, candidate.measured);
  const stageId = b?.stageId ?? c?.stageId ?? null;
  if (status !== 'compared' || bs === undefined || cs === undefined)
    return { scope, stageId, metric, status, baseline, candidate, quantiles: [], rankTest: null };

  const few = Math.min(bs.values.length, cs.values.length) < options.minSamples;
  const notTestable = few ? `fewer than ${options.minSamples} measured values in a run` : null;
  const quantiles: QuantileComparison[] = PERCENTILES.map((name) => {
    const p = PERCENT_OF[name];
    const bq = percentileOfSorted(bs.values, p);
    const cq = percentileOfSorted(cs.values, p);
    let ci = null;
    if (!few) {
      // One random stream per comparison: a CI does not depend on what else was compared.
      const random = bootstrapRandom(hashSeed(options.seed, `${scope}|${metric}|${name}`));
      ci = quantileDifferenceCi(bs.values, cs.values, p, options, random);
    }
    const beyondNoise = ci === null ? null : ci.low > 0 || ci.high < 0;
    const minSamples = quantileMinSamples(name, options);
    const thresholdMs = changeThresholdMs(bq, options);
    const enough = Math.min(bs.values.length, cs.values.length) >= minSamples;
    return {
      quantile: name,
      baseline: bq,
      candidate: cq,
      diffMs: cq - bq,
      diffPct: percentChange(bq, cq),
      ci,
      beyondNoise,
      notTestable,
      thresholdMs,
      minSamples,
      verdict: verdictOf(beyondNoise, cq - bq, thresholdMs, enough),
    };
  });
  let rankTest: RankTest | null = null;
  if (!few) {
    const mw = mannWhitney(bs.values, cs.values);
    if (mw !== null) rankTest = { ...mw, beyondNoise: mw.pValue < 1 - options.confidence };
  }
  return { scope, stageId, metric, status, baseline, candidate, quantiles, rankTest };
}

/** Every (scope, metric) seen in either run, scopes in pipeline order, metrics in catalogue order. */
export function compareMetrics(
  baseline: RunSamples,
  candidate: RunSamples,
  options: SignificanceOptions = DEFAULT_SIGNIFICANCE,
): MetricComparison[] {
  const b = new Map(baseline.scopes.map((s) => [s.scope, s]));
  const c = new Map(candidate.scopes.map((s) => [s.scope, s]));
  const scopes = [...new Set([...b.keys(), ...c.keys()])].sort(compareScopes);
  const out: MetricComparison[] = [];
  for (const scope of scopes) {
    const bs = b.get(scope) ?? unprintedEdge(scope, baseline);
    const cs = c.get(scope) ?? unprintedEdge(scope, candidate);
    for (const metric of ALL_METRICS) {
      if (bs?.metrics[metric] === undefined && cs?.metrics[metric] === undefined) continue;
      out.push(compareMetric(scope, metric, bs, cs, options));
    }
  }
  return out;
}

/**
 * An edge the other run printed, in a run whose log has no transfer table of it although its
 * requests ran both stages (an INFO-level log; a build without transfer stats): those requests
 * are its unknowns, not a run that never reached the edge.
 */
function unprintedEdge(scope: string, run: RunSamples): ScopeSamples | undefined {
  const ends = /^(\d+)->(\d+)$/.exec(scope);
  if (ends === null) return undefined;
  const [from, to] = [Number(ends[1]), Number(ends[2])];
  const requests = run.stagePairRequests?.[`${Math.min(from, to)}->${Math.max(from, to)}`] ?? 0;
  if (requests === 0) return undefined;
  const unknown: MetricSamples = { values: EMPTY, inferred: 0, unknown: { noTransferTable: requests } };
  const metrics: Partial<Record<MetricId, MetricSamples>> = {};
  for (const metric of EDGE_METRICS) metrics[metric] = unknown;
  return { scope, stageId: null, requestCount: requests, metrics };
}
