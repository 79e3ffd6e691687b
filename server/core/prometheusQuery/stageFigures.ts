// Turns Prometheus query answers into Stage Lens figures: which families and instances a
// deployment has (the discovery query), per-family rows for each (stage, replica) and
// each stage over all replicas (the family query), and the per-replica throughput trend
// (query_range). A NaN quantile (no observation in the window) becomes null: no data.
import { CODEC_TTFT_FAMILIES } from '../metricsText/codecTtftSignature';
import { downstreamQueueCaveat, QUEUE_TIME_FAMILY } from '../metricsText/downstreamQueueTime';
import { ONE_OUTPUT_FAMILIES, oneOutputMessage } from '../metricsText/oneOutputSignature';
import { DECODE_FAMILY, ITL_FAMILIES, PREFILL_FAMILY, TTFT_FAMILY } from '../metricsText/stageSeries';
import type { Percentile } from '../reportedPercentiles';
import type { QuantileBound, QuantileBounds } from '../metricsText/quantileBounds';
import type { MatrixSeries, VectorSeries } from './apiResponse';
import {
  familyOfSeriesName,
  INSTANCE_LABEL,
  PROMETHEUS_FAMILIES,
  QUANTILE_STATS,
  SCOPE_LABEL,
  STAT_LABEL,
  type FamilyStat,
  type Scope,
} from './stageQueries';

/**
 * One row of figures for one histogram family: a (stage, replica) pair (scope `replica`)
 * or a stage over all its replicas (scope `stage`). Values are in the family's unit
 * (seconds for `_s`/`_seconds` families). A null quantile means no observation in the
 * window (PromQL NaN): "no data", never 0. Rows exist only for series Prometheus has.
 */
export interface PrometheusStageRow {
  /** Canonical family name (`vllm_omni:...` even when a server still exposes `vllm:omni_...`). */
  readonly family: string;
  readonly scope: 'replica' | 'stage';
  /** Value of the `stage` label; null for pipeline-wide families (no stage label). */
  readonly stage: string | null;
  /** Value of the `replica` label; null on `stage` rows and for families without a replica label. */
  readonly replica: string | null;
  /** Prometheus `instance` labels (host:port) whose series make up this row. */
  readonly instances: readonly string[];
  /** Observations in the window (increase(): extrapolated, so not always whole), or since start for window `all`. */
  readonly count: number | null;
  /** Observations since each server started (the `_count` counters now). */
  readonly total: number | null;
  /** Sum of the observations in the window (same extrapolation as count). */
  readonly sum: number | null;
  readonly p50: number | null;
  readonly p90: number | null;
  readonly p99: number | null;
  /** Quantiles whose rank fell into the +Inf bucket: PromQL gives the highest finite bound, the true value is at least that ("≥ x"). */
  readonly openEnded: readonly Percentile[];
  /** Quantiles that are bounds, not values: "≥ x" as openEnded, and "≤ x" where the rank fell into the lowest bucket (x its bound). */
  readonly bounds: QuantileBounds;
  /** Why this row's numbers are known to be wrong (the codec TTFT signature), or null. */
  readonly caveat: string | null;
}

/** Finished requests per second per (stage, replica), from query_range. */
export interface PrometheusTrend {
  /** The family whose `_count` was rated. */
  readonly family: string;
  readonly stepSeconds: number;
  /** ms since epoch, shared by every series. */
  readonly times: readonly number[];
  readonly series: readonly {
    readonly stage: string | null;
    readonly replica: string | null;
    /** Aligned with `times`; null where Prometheus had no point. */
    readonly perSecond: readonly (number | null)[];
  }[];
}

const SEP = '\u0000';

function label(series: VectorSeries | MatrixSeries, name: string): string | null {
  const value = Object.prototype.hasOwnProperty.call(series.metric, name) ? series.metric[name] : undefined;
  // Prometheus never stores an empty label value: empty means absent.
  return value === undefined || value === '' ? null : value;
}

