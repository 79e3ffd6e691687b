// One poll of a Prometheus server for one deployment: find the families and instances
// (one query), then per family the quantiles, counts and sums by (stage, replica) and
// by stage (one query each, a few at a time, all at the discovery's evaluation time so
// the families agree), then the per-replica throughput trend (one range query).
import type { PrometheusStageRow, PrometheusTrend } from '../protocol';
import {
  discoveryQuery,
  familyQuery,
  readDiscovery,
  replicaCollisions,
  familyRows,
  trendOf,
  withKnownCaveats,
  trendQuery,
  TREND_FAMILIES,
  gaugeQuery,
  gaugesOf,
  type PrometheusGauges,
  type DeploymentSelector,
  type QueryWindow,
} from '../core/prometheusQuery';
import type { PrometheusApi, PromFailure } from './prometheusApi';
import { pushAll } from '../core/arrays';

export interface PollSettings {
  readonly selector: DeploymentSelector;
  readonly window: QueryWindow;
  /** Family queries in flight at once (default 3). */
  readonly concurrency?: number;
}

export interface PollResult {
  /** Prometheus's evaluation time, ms since epoch. */
  readonly evaluatedAt: number;
  /** The deployment value queried (chosen, or the only one found). */
  readonly deploymentValue: string;
  readonly families: readonly string[];
  readonly instances: readonly string[];
  /** Rows of the families whose query succeeded. */
  readonly rows: readonly PrometheusStageRow[];
  /** Family -> why its query failed (its rows are missing from `rows`). */
  readonly failedFamilies: ReadonlyMap<string, string>;
  readonly trend: PrometheusTrend | null;
  /** Running, waiting and KV-cache usage per (stage, replica) over the trend's range; null when Prometheus has none. */
  readonly gauges: PrometheusGauges | null;
  readonly warnings: readonly string[];
}

export type PollOutcome =
  | { readonly ok: true; readonly result: PollResult }
  | { readonly ok: false; readonly failure: PromFailure | { readonly kind: 'noData'; readonly message: string } };

function noData(message: string): PollOutcome {
  return { ok: false, failure: { kind: 'noData', message } };
}

async function inBatches<T, R>(items: readonly T[], size: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker));
  return out;
}

export async function pollPrometheus(
  api: PrometheusApi,
  settings: PollSettings,
  signal?: AbortSignal,
): Promise<PollOutcome> {
  const { label } = settings.selector;
  const found = await api.query(discoveryQuery(settings.selector), undefined, signal);
  if (!found.ok) return { ok: false, failure: found };
  const discovery = readDiscovery(found.data, label);
  const where = settings.selector.value === null ? `a "${label}" label` : `${label}="${settings.selector.value}"`;
  if (discovery.families.size === 0) {
    return noData(
      `Prometheus at ${api.baseUrl} has no vLLM-Omni or vLLM stage histograms with ${where}. Is it scraping the servers' /metrics (served with --log-stats), and is the deployment label right?`,
    );
  }
  let value = settings.selector.value;
  if (value === null) {
    if (discovery.deploymentValues.length > 1) {
      return noData(
        `Prometheus at ${api.baseUrl} has ${discovery.deploymentValues.length} deployments under the label "${label}" (${discovery.deploymentValues.join(', ')}); choose one (setting stageLens.prometheus.deploymentValue).`,
      );
    }
    value = discovery.deploymentValues[0] ?? null;
    if (value === null) return noData(`Prometheus at ${api.baseUrl}: no series carries the label "${label}".`);
  }
  const selector: DeploymentSelector = { label, value };
  const t = found.data[0]?.sample.t ?? Date.now() / 1000;
  const families = [...discovery.families.keys()];
  const warnings = [...replicaCollisions(discovery), ...found.warnings];
  const failedFamilies = new Map<string, string>();
  const rows: PrometheusStageRow[] = [];
  const answers = await inBatches(families, settings.concurrency ?? 3, (family) =>
    api.query(familyQuery(discovery.families.get(family) ?? [], selector, settings.window), t, signal),
  );
  let skipped = 0;
  families.forEach((family, i) => {
    const answer = answers[i];
    if (answer === undefined) return;
    if (!answer.ok) {
      failedFamilies.set(family, answer.message);
      return;
    }
    skipped += answer.skipped;
    pushAll(warnings, answer.warnings);
    pushAll(rows, familyRows(family, answer.data, discovery, settings.window.kind === 'cumulative'));
  });

  let trend: PrometheusTrend | null = null;
  const trendFamily = TREND_FAMILIES.find((f) => discovery.families.has(f));
  const range = trendQuery(discovery.families.get(trendFamily ?? '') ?? [], selector, settings.window);
  const points = Math.floor(range.rangeSeconds / range.stepSeconds) + 1;
  const start = t - (points - 1) * range.stepSeconds;
  if (trendFamily !== undefined) {
    const answer = await api.queryRange(range.expr, start, t, range.stepSeconds, signal);
    if (answer.ok) trend = trendOf(trendFamily, answer.data, start, range.stepSeconds, points);
    else warnings.push(`throughput trend: ${answer.message}`);
  }
  let gauges: PrometheusGauges | null = null;
  const gaugeAnswer = await api.queryRange(gaugeQuery(selector), start, t, range.stepSeconds, signal);
  if (gaugeAnswer.ok)
    gauges = gaugeAnswer.data.length === 0 ? null : gaugesOf(gaugeAnswer.data, start, range.stepSeconds, points);
  else warnings.push(`running / waiting / KV-cache usage: ${gaugeAnswer.message}`);
  if (skipped > 0)
    warnings.push(`${skipped} series or points of Prometheus's answers could not be read and were left out`);
  return {
    ok: true,
    result: {
      evaluatedAt: Math.round(t * 1000),
      deploymentValue: value,
      families,
      instances: discovery.allInstances,
      rows: withKnownCaveats(rows),
      failedFamilies,
      trend,
      gauges,
      warnings: [...new Set(warnings)],
    },
  };
}
