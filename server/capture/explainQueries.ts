// The session's "why is it slow" queries (server/protocol.ts, section "why a request is
// slow"): tail attribution, load at arrival, percentiles over time, cost model, breakdown
// summary, each over the session's explain index and scoped. An answer is kept until the
// next request arrives, so a view that asks again between two arrivals (several panels,
// a resize) costs nothing.
import { gaugesOfEngines } from '../core/explain/explainReport';
import { breakdownSummary } from '../core/explain/breakdownSummary';
import { costModel } from '../core/explain/costModel';
import { loadAtArrival } from '../core/explain/loadAtArrival';
import type { GaugeSamples } from '../core/explain/types';
import { overTime, OverTimeCache } from '../core/explain/overTime';
import { bootsByTime, gaugeScopeOf } from '../core/explain/gaugeScope';
import { bootsInScope, rowsInScope, scopeCutsRows } from '../core/explain/scope';
import { targetTails } from '../core/explain/targetTails';
import { preemptionsInTail } from '../core/explain/preemptionsInTail';
import { ColumnReads } from '../core/explain/columnReads';
import { stageRolesOfSession } from '../core/stageRoles';
import { mainTargetOf } from '../core/explain/mainTarget';
import type { ExplainScope } from '../core/explain/types';
import type {
  BreakdownSummaryParams,
  BreakdownSummaryResult,
  CostModelParams,
  CostModelResult,
  LoadAtArrivalParams,
  LoadAtArrivalResult,
  OverTimeParams,
  OverTimeResult,
  TailAttributionParams,
  TailAttributionResult,
} from '../protocol';
import type { Session } from './session';
import { prometheusSummaryOf } from './prometheusCapture';
import { KvUsageTracker } from '../core/explain/metricNotReporting';
import type { Finding } from '../core/analysis/types';
import type { PrometheusGauges } from '../core/prometheusQuery/stageFigures';

function prometheusGauges(session: Session): PrometheusGauges | null {
  return session.info.kind === 'prometheus' ? (prometheusSummaryOf(session)?.gauges ?? null) : null;
}

const nanOf = (xs: readonly (number | null)[]): number[] => xs.map((v) => v ?? Number.NaN);

/** metric-not-reporting from a Prometheus session's gauges: KV-cache usage 0 at every step a replica was running requests. */
export function prometheusMetricFindings(session: Session): Finding[] {
  const gauges = prometheusGauges(session);
  if (gauges === null) return [];
  const tracker = new KvUsageTracker();
  for (const s of gauges.series) {
    const labels = {
      ...(s.stage === null ? {} : { stage: s.stage }),
      ...(s.replica === null ? {} : { replica: s.replica }),
    };
    s.running.forEach((running, i) => {
      const kv = s.kvCacheUsagePerc[i];
      if (running !== null && kv !== null && kv !== undefined) tracker.note(labels, kv, running);
    });
  }
  return tracker.findings('vllm:kv_cache_usage_perc', 'steps of Prometheus');
}

const MAX_CACHED = 32;
/** Time zones are whole quarter hours: a log clock (server local time) and capture times differ by one. */
const QUARTER_HOUR_MS = 15 * 60_000;

interface Cached {
  readonly requestCount: number;
  readonly gaugeCount: number;
  readonly value: unknown;
}

const caches = new WeakMap<Session, Map<string, Cached>>();
/** Per session, the steps of earlier over-time answers that new requests cannot change. */
const overTimeCaches = new WeakMap<Session, OverTimeCache>();

function cached<T>(session: Session, method: string, params: object, gaugeCount: number, compute: () => T): T {
  let cache = caches.get(session);
  if (cache === undefined) {
    cache = new Map();
    caches.set(session, cache);
  }
  const key = `${method} ${JSON.stringify(params)}`;
  const n = session.explainIndex.length;
  const hit = cache.get(key);
  if (hit !== undefined && hit.requestCount === n && hit.gaugeCount === gaugeCount) return hit.value as T;
  const value = compute();
  if (cache.size >= MAX_CACHED) cache.clear();
  cache.set(key, { requestCount: n, gaugeCount, value });
  return value;
}

export { mainTargetOf };

function scopeOf(scope: ExplainScope | undefined): ExplainScope {
  return scope ?? {};
}

export function sessionTailAttribution(session: Session, params: TailAttributionParams): TailAttributionResult {
  const index = session.explainIndex;
  const mainTarget = mainTargetOf(index);
  const target = params.target ?? mainTarget;
  const quantile = params.quantile ?? 'p99';
  const scope = scopeOf(params.scope);
  // A boot (or scope) where one request measured the target is no tail: it comes apart with its value.
  const { tails, oneRequest } =
    target === null
      ? { tails: [], oneRequest: [] }
      : cached(session, 'tail', { target, quantile, scope, byBoot: params.byBoot === true }, 0, () =>
          targetTails(
            index,
            target,
            quantile,
            scope,
            params.byBoot === true ? bootsInScope(index, scope) : [undefined],
          ),
        );
  const preemptions =
    target === null
      ? null
      : cached(session, 'preemptions', { target, quantile, scope }, 0, () =>
          preemptionsInTail(index, { target, quantile, scope }, new ColumnReads(), stageRolesOfSession(session.info)),
        );
  return {
    sessionId: session.id,
    requestCount: index.length,
    targets: index.targets(),
    mainTarget,
    tails,
    oneRequest,
    preemptions,
  };
}

