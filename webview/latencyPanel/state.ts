// What the latency panel keeps across hide/show and window reloads (getState/setState).
// DOM-free, so the sanitizer is unit-tested.
import type { Percentile, RequestSortKey, TailFilter, TailQuantile } from '../../server/protocol';

export type PanelTab = 'requests' | 'timeline' | 'spans' | 'histograms' | 'tail';

/**
 * The requests every view is over: a time window (the Over Time brush), the exclude-cold switch,
 * one server boot, one server of a merged log.
 */
export interface PanelScope {
  readonly fromMs: number | null;
  readonly toMs: number | null;
  readonly excludeCold: boolean;
  /** Only the requests of this server boot (a log of several); null: every boot. */
  readonly boot: number | null;
  /** Only the requests of this server (a log that merges several, by its tag); null: every server. */
  readonly server: string | null;
}

export interface PanelState {
  readonly version: 1;
  readonly sessionId: string | null;
  readonly tab: PanelTab;
  readonly percentile: Percentile;
  readonly sortBy: RequestSortKey | null;
  readonly descending: boolean;
  readonly filterText: string;
  readonly stageId: number | null;
  /** With stageId: only the requests whose stage ran on this replica. */
  readonly replicaId: number | null;
  readonly findingCode: string | null;
  readonly selectedIndex: number;
  readonly selectedRequestId: string | null;
  readonly scrollTop: number;
  /** The request shown in the timeline tab. */
  readonly openRequestId: string | null;
  readonly histogram: { readonly stageKey: string | null; readonly metric: string; readonly bins: number };
  readonly spansView: { readonly t0: number; readonly t1: number } | null;
  /** The request table shows only this tail (from "Why p99 is slow" or the Tail tab). */
  readonly tail: TailFilter | null;
  readonly scope: PanelScope;
  readonly tailChoice: { readonly target: string | null; readonly quantile: TailQuantile; readonly byBoot: boolean };
  /** The target of Over Time's rolling percentiles; null: the last stage's first output. */
  readonly overTimeMetric: string | null;
}

export const DEFAULT_PANEL_STATE: PanelState = {
  version: 1,
  sessionId: null,
  tab: 'requests',
  percentile: 'p50',
  sortBy: null,
  descending: true,
  filterText: '',
  stageId: null,
  replicaId: null,
  findingCode: null,
  selectedIndex: -1,
  selectedRequestId: null,
  scrollTop: 0,
  openRequestId: null,
  histogram: { stageKey: null, metric: 'split:prefillMs', bins: 40 },
  spansView: null,
  tail: null,
  scope: { fromMs: null, toMs: null, excludeCold: false, boot: null, server: null },
  tailChoice: { target: null, quantile: 'p99', byBoot: false },
  overTimeMetric: null,
};

