// Per-stage view of the latency histograms Stage Lens cares about: one row per exposed
// series (family x stage x replica x other labels) with count, sum and PromQL-exact
// p50/p90/p99. Rows exist only for series the server exposed: a family or stage that is
// absent stays absent (not measured), it never becomes a row of zeros.
import { PERCENTILES, PERCENT_OF, type Percentile } from '../reportedPercentiles';
import { histogramQuantile } from './histogramQuantile';
import { quantileBounds, type QuantileBounds } from './quantileBounds';
import { replicaIdOf, stageIdOf } from './labels';
import { canonicalMetricName, isSecondsMetric } from './metricNames';
import type { HistogramBucket, HistogramSeries, Labels, ParsedExposition } from './model';
import { pushAll } from '../arrays';

/** Canonical names of the histograms with per-stage (or pipeline) latency meaning. */
export const STAGE_LATENCY_HISTOGRAMS: readonly string[] = [
  // Upstream vLLM, relabelled by vLLM-Omni with stage/replica (docs/formats.md#vllm-families).
  'vllm:time_to_first_token_seconds',
  'vllm:request_queue_time_seconds',
  'vllm:request_prefill_time_seconds',
  'vllm:request_decode_time_seconds',
  'vllm:request_inference_time_seconds',
  'vllm:inter_token_latency_seconds',
  'vllm:time_per_output_token_seconds', // older vLLM name of the ITL histogram
  'vllm:request_time_per_output_token_seconds',
  'vllm:e2e_request_latency_seconds',
  // vLLM-Omni (docs/formats.md#vllm-omni-families).
  'vllm_omni:e2e_request_latency_s',
  'vllm_omni:request_queue_wait_s',
  'vllm_omni:stage_gen_time_s',
  'vllm_omni:stage_in_queue_s',
  'vllm_omni:kv_wait_s',
  'vllm_omni:audio_ttfp_s',
  'vllm_omni:audio_duration_s',
  'vllm_omni:audio_rtf',
  'vllm_omni:audio_underrun_s',
  'vllm_omni:image_ttfp_s',
  'vllm_omni:diffusion_exec_s',
  'vllm_omni:diffusion_exec_per_step_s',
  'vllm_omni:diffusion_preprocess_s',
  'vllm_omni:diffusion_postprocess_s',
  'vllm_omni:diffusion_forward_s',
  'vllm_omni:diffusion_kv_load_s',
  'vllm_omni:vae_decode_s',
  'vllm_omni:denoise_step_latency_s',
  'vllm_omni:transfer_tx_s',
  'vllm_omni:transfer_rx_s',
  'vllm_omni:transfer_in_flight_s',
];

/** Each percentile with its quantile φ, as histogram_quantile takes it. */
const QUANTILES: ReadonlyArray<readonly [Percentile, number]> = PERCENTILES.map(
  (name) => [name, PERCENT_OF[name] / 100] as const,
);

export interface MillisecondFigures {
  readonly sum: number | null;
  readonly p50: number | null;
  readonly p90: number | null;
  readonly p99: number | null;
}

export interface StageHistogramRow {
  /** Canonical family name (`vllm_omni:...` even when the server wrote `vllm:omni_...`). */
  readonly family: string;
  /** The family name as the server exposed it. */
  readonly exposedName: string;
  readonly labels: Labels;
  readonly stageId: number | null;
  readonly replicaId: number | null;
  /** Observations; null when the series exposed neither `_count` nor a +Inf bucket. */
  readonly count: number | null;
  readonly sum: number | null;
  /** In the family's unit; null when there is nothing to take a quantile of. */
  readonly p50: number | null;
  readonly p90: number | null;
  readonly p99: number | null;
  /**
   * Quantiles whose rank fell into the +Inf bucket. PromQL then returns the highest
   * finite bound, so the true value is at least that: show it as "≥ x".
   */
  readonly openEnded: readonly Percentile[];
  /** Quantiles that are bounds, not values: "≤ le" (lowest bucket) or "≥ le" (+Inf bucket). */
  readonly bounds: QuantileBounds;
  /** ms figures for `_seconds` / `_s` families, else null. */
  readonly ms: MillisecondFigures | null;
  /** The lowest bucket and how many observations fell into it (cumulative count). */
  readonly firstBucket: { readonly le: number; readonly count: number } | null;
}

function finiteOrNull(value: number): number | null {
  return Number.isFinite(value) ? value : null;
}

function toMs(value: number | null): number | null {
  return value === null ? null : value * 1000;
}

/**
 * Quantiles whose rank exceeds every finite bucket's count (see `openEnded`): PromQL then
 * gives the highest finite bound, and the true value is at least that.
 */
export function openEndedQuantiles(buckets: readonly HistogramBucket[]): Percentile[] {
  let finiteMax = 0;
  let total = 0;
  for (const bucket of buckets) {
    total = Math.max(total, bucket.cumulative);
    if (bucket.le !== Infinity) finiteMax = Math.max(finiteMax, bucket.cumulative);
  }
  if (total === 0 || buckets[buckets.length - 1]?.le !== Infinity) return [];
  return QUANTILES.filter(([, q]) => finiteMax < q * total).map(([name]) => name);
}

export function summarizeHistogramSeries(exposedName: string, series: HistogramSeries): StageHistogramRow {
  const [p50, p90, p99] = QUANTILES.map(([, q]) => finiteOrNull(histogramQuantile(q, series.buckets))) as [
    number | null,
    number | null,
    number | null,
  ];
  const first = series.buckets[0];
  return {
    family: canonicalMetricName(exposedName),
    exposedName,
    labels: series.labels,
    stageId: stageIdOf(series.labels),
    replicaId: replicaIdOf(series.labels),
    count: series.count,
    sum: series.sum,
    p50,
    p90,
    p99,
    openEnded: openEndedQuantiles(series.buckets),
    bounds: quantileBounds(series.buckets),
    ms: isSecondsMetric(exposedName) ? { sum: toMs(series.sum), p50: toMs(p50), p90: toMs(p90), p99: toMs(p99) } : null,
    firstBucket: first === undefined ? null : { le: first.le, count: first.cumulative },
  };
}

function byStageThenReplica(a: StageHistogramRow, b: StageHistogramRow): number {
  const stage = (a.stageId ?? Infinity) - (b.stageId ?? Infinity);
  if (stage !== 0 && !Number.isNaN(stage)) return stage;
  const replica = (a.replicaId ?? Infinity) - (b.replicaId ?? Infinity);
  return Number.isNaN(replica) ? 0 : replica;
}

/**
 * Rows for every exposed series of the given histogram families (canonical or legacy
 * names), grouped by family in the order given, then by stage and replica.
 */
export function stageHistogramRows(
  exposition: ParsedExposition,
  families: readonly string[] = STAGE_LATENCY_HISTOGRAMS,
): StageHistogramRow[] {
  const rows: StageHistogramRow[] = [];
  for (const wanted of families) {
    const canonical = canonicalMetricName(wanted);
    const familyRows: StageHistogramRow[] = [];
    for (const family of exposition.families) {
      if (family.type !== 'histogram' || family.canonicalName !== canonical) continue;
      for (const series of family.series) familyRows.push(summarizeHistogramSeries(family.name, series));
    }
    familyRows.sort(byStageThenReplica);
    pushAll(rows, familyRows);
  }
  return rows;
}