function key(...parts: (string | null)[]): string {
  return parts.map((p) => p ?? '').join(SEP);
}

export interface Discovery {
  /** Canonical family -> the base names (without `_count`) it is exposed under, in PROMETHEUS_FAMILIES order. */
  readonly families: ReadonlyMap<string, readonly string[]>;
  /** family/stage/replica -> instances exposing that series. */
  readonly instances: ReadonlyMap<string, ReadonlySet<string>>;
  readonly allInstances: readonly string[];
  /** Values of the deployment label among the series (meaningful when no value was chosen). */
  readonly deploymentValues: readonly string[];
}

export function readDiscovery(series: readonly VectorSeries[], deploymentLabel: string): Discovery {
  const names = new Map<string, Set<string>>();
  const instances = new Map<string, Set<string>>();
  const all = new Set<string>();
  const deployments = new Set<string>();
  for (const s of series) {
    const name = label(s, '__name__');
    const parsed = name === null ? null : familyOfSeriesName(name);
    if (parsed === null || parsed.suffix !== 'count') continue;
    const base = (name as string).slice(0, -'_count'.length);
    let set = names.get(parsed.family);
    if (set === undefined) names.set(parsed.family, (set = new Set()));
    set.add(base);
    const instance = label(s, INSTANCE_LABEL);
    const deployment = label(s, deploymentLabel);
    if (deployment !== null) deployments.add(deployment);
    if (instance === null) continue;
    all.add(instance);
    const k = key(parsed.family, label(s, 'stage'), label(s, 'replica'));
    let at = instances.get(k);
    if (at === undefined) instances.set(k, (at = new Set()));
    at.add(instance);
  }
  const families = new Map<string, string[]>();
  for (const family of PROMETHEUS_FAMILIES) {
    const set = names.get(family);
    if (set !== undefined) families.set(family, [...set].sort());
  }
  return { families, instances, allInstances: [...all].sort(), deploymentValues: [...deployments].sort() };
}

/**
 * vLLM-Omni numbers replicas per server: two hosts that each run replica "0" of a stage
 * both say `replica="0"`, and grouping by replica then adds them together. Names every
 * (stage, replica) that more than one instance reports.
 */
export function replicaCollisions(discovery: Discovery): string[] {
  const seen = new Map<string, Set<string>>();
  for (const [k, instances] of discovery.instances) {
    const [, stage, replica] = k.split(SEP);
    if (replica === undefined || replica === '' || instances.size < 2) continue;
    const at = key(stage ?? null, replica);
    let set = seen.get(at);
    if (set === undefined) seen.set(at, (set = new Set()));
    for (const i of instances) set.add(i);
  }
  return [...seen].map(([k, instances]) => {
    const [stage, replica] = k.split(SEP);
    const list = [...instances].sort();
    return `stage ${stage === '' ? '(none)' : stage} replica ${replica} is reported by ${list.length} instances (${list.join(', ')}): Prometheus adds them up as one replica. Give each host its own replica label (metric_relabel_configs) to see them apart.`;
  });
}

function orderValue(value: string | null): [number, number, string] {
  if (value === null) return [1, 0, ''];
  return /^-?\d+$/.test(value) ? [0, Number(value), ''] : [0, Infinity, value];
}

/** Stage or replica labels in order: numbers numerically (`2` before `10`), then text, absent last. */
export function compareLabel(a: string | null, b: string | null): number {
  const [na, xa, sa] = orderValue(a);
  const [nb, xb, sb] = orderValue(b);
  return na - nb || (xa === xb ? 0 : xa < xb ? -1 : 1) || sa.localeCompare(sb);
}

function rowOrder(a: PrometheusStageRow, b: PrometheusStageRow): number {
  return (
    compareLabel(a.stage, b.stage) ||
    (a.scope === b.scope ? 0 : a.scope === 'replica' ? -1 : 1) ||
    compareLabel(a.replica, b.replica)
  );
}

type MutableRow = { -readonly [K in keyof PrometheusStageRow]: PrometheusStageRow[K] };

