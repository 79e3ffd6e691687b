// What the side panel keeps across hide/show and reloads (getState/setState). DOM-free.
import type { Percentile } from '../../server/protocol';

/** One update of the headline latency (n: the session's request count then). */
export interface TrendPoint {
  readonly n: number;
  readonly p50: number | null;
  readonly p90: number | null;
  readonly p99: number | null;
}

export interface SidePanelState {
  readonly percentile: Percentile;
  readonly sessionId: string | null;
  readonly trend: readonly TrendPoint[];
}

export const TREND_LENGTH = 60;

export const DEFAULT_SIDE_STATE: SidePanelState = { percentile: 'p50', sessionId: null, trend: [] };

const isNum = (v: unknown): v is number | null => v === null || (typeof v === 'number' && Number.isFinite(v));

/** Stored state may be from an older build or hand-edited: keep only what is well formed. */
export function sanitizeSideState(raw: unknown): SidePanelState {
  if (typeof raw !== 'object' || raw === null) return DEFAULT_SIDE_STATE;
  const r = raw as Record<string, unknown>;
  const percentile = r['percentile'] === 'p90' || r['percentile'] === 'p99' ? r['percentile'] : 'p50';
  const sessionId = typeof r['sessionId'] === 'string' ? r['sessionId'] : null;
  const trend = Array.isArray(r['trend'])
    ? (r['trend'] as unknown[])
        .filter((p): p is TrendPoint => {
          if (typeof p !== 'object' || p === null) return false;
          const q = p as Record<string, unknown>;
          return typeof q['n'] === 'number' && isNum(q['p50']) && isNum(q['p90']) && isNum(q['p99']);
        })
        .slice(-TREND_LENGTH)
    : [];
  return { percentile, sessionId, trend };
}

/**
 * The trend of one session: the stored points when they are that session's, none otherwise.
 * A trend is one session's series; another session's values never continue it.
 */
export function trendOf(state: Pick<SidePanelState, 'sessionId' | 'trend'>, sessionId: string): readonly TrendPoint[] {
  return state.sessionId === sessionId ? state.trend : [];
}

/** A summary's point added to its session's trend: a new session starts a new series. */
export function addTrendPoint(
  state: Pick<SidePanelState, 'sessionId' | 'trend'>,
  sessionId: string,
  point: TrendPoint,
): Pick<SidePanelState, 'sessionId' | 'trend'> {
  return { sessionId, trend: pushTrend(trendOf(state, sessionId), point) };
}

/** Add a trend point when the request count moved (a re-sent summary adds nothing). */
export function pushTrend(trend: readonly TrendPoint[], point: TrendPoint): readonly TrendPoint[] {
  const last = trend[trend.length - 1];
  if (last !== undefined && last.n === point.n) return [...trend.slice(0, -1), point];
  return [...trend, point].slice(-TREND_LENGTH);
}
