// Polls a Prometheus server for one deployment at an interval. It keeps the last good
// figures and, separately, the current error: a Prometheus that goes down, a PromQL
// error or a family whose query fails does not erase what was last read (a failed
// family keeps its previous rows), and the error clears at the next good poll. Polls
// never overlap: the next one is scheduled when the previous one has finished.
import type { PrometheusParams, PrometheusSummary } from '../protocol';
import { checkDeploymentLabel, parseWindow, windowText, type QueryWindow } from '../core/prometheusQuery';
import { PrometheusApi, PrometheusConfigError } from './prometheusApi';
import { pollPrometheus } from './prometheusPoll';
import { ListenerSet } from './listenerSet';
import { PollLoop } from './pollLoop';

export const PROMETHEUS_POLL_DEFAULTS = Object.freeze({ intervalMs: 5000, window: '5m' });

/** What a poller knows: a PrometheusSummary without the session id. */
export type PrometheusState = Omit<PrometheusSummary, 'sessionId'>;

export interface PrometheusSourceOptions extends PrometheusParams {
  /** Deadline of one query (default 5000 ms). */
  readonly timeoutMs?: number;
}

export interface PrometheusUpdate {
  readonly state: PrometheusState;
  /** True when this poll succeeded (for every family). */
  readonly good: boolean;
  /** True when this poll brought new figures (possibly with some families failed). */
  readonly fresh: boolean;
}

/** Checks the parameters of a Prometheus session; throws PrometheusConfigError with a message for the user. */
export function checkPrometheusParams(params: PrometheusParams): {
  readonly api: PrometheusApi;
  readonly window: QueryWindow;
  readonly intervalMs: number;
} {
  const labelProblem = checkDeploymentLabel(params.deploymentLabel);
  if (labelProblem !== null) throw new PrometheusConfigError(`deployment label: ${labelProblem}`);
  const window = parseWindow(params.window ?? PROMETHEUS_POLL_DEFAULTS.window);
  if ('error' in window) throw new PrometheusConfigError(window.error);
  const intervalMs = params.intervalMs ?? PROMETHEUS_POLL_DEFAULTS.intervalMs;
  if (!Number.isFinite(intervalMs) || intervalMs < 250)
    throw new PrometheusConfigError(`intervalMs must be at least 250 ms, got ${intervalMs}`);
  return { api: new PrometheusApi(params.url), window, intervalMs };
}

export class PrometheusSource {
  readonly api: PrometheusApi;
  readonly intervalMs: number;
  private readonly window: QueryWindow;
  private readonly listeners = new ListenerSet<PrometheusUpdate>('prometheus');
  private readonly loop: PollLoop;
  private current: PrometheusState;

  constructor(private readonly params: PrometheusSourceOptions) {
    const checked = checkPrometheusParams(params);
    this.api =
      params.timeoutMs === undefined ? checked.api : new PrometheusApi(params.url, { timeoutMs: params.timeoutMs });
    this.window = checked.window;
    this.intervalMs = checked.intervalMs;
    this.loop = new PollLoop(this.intervalMs, (signal) => this.pollOnce(signal));
    const deploymentValue =
      params.deploymentValue === undefined || params.deploymentValue === '' ? null : params.deploymentValue;
    this.current = {
      url: this.api.baseUrl,
      deploymentLabel: params.deploymentLabel,
      deploymentValue,
      window: windowText(this.window),
      evaluatedAt: null,
      families: [],
      instances: [],
      rows: [],
      trend: null,
      gauges: null,
      warnings: [],
      lastError: null,
    };
  }

  /** The last good figures with the current error. */
  get state(): PrometheusState {
    return this.current;
  }

  onUpdate(listener: (update: PrometheusUpdate) => void): () => void {
    return this.listeners.add(listener);
  }

  /** Polls now, then every intervalMs. */
  start(): void {
    this.loop.start();
  }

  /** Cancels the timer and any poll in flight; nothing is emitted after it resolves. */
  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** One poll, applied to the state; resolves with the update (also emitted). */
  async pollOnce(signal?: AbortSignal): Promise<PrometheusUpdate | null> {
    const deploymentValue =
      this.params.deploymentValue === undefined || this.params.deploymentValue === ''
        ? null
        : this.params.deploymentValue;
    let outcome: Awaited<ReturnType<typeof pollPrometheus>>;
    try {
      outcome = await pollPrometheus(
        this.api,
        { selector: { label: this.params.deploymentLabel, value: deploymentValue }, window: this.window },
        signal,
      );
    } catch (error) {
      // pollPrometheus resolves every failure; a throw is a bug, shown rather than crashing the loop.
      outcome = {
        ok: false,
        failure: {
          kind: 'noData',
          message: `Prometheus at ${this.api.baseUrl}: ${error instanceof Error ? error.message : String(error)}`,
        },
      };
    }
    if (signal?.aborted === true) return null;
    let update: PrometheusUpdate;
    if (!outcome.ok) {
      update = { state: { ...this.current, lastError: outcome.failure.message }, good: false, fresh: false };
    } else {
      const r = outcome.result;
      // A family whose query failed keeps its rows of the last good poll.
      const kept = this.current.rows.filter((row) => r.failedFamilies.has(row.family));
      const rows = [...r.rows, ...kept];
      const order = new Map(r.families.map((f, i) => [f, i]));
      rows.sort((a, b) => (order.get(a.family) ?? 0) - (order.get(b.family) ?? 0));
      const firstFailure = [...r.failedFamilies.values()][0];
      update = {
        state: {
          ...this.current,
          deploymentValue: r.deploymentValue,
          evaluatedAt: r.evaluatedAt,
          families: r.families,
          instances: r.instances,
          rows,
          trend: r.trend ?? this.current.trend,
          gauges: r.gauges ?? this.current.gauges,
          warnings: r.warnings,
          lastError:
            firstFailure === undefined
              ? null
              : `${r.failedFamilies.size} of ${r.families.length} families failed; first: ${firstFailure}`,
        },
        good: firstFailure === undefined,
        fresh: true,
      };
    }
    this.current = update.state;
    this.listeners.emit(update);
    return update;
  }
}