const STATS: readonly FamilyStat[] = [
  'p50',
  'p90',
  'p99',
  'count',
  'sum',
  'total',
  'finiteBuckets',
  'allBuckets',
  'lowestBucket',
];

function isStat(value: string | null): value is FamilyStat {
  return value !== null && (STATS as readonly string[]).includes(value);
}

/** Null for NaN (no observation in the window) and for ±Inf (nothing a row can show as a value). */
function finiteOrNull(v: number): number | null {
  return Number.isFinite(v) ? v : null;
}

/** Quantiles whose rank (q × the +Inf bucket) lies above the highest finite bucket, as PromQL decides it. */
function openEndedOf(finiteBuckets: number | undefined, allBuckets: number | undefined): Percentile[] {
  if (finiteBuckets === undefined || allBuckets === undefined || !(allBuckets > 0)) return [];
  return QUANTILE_STATS.filter(([, q]) => finiteBuckets < q * allBuckets).map(([name]) => name);
}

/**
 * The bounds among a row's quantiles. Inside the lowest bucket histogram_quantile returns
 * le0 · rank / count0 (interpolated from 0), so the bound is le0 = value · count0 / rank:
 * Prometheus gives no label as a value, and this recovers it from the quantile itself.
 */
function boundsOf(
  row: Pick<PrometheusStageRow, Percentile | 'openEnded'>,
  b: { lowestBucket?: number; allBuckets?: number } | undefined,
): QuantileBounds {
  const out: Partial<Record<Percentile, QuantileBound>> = {};
  for (const [name, q] of QUANTILE_STATS) {
    const value = row[name];
    if (value === null) continue;
    if (row.openEnded.includes(name)) out[name] = { kind: 'atLeast', le: value };
    else if (
      b?.lowestBucket !== undefined &&
      b.allBuckets !== undefined &&
      b.allBuckets > 0 &&
      b.lowestBucket >= q * b.allBuckets
    ) {
      out[name] = {
        kind: 'atMost',
        le: value <= 0 ? value : Number(((value * b.lowestBucket) / (q * b.allBuckets)).toPrecision(12)),
      };
    }
  }
  return out;
}

/**
 * Rows of one family from the answer to its familyQuery. `replica` rows without a
 * replica label (families labelled by stage only) are dropped: they equal the stage row.
 * In the cumulative window `total` is the count itself.
 */
export function familyRows(
  family: string,
  series: readonly VectorSeries[],
  discovery: Discovery,
  cumulative: boolean,
): PrometheusStageRow[] {
  const rows = new Map<string, MutableRow>();
  const buckets = new Map<string, { finiteBuckets?: number; allBuckets?: number; lowestBucket?: number }>();
  for (const s of series) {
    const stat = label(s, STAT_LABEL);
    const scopeText = label(s, SCOPE_LABEL);
    if (!isStat(stat) || (scopeText !== 'replica' && scopeText !== 'stage')) continue;
    const scope: Scope = scopeText;
    const stage = label(s, 'stage');
    const replica = scope === 'replica' ? label(s, 'replica') : null;
    if (scope === 'replica' && replica === null) continue;
    const k = key(scope, stage, replica);
    let row = rows.get(k);
    if (row === undefined) {
      row = {
        family,
        scope,
        stage,
        replica,
        instances: instancesOf(discovery, family, stage, replica),
        count: null,
        total: null,
        sum: null,
        p50: null,
        p90: null,
        p99: null,
        openEnded: [],
        bounds: {},
        caveat: null,
      };
      rows.set(k, row);
    }
    if (stat === 'finiteBuckets' || stat === 'allBuckets' || stat === 'lowestBucket') {
      const b = buckets.get(k) ?? {};
      b[stat] = s.sample.v;
      buckets.set(k, b);
    } else row[stat] = finiteOrNull(s.sample.v);
  }
  for (const [k, row] of rows) {
    const b = buckets.get(k);
    row.openEnded = openEndedOf(b?.finiteBuckets, b?.allBuckets).filter((p) => row[p] !== null);
    row.bounds = boundsOf(row, b);
    if (cumulative) row.total = row.count;
  }
  return [...rows.values()].sort(rowOrder);
}

