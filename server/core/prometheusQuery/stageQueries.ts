// The PromQL Stage Lens sends to a Prometheus server that scrapes vLLM-Omni hosts:
// which histogram families exist for a deployment (and on which instances), and per
// family the p50/p90/p99, observation counts and sums, grouped by (stage, replica) and
// by stage over all replicas. Pure text building; the caller sends and parses.
import { LEGACY_OMNI_PREFIX, OMNI_PREFIX } from '../metricsText/metricNames';
import { STAGE_LATENCY_HISTOGRAMS } from '../metricsText/stageHistograms';
import { durationMs, formatDuration, isLabelName, regexEscape, stringLiteral } from './syntax';

/** Label added to every sample of a family query: which figure it is. */
export const STAT_LABEL = 'stage_lens_stat';
/** Label added to every sample of a family query: `replica` (by stage and replica) or `stage` (all replicas of a stage). */
export const SCOPE_LABEL = 'stage_lens_scope';
/** The label Prometheus gives every scraped series: the host:port it came from. */
export const INSTANCE_LABEL = 'instance';

export type QuantileStat = 'p50' | 'p90' | 'p99';
/**
 * `finiteBuckets`: the highest finite bucket (max over le of the cumulative buckets),
 * `allBuckets`: the +Inf bucket; together they say which quantiles fell into +Inf.
 * `lowestBucket`: the lowest bucket (min over le: the counts are cumulative), which says
 * which quantiles fell into it (then only its bound is known: "≤ x").
 */
export type FamilyStat = QuantileStat | 'count' | 'sum' | 'total' | 'finiteBuckets' | 'allBuckets' | 'lowestBucket';
export type Scope = 'replica' | 'stage';

export const QUANTILE_STATS: ReadonlyArray<readonly [QuantileStat, number]> = [
  ['p50', 0.5],
  ['p90', 0.9],
  ['p99', 0.99],
];

const GROUPING: Readonly<Record<Scope, string>> = { replica: 'stage, replica', stage: 'stage' };

/**
 * The histogram families read from Prometheus: the per-stage latency families. The
 * transfer families are left out: they are labelled by edge (from/to stage and replica),
 * so grouping them by stage would mix every edge into one row.
 */
export const PROMETHEUS_FAMILIES: readonly string[] = STAGE_LATENCY_HISTOGRAMS.filter(
  (name) => !name.startsWith(`${OMNI_PREFIX}transfer_`),
);

/** How quantiles and counts are taken: over a sliding window (`rate`/`increase`) or over everything since each server started. */
export type QueryWindow =
  { readonly kind: 'rate'; readonly duration: string; readonly ms: number } | { readonly kind: 'cumulative' };

/** The window setting's text: a PromQL duration (`5m`), or `all` for the cumulative buckets since each server started. */
export const CUMULATIVE_WINDOW = 'all';

export function parseWindow(text: string): QueryWindow | { readonly error: string } {
  const trimmed = text.trim();
  if (trimmed === CUMULATIVE_WINDOW) return { kind: 'cumulative' };
  const ms = durationMs(trimmed);
  if (ms === null)
    return {
      error: `window "${text}" is not a PromQL duration like 30s, 5m or 1h (or "${CUMULATIVE_WINDOW}" for everything since each server started)`,
    };
  return { kind: 'rate', duration: trimmed, ms };
}

export function windowText(window: QueryWindow): string {
  return window.kind === 'cumulative' ? CUMULATIVE_WINDOW : window.duration;
}

/** Which series belong to the deployment: `label="value"`, or every series that has the label when no value is chosen. */
export interface DeploymentSelector {
  readonly label: string;
  readonly value: string | null;
}

export function checkDeploymentLabel(label: string): string | null {
  return isLabelName(label)
    ? null
    : `"${label}" is not a Prometheus label name (letters, digits and _, not starting with a digit or __)`;
}