const TABS: readonly PanelTab[] = ['requests', 'timeline', 'spans', 'histograms', 'tail'];
const QUANTILES: readonly TailQuantile[] = ['p90', 'p95', 'p99'];

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** Keep only well-formed fields; anything else falls back to the default. */
export function sanitizePanelState(raw: unknown): PanelState {
  if (typeof raw !== 'object' || raw === null) return DEFAULT_PANEL_STATE;
  const r = raw as Record<string, unknown>;
  const d = DEFAULT_PANEL_STATE;
  const hist =
    typeof r['histogram'] === 'object' && r['histogram'] !== null ? (r['histogram'] as Record<string, unknown>) : {};
  const spans =
    typeof r['spansView'] === 'object' && r['spansView'] !== null ? (r['spansView'] as Record<string, unknown>) : null;
  const t0 = num(spans?.['t0']);
  const t1 = num(spans?.['t1']);
  const bins = num(hist['bins']);
  const metric = str(hist['metric']);
  const stageId = num(r['stageId']);
  const replicaId = num(r['replicaId']);
  const tail = typeof r['tail'] === 'object' && r['tail'] !== null ? (r['tail'] as Record<string, unknown>) : null;
  const tailTarget = str(tail?.['target']);
  const tailMs = num(tail?.['ms']);
  const tailQuantile = QUANTILES.find((q) => q === tail?.['quantile']);
  const scope = typeof r['scope'] === 'object' && r['scope'] !== null ? (r['scope'] as Record<string, unknown>) : {};
  const choice =
    typeof r['tailChoice'] === 'object' && r['tailChoice'] !== null ? (r['tailChoice'] as Record<string, unknown>) : {};
  const fromMs = num(scope['fromMs']);
  const toMs = num(scope['toMs']);
  const windowOk = fromMs !== null && toMs !== null && toMs > fromMs;
  const boot = num(scope['boot']);
  const server = str(scope['server']);
  return {
    version: 1,
    sessionId: str(r['sessionId']),
    tab: TABS.includes(r['tab'] as PanelTab) ? (r['tab'] as PanelTab) : d.tab,
    percentile: r['percentile'] === 'p90' || r['percentile'] === 'p99' ? r['percentile'] : 'p50',
    sortBy: (str(r['sortBy']) as RequestSortKey | null) ?? null,
    descending: typeof r['descending'] === 'boolean' ? r['descending'] : d.descending,
    filterText: str(r['filterText']) ?? '',
    stageId: stageId !== null && Number.isInteger(stageId) ? stageId : null,
    replicaId:
      stageId !== null && replicaId !== null && Number.isInteger(stageId) && Number.isInteger(replicaId)
        ? replicaId
        : null,
    findingCode: str(r['findingCode']),
    selectedIndex: Math.max(-1, Math.floor(num(r['selectedIndex']) ?? -1)),
    selectedRequestId: str(r['selectedRequestId']),
    scrollTop: Math.max(0, num(r['scrollTop']) ?? 0),
    openRequestId: str(r['openRequestId']),
    histogram: {
      stageKey: str(hist['stageKey']),
      metric: metric !== null && /^(split|field):/.test(metric) ? metric : d.histogram.metric,
      bins: bins !== null && bins >= 1 && bins <= 500 ? Math.floor(bins) : d.histogram.bins,
    },
    spansView: t0 !== null && t1 !== null && t1 > t0 ? { t0, t1 } : null,
    tail:
      tailTarget !== null && tailMs !== null && tailQuantile !== undefined
        ? { target: tailTarget, ms: tailMs, quantile: tailQuantile }
        : null,
    scope: {
      fromMs: windowOk ? fromMs : null,
      toMs: windowOk ? toMs : null,
      excludeCold: scope['excludeCold'] === true,
      boot: boot !== null && Number.isInteger(boot) && boot >= 0 ? boot : null,
      server: server === '' ? null : server,
    },
    tailChoice: {
      target: str(choice['target']),
      quantile: QUANTILES.find((q) => q === choice['quantile']) ?? 'p99',
      byBoot: choice['byBoot'] === true,
    },
    overTimeMetric: str(r['overTimeMetric']),
  };
}

/** A different session: forget what belongs to the old one (rows, selection, zoom), keep the view choices. */
export function forNewSession(state: PanelState, sessionId: string | null): PanelState {
  const d = DEFAULT_PANEL_STATE;
  return {
    ...state,
    sessionId,
    filterText: d.filterText,
    stageId: d.stageId,
    replicaId: d.replicaId,
    findingCode: d.findingCode,
    selectedIndex: d.selectedIndex,
    selectedRequestId: d.selectedRequestId,
    scrollTop: d.scrollTop,
    openRequestId: d.openRequestId,
    spansView: d.spansView,
    tail: d.tail,
    scope: { ...d.scope, excludeCold: state.scope.excludeCold },
    tailChoice: { ...state.tailChoice, target: null },
    tab: state.tab === 'timeline' ? 'requests' : state.tab,
  };
}