/**
 * The lies a direct scrape marks (metricsText/seriesCaveats.ts), on Prometheus rows: the codec
 * TTFT signature (docs/formats.md#numbers-that-lie-in-known-ways), a (stage, replica) whose
 * TTFT counter is 0 since its server started while it has inter-token latencies (an ITL needs
 * an earlier token of the same request, which a correct build records as a TTFT; since-start
 * totals, so a quiet window does not look like the bug); a one-output stage's prefill, decode
 * and time per output token; a downstream stage's queue time. A stage row carries a caveat
 * when one of its replicas does.
 */
export function withKnownCaveats(rows: readonly PrometheusStageRow[]): PrometheusStageRow[] {
  const where = (r: PrometheusStageRow): string => key(r.scope, r.stage, r.replica);
  const ttftTotals = new Map(rows.filter((r) => r.family === TTFT_FAMILY).map((r) => [where(r), r.total]));
  const itlTotals = new Map<string, number>();
  for (const r of rows)
    if (ITL_FAMILIES.includes(r.family) && r.total !== null && r.total > 0 && !itlTotals.has(where(r)))
      itlTotals.set(where(r), r.total);
  const caveats = new Map<string, string>();
  for (const [k, itl] of itlTotals) {
    if (ttftTotals.get(k) !== 0) continue;
    const [scope, stage, replica] = k.split(SEP);
    if (scope !== 'replica') continue;
    const message =
      `TTFT not recorded on stage ${stage || '(none)'} replica ${replica}: no TTFT sample but ${itl} inter-token latencies since the server started. ` +
      "This looks like the codec TTFT bug of builds without the talker-first-audio fix; this stage's TTFT, prefill, decode and ITL histograms are not usable.";
    caveats.set(k, message);
    const stageKey = key('stage', stage || null, null);
    if (!caveats.has(stageKey)) caveats.set(stageKey, message);
  }
  const oneOutput = oneOutputCaveats(rows, where);
  // Each row with every lie known of it, as a direct scrape's row (seriesCaveats.ts).
  return rows.map((r) => {
    const found: string[] = [];
    const codec = CODEC_TTFT_FAMILIES.has(r.family) ? caveats.get(where(r)) : undefined;
    if (codec !== undefined) found.push(codec);
    const one = ONE_OUTPUT_FAMILIES.has(r.family) ? oneOutput.get(where(r)) : undefined;
    if (one !== undefined) found.push(one);
    const queue =
      r.family === QUEUE_TIME_FAMILY ? downstreamQueueCaveat(r.stage === null ? {} : { stage: r.stage }) : null;
    if (queue !== null) found.push(queue);
    return found.length === 0 ? r : { ...r, caveat: found.join(' ') };
  });
}

/**
 * The one-output signature (oneOutputSignature.ts) on Prometheus rows, since each server
 * started: prefill observations, as many decode observations all 0 (sum 0), and an ITL series
 * with none. A stage row carries it when one of its replicas does.
 */
function oneOutputCaveats(
  rows: readonly PrometheusStageRow[],
  where: (r: PrometheusStageRow) => string,
): Map<string, string> {
  const of = (family: string): Map<string, PrometheusStageRow> =>
    new Map(rows.filter((r) => r.family === family).map((r) => [where(r), r]));
  const decode = of(DECODE_FAMILY);
  const itl = of(ITL_FAMILIES[0] ?? '');
  const out = new Map<string, string>();
  for (const prefill of rows) {
    if (prefill.family !== PREFILL_FAMILY || prefill.scope !== 'replica') continue;
    const k = where(prefill);
    const count = prefill.total;
    const d = decode.get(k);
    if (count === null || count <= 0 || itl.get(k)?.total !== 0) continue;
    if (d === undefined || d.total !== count || d.sum !== 0) continue;
    const message = oneOutputMessage(`Stage ${prefill.stage ?? '(none)'}`, count);
    out.set(k, message);
    const stageKey = key('stage', prefill.stage, null);
    if (!out.has(stageKey)) out.set(stageKey, message);
  }
  return out;
}