/** The names a family is exposed under: vLLM-Omni families under both prefix generations. */
export function exposedNames(family: string): string[] {
  if (family.startsWith(OMNI_PREFIX)) return [family, LEGACY_OMNI_PREFIX + family.slice(OMNI_PREFIX.length)];
  return [family];
}

/** Canonical family and suffix of an exposed series name (`vllm:omni_x_count` -> [`vllm_omni:x`, `count`]), or null. */
export function familyOfSeriesName(
  name: string,
): { readonly family: string; readonly suffix: 'bucket' | 'count' | 'sum' } | null {
  const m = /^(.*)_(bucket|count|sum)$/.exec(name);
  if (m === null) return null;
  const base = m[1];
  const family = base.startsWith(LEGACY_OMNI_PREFIX) ? OMNI_PREFIX + base.slice(LEGACY_OMNI_PREFIX.length) : base;
  return PROMETHEUS_FAMILIES.includes(family) ? { family, suffix: m[2] as 'bucket' | 'count' | 'sum' } : null;
}

function deploymentMatcher(selector: DeploymentSelector): string {
  return selector.value === null ? `${selector.label}!=""` : `${selector.label}=${stringLiteral(selector.value)}`;
}

/** `{__name__=~"a|b",label="value"}` for the given series names, with an optional extra matcher. */
export function seriesSelector(names: readonly string[], selector: DeploymentSelector, extra?: string): string {
  const pattern = names.map(regexEscape).join('|');
  return `{__name__=~${stringLiteral(pattern)},${deploymentMatcher(selector)}${extra === undefined ? '' : `,${extra}`}}`;
}

/**
 * Which families the deployment exposes and from which instances: one sample per
 * (family name, stage, replica, instance[, deployment label]) from the `_count` series.
 */
export function discoveryQuery(
  selector: DeploymentSelector,
  families: readonly string[] = PROMETHEUS_FAMILIES,
): string {
  const names = families.flatMap(exposedNames).map((n) => `${n}_count`);
  const by = ['__name__', 'stage', 'replica', INSTANCE_LABEL];
  if (selector.value === null && !by.includes(selector.label)) by.push(selector.label);
  return `group by (${by.join(', ')}) (${seriesSelector(names, selector)})`;
}

/** The values of the deployment label among the series of the known families. */
export function deploymentsQuery(label: string, families: readonly string[] = PROMETHEUS_FAMILIES): string {
  const names = families.flatMap(exposedNames).map((n) => `${n}_count`);
  return `group by (${label}) (${seriesSelector(names, { label, value: null })})`;
}

function tagged(expr: string, stat: FamilyStat, scope: Scope): string {
  return `label_replace(label_replace(${expr}, "${STAT_LABEL}", "${stat}", "", ""), "${SCOPE_LABEL}", "${scope}", "", "")`;
}

/**
 * One query for one family: every figure for both scopes, each sample tagged with
 * `stage_lens_stat` and `stage_lens_scope`, joined with `or` (the tags keep them apart).
 *
 * Windowed: `histogram_quantile(q, sum by (le, <group>) (rate(<family>_bucket[w])))`,
 * count and sum by `increase(...[w])` (extrapolated by Prometheus, so not whole
 * numbers), and `total` = the `_count` counters now. Cumulative: the same on the raw
 * counters (everything since each server started; wrong across a server restart).
 * The highest finite and the +Inf bucket come along so that a quantile PromQL clamps to
 * the highest finite bound can be shown as "≥ x" (its rank fell into +Inf), and the lowest
 * bucket so that one PromQL interpolated from 0 inside it can be shown as "≤ its bound".
 */
