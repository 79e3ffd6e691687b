// A Prometheus poller as the source of a session of kind `prometheus`. Each poll's
// figures are kept in memory and in the session folder (prometheus.json, so a reopened
// session still shows them), the per-series rows also go to the session's histogram
// rows (export, CLI), and errors become the session's lastError while the last good
// figures stay.
import { readFileSync, renameSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type {
  HistogramSummary,
  PrometheusPanel,
  PrometheusParams,
  PrometheusReplica,
  PrometheusStageRow,
  PrometheusSummary,
} from '../protocol';
import type { Session } from './session';
import type { CaptureListener, CaptureSource } from './source';
import { PrometheusSource, type PrometheusState } from './prometheusSource';
import { compareLabel } from '../core/prometheusQuery';
import { checkPrometheusState } from './storage/storedPrometheus';

const FILE = 'prometheus.json';
const live = new Map<string, PrometheusState>();

function save(dir: string, state: PrometheusState): void {
  mkdirSync(dir, { recursive: true });
  const tmp = path.join(dir, `${FILE}.tmp`);
  writeFileSync(tmp, JSON.stringify(state));
  renameSync(tmp, path.join(dir, FILE));
}

function load(dir: string): PrometheusState | null {
  try {
    return checkPrometheusState(JSON.parse(readFileSync(path.join(dir, FILE), 'utf8')));
  } catch {
    return null;
  }
}

/** The Prometheus figures of a session (live, or saved by an earlier run); null for other kinds of session. */
export function prometheusSummaryOf(session: Session): PrometheusSummary | null {
  const state = live.get(session.id) ?? load(session.files.dir);
  return state === null
    ? null
    : { sessionId: session.id, ...state, lastError: session.info.lastError ?? state.lastError };
}

/** The (stage, replica) pairs of the rows, each with every instance any family reports it from. */
export function replicasOf(rows: readonly PrometheusStageRow[]): PrometheusReplica[] {
  const byKey = new Map<string, { stage: string | null; replica: string | null; instances: Set<string> }>();
  for (const r of rows) {
    if (r.scope !== 'replica' || r.stage === null) continue;
    const key = `${r.stage}\u0000${r.replica ?? ''}`;
    let entry = byKey.get(key);
    if (entry === undefined) byKey.set(key, (entry = { stage: r.stage, replica: r.replica, instances: new Set() }));
    for (const i of r.instances) entry.instances.add(i);
  }
  return [...byKey.values()]
    .sort((a, b) => compareLabel(a.stage, b.stage) || compareLabel(a.replica, b.replica))
    .map((e) => ({ stage: e.stage, replica: e.replica, instances: [...e.instances].sort() }));
}

/** The side panel's part of a Prometheus session; null for other sessions and before any figures. */
export function prometheusPanelOf(session: Session): PrometheusPanel | null {
  if (session.info.kind !== 'prometheus') return null;
  const summary = prometheusSummaryOf(session);
  if (summary === null) return null;
  return {
    window: summary.window,
    evaluatedAt: summary.evaluatedAt,
    replicas: replicasOf(summary.rows),
    trend: summary.trend,
  };
}

/**
 * Rows as /metrics-style histogram series: one per (stage, replica), plus the stage rows
 * of families that have no replica label (they are the only row of their stage).
 */
export function histogramRowsOf(rows: readonly PrometheusStageRow[]): HistogramSummary[] {
  const withReplicas = new Set(
    rows.filter((r) => r.scope === 'replica').map((r) => `${r.family}\u0000${r.stage ?? ''}`),
  );
  const out: HistogramSummary[] = [];
  for (const r of rows) {
    if (r.scope === 'stage' && withReplicas.has(`${r.family}\u0000${r.stage ?? ''}`)) continue;
    const labels: Record<string, string> = {};
    if (r.stage !== null) labels['stage'] = r.stage;
    if (r.replica !== null) labels['replica'] = r.replica;
    out.push({
      family: r.family,
      labels,
      count: r.count,
      sum: r.sum,
      p50: r.p50,
      p90: r.p90,
      p99: r.p99,
      openEnded: r.openEnded,
      bounds: r.bounds,
      caveat: r.caveat,
    });
  }
  return out;
}

/** How a Prometheus session is named to the user: the server and the deployment. */
export function prometheusDescription(params: PrometheusParams): string {
  const value =
    params.deploymentValue === undefined || params.deploymentValue === '' ? '' : `="${params.deploymentValue}"`;
  return `${params.url.trim()} · ${params.deploymentLabel}${value}`;
}

export class PrometheusCaptureSource implements CaptureSource {
  readonly description: string;
  private source: PrometheusSource | null = null;

  constructor(
    private readonly params: PrometheusParams,
    private readonly session: Session,
  ) {
    this.description = prometheusDescription(params);
  }

  start(listener: CaptureListener): void {
    try {
      this.source = new PrometheusSource(this.params);
    } catch (err) {
      listener.onStatus('error', err instanceof Error ? err.message : String(err));
      return;
    }
    live.set(this.session.id, this.source.state);
    this.source.onUpdate(({ state, good, fresh }) => {
      live.set(this.session.id, state);
      save(this.session.files.dir, state);
      // applyScrape also marks the session running and clears its error.
      if (fresh) this.session.applyScrape(histogramRowsOf(state.rows), 'prometheus');
      if (!good) this.session.setLastError(state.lastError);
    });
    this.source.start();
  }

  async stop(): Promise<void> {
    await this.source?.stop();
    this.source = null;
    // The figures stay readable from prometheus.json.
    live.delete(this.session.id);
  }
}