function instancesOf(discovery: Discovery, family: string, stage: string | null, replica: string | null): string[] {
  const found = new Set<string>();
  for (const [k, instances] of discovery.instances) {
    const [f, s, r] = k.split(SEP);
    if (f !== family || (s || null) !== stage) continue;
    if (replica !== null && (r || null) !== replica) continue;
    for (const i of instances) found.add(i);
  }
  return [...found].sort();
}

/** The matrix answer of a trendQuery, on a grid of `points` steps from `startSeconds`. */
/** The engines' gauges per (stage, replica) on the trend's steps (null: no point); KV usage in percent. */
export interface PrometheusGauges {
  readonly stepSeconds: number;
  /** ms since epoch, shared by every series. */
  readonly times: readonly number[];
  readonly series: readonly {
    readonly stage: string | null;
    readonly replica: string | null;
    readonly running: readonly (number | null)[];
    readonly waiting: readonly (number | null)[];
    readonly kvCacheUsagePerc: readonly (number | null)[];
  }[];
}

/** Reads the answer of gaugeQuery over `points` steps from `startSeconds`. */
export function gaugesOf(
  series: readonly MatrixSeries[],
  startSeconds: number,
  stepSeconds: number,
  points: number,
): PrometheusGauges {
  const times = Array.from({ length: points }, (_, i) => Math.round((startSeconds + i * stepSeconds) * 1000));
  const byKey = new Map<
    string,
    {
      stage: string | null;
      replica: string | null;
      running: (number | null)[];
      waiting: (number | null)[];
      kvCacheUsagePerc: (number | null)[];
    }
  >();
  for (const s of series) {
    const stat = s.metric['stage_lens_stat'];
    const field =
      stat === 'running'
        ? 'running'
        : stat === 'waiting'
          ? 'waiting'
          : stat === 'kvCacheUsage'
            ? 'kvCacheUsagePerc'
            : null;
    if (field === null) continue;
    const stage = label(s, 'stage');
    const replica = label(s, 'replica');
    const key = `${stage ?? ''}${SEP}${replica ?? ''}`;
    let entry = byKey.get(key);
    if (entry === undefined) {
      const empty = (): (number | null)[] => new Array<number | null>(points).fill(null);
      byKey.set(key, (entry = { stage, replica, running: empty(), waiting: empty(), kvCacheUsagePerc: empty() }));
    }
    const scale = field === 'kvCacheUsagePerc' ? 100 : 1;
    for (const sample of s.samples) {
      const i = Math.round((sample.t - startSeconds) / stepSeconds);
      const v = finiteOrNull(sample.v);
      if (i >= 0 && i < points) entry[field][i] = v === null ? null : v * scale;
    }
  }
  const out = [...byKey.values()].sort((a, b) => compareLabel(a.stage, b.stage) || compareLabel(a.replica, b.replica));
  return { stepSeconds, times, series: out };
}

export function trendOf(
  family: string,
  series: readonly MatrixSeries[],
  startSeconds: number,
  stepSeconds: number,
  points: number,
): PrometheusTrend {
  const times = Array.from({ length: points }, (_, i) => Math.round((startSeconds + i * stepSeconds) * 1000));
  const out = series.map((s) => {
    const perSecond: (number | null)[] = new Array<number | null>(points).fill(null);
    for (const sample of s.samples) {
      const i = Math.round((sample.t - startSeconds) / stepSeconds);
      if (i >= 0 && i < points) perSecond[i] = finiteOrNull(sample.v);
    }
    return { stage: label(s, 'stage'), replica: label(s, 'replica'), perSecond };
  });
  out.sort((a, b) => compareLabel(a.stage, b.stage) || compareLabel(a.replica, b.replica));
  return { family, stepSeconds, times, series: out };
}