export function familyQuery(exposed: readonly string[], selector: DeploymentSelector, window: QueryWindow): string {
  const series = (suffix: string, extra?: string): string =>
    seriesSelector(
      exposed.map((n) => `${n}_${suffix}`),
      selector,
      extra,
    );
  const over = (suffix: string, fn: 'rate' | 'increase', extra?: string): string =>
    window.kind === 'cumulative' ? series(suffix, extra) : `${fn}(${series(suffix, extra)}[${window.duration}])`;
  const parts: string[] = [];
  for (const scope of ['replica', 'stage'] as const) {
    const group = GROUPING[scope];
    for (const [stat, q] of QUANTILE_STATS) {
      parts.push(tagged(`histogram_quantile(${q}, sum by (le, ${group}) (${over('bucket', 'rate')}))`, stat, scope));
    }
    parts.push(tagged(`sum by (${group}) (${over('count', 'increase')})`, 'count', scope));
    parts.push(tagged(`sum by (${group}) (${over('sum', 'increase')})`, 'sum', scope));
    if (window.kind === 'rate') parts.push(tagged(`sum by (${group}) (${series('count')})`, 'total', scope));
    parts.push(
      tagged(
        `max by (${group}) (sum by (le, ${group}) (${over('bucket', 'rate', 'le!="+Inf"')}))`,
        'finiteBuckets',
        scope,
      ),
    );
    parts.push(tagged(`sum by (${group}) (${over('bucket', 'rate', 'le="+Inf"')})`, 'allBuckets', scope));
    parts.push(tagged(`min by (${group}) (sum by (le, ${group}) (${over('bucket', 'rate')}))`, 'lowestBucket', scope));
  }
  return parts.join(' or ');
}

/** The family whose `_count` rate is the per-replica throughput trend: a request-level family present on every LLM stage. */
export const TREND_FAMILIES: readonly string[] = [
  'vllm:e2e_request_latency_seconds',
  'vllm_omni:diffusion_exec_s',
  'vllm_omni:audio_ttfp_s',
];

export interface TrendQuery {
  readonly expr: string;
  /** Seconds. */
  readonly rangeSeconds: number;
  readonly stepSeconds: number;
}

/**
 * Finished requests per second per (stage, replica) over the window (15 minutes for the
 * cumulative window), in about 60 steps. The rate window covers at least four steps and
 * one minute, so that a 15 s or 30 s scrape interval still leaves two samples in it.
 */
export function trendQuery(exposed: readonly string[], selector: DeploymentSelector, window: QueryWindow): TrendQuery {
  const rangeSeconds = Math.max(60, Math.round((window.kind === 'rate' ? window.ms : 15 * 60_000) / 1000));
  const stepSeconds = Math.max(1, Math.ceil(rangeSeconds / 60));
  const rateSeconds = Math.max(60, stepSeconds * 4);
  const expr = `sum by (stage, replica) (rate(${seriesSelector(
    exposed.map((n) => `${n}_count`),
    selector,
  )}[${formatDuration(rateSeconds * 1000)}]))`;
  return { expr, rangeSeconds, stepSeconds };
}

/** The engines' gauges read over the trend's range: running, waiting, KV-cache usage (a fraction, 1 = 100%). */
export const GAUGE_FAMILIES = {
  running: 'vllm:num_requests_running',
  waiting: 'vllm:num_requests_waiting',
  kvCacheUsage: 'vllm:kv_cache_usage_perc',
} as const;
export type GaugeStat = keyof typeof GAUGE_FAMILIES;

/**
 * One range query for the three gauges by (stage, replica), each sample tagged with
 * `stage_lens_stat` (running | waiting | kvCacheUsage). Several hosts reporting one
 * replica are summed for the counts and the highest KV usage is taken.
 */
export function gaugeQuery(selector: DeploymentSelector): string {
  return (Object.entries(GAUGE_FAMILIES) as [GaugeStat, string][])
    .map(([stat, name]) => {
      const agg = stat === 'kvCacheUsage' ? 'max' : 'sum';
      return `label_replace(${agg} by (stage, replica) (${seriesSelector([name], selector, 'stage!=""')}), "${STAT_LABEL}", "${stat}", "", "")`;
    })
    .join(' or ');
}