export function sessionLoadAtArrival(session: Session, params: LoadAtArrivalParams): LoadAtArrivalResult {
  const index = session.explainIndex;
  const target = params.target ?? mainTargetOf(index);
  const quantile = params.quantile ?? 'p99';
  const scope = scopeOf(params.scope);
  const load =
    target === null
      ? null
      : cached(session, 'load', { target, quantile, scope }, 0, () =>
          loadAtArrival(index, { target, quantile, scope }),
        );
  return { sessionId: session.id, load };
}

/**
 * Capture time minus log time over the latest requests that have both (median, to the
 * quarter hour): how far the server's local clock in its log is from the epoch clock of
 * the scrapes. 0 when the log prints no timestamps (its requests are on capture time).
 */
export function logClockOffset(session: Session): number {
  const index = session.explainIndex;
  const captured = session.requestTimes();
  const diffs: number[] = [];
  for (let i = index.length - 1; i >= 0 && diffs.length < 200; i--) {
    const finish = index.finishMs(i);
    const at = captured[i];
    if (Number.isFinite(finish) && at !== undefined) diffs.push(at - finish);
  }
  if (diffs.length === 0) return 0;
  diffs.sort((a, b) => a - b);
  const median = diffs[diffs.length >> 1];
  return Math.round(median / QUARTER_HOUR_MS) * QUARTER_HOUR_MS;
}

/**
 * The gauges of the session on its log clock: the log's engine lines, and its scrapes' per-replica
 * gauges, each sample with the boot it was taken in (the scrapes' by their time).
 */
export function sessionGauges(session: Session): GaugeSamples[] {
  const fromLog = gaugesOfEngines(session.engineSeries());
  const fromScrapes =
    session.scrapeGauges.size === 0 ? [] : session.scrapeGauges.samples('metrics', logClockOffset(session));
  return [...fromLog, ...[...fromScrapes, ...prometheusSamples(session)].map((g) => withBoots(g, session))];
}

function withBoots(g: GaugeSamples, session: Session): GaugeSamples {
  const boots = bootsByTime(g.times, session.bootStartsMs());
  return boots === null ? g : { ...g, boots };
}

function prometheusSamples(session: Session): GaugeSamples[] {
  const prom = prometheusGauges(session);
  if (prom === null) return [];
  return prom.series.map((s) => ({
    stage: s.stage,
    replica: s.replica,
    source: 'prometheus',
    engine: null,
    mapping: 'labels',
    times: prom.times,
    running: nanOf(s.running),
    waiting: nanOf(s.waiting),
    kvCacheUsagePerc: nanOf(s.kvCacheUsagePerc),
  }));
}

export function sessionOverTime(session: Session, params: OverTimeParams): OverTimeResult {
  const scope = scopeOf(params.scope);
  const gauges = sessionGauges(session);
  const gaugePoints = gauges.reduce((a, g) => a + g.times.length, 0);
  let steps = overTimeCaches.get(session);
  if (steps === undefined) overTimeCaches.set(session, (steps = new OverTimeCache()));
  const kept = steps;
  const series = cached(
    session,
    'overTime',
    { scope, metrics: params.metrics, stepMs: params.stepMs, windowMs: params.windowMs },
    gaugePoints,
    () =>
      overTime(
        session.explainIndex,
        {
          scope,
          ...(params.metrics === undefined ? {} : { metrics: params.metrics }),
          ...(params.stepMs === undefined ? {} : { stepMs: params.stepMs }),
          ...(params.windowMs === undefined ? {} : { windowMs: params.windowMs }),
        },
        gauges,
        kept,
      ),
  );
  const sessionRequests = session.requests().length;
  const cut = scopeCutsRows(scope);
  return {
    sessionId: session.id,
    series,
    scope: cut ? scope : null,
    gaugeScope: gaugeScopeOf(scope),
    requests: cut ? rowsInScope(session.explainIndex, scope).length : sessionRequests,
    sessionRequests,
  };
}

export function sessionCostModel(session: Session, params: CostModelParams): CostModelResult {
  const scope = scopeOf(params.scope);
  return {
    sessionId: session.id,
    model: cached(session, 'cost', { scope }, 0, () => costModel(session.explainIndex, scope)),
  };
}

export function sessionBreakdownSummary(session: Session, params: BreakdownSummaryParams): BreakdownSummaryResult {
  const scope = scopeOf(params.scope);
  return {
    sessionId: session.id,
    summary: cached(session, 'breakdown', { scope }, 0, () => breakdownSummary(session.explainIndex, scope)),
  };
}
