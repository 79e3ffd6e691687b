// What the side panel keeps across hide/show and reloads (getState/setState). DOM-free.
import type { Percentile } from '../../server/protocol';

/** One update of the headline latency (n: the session's request count then). */
export interface TrendPoint {
  readonly n: number;
  readonly p50: number | null;
  readonly p90: number | null;
  readonly p99: number | null;
}

/** One session's trend: its own points only, never another session's. */
export interface SessionTrend {
  readonly sessionId: string;
  readonly points: readonly TrendPoint[];
}

/** The server boot picked in a session whose log holds several. */
export interface BootChoice {
  readonly sessionId: string;
  readonly boot: number;
}

/** The server of a merged log picked in a session whose log has several. */
export interface ServerChoice {
  readonly sessionId: string;
  readonly server: string;
}

export interface SidePanelState {
  readonly percentile: Percentile;
  /** The trends of the sessions shown lately, the one updated last at the end. */
  readonly trends: readonly SessionTrend[];
  /** The boot whose numbers are shown in that session; null (or another session): every boot. */
  readonly boot: BootChoice | null;
  /** The server whose numbers are shown in that session; null (or another session): every server. */
  readonly server: ServerChoice | null;
}

export const TREND_LENGTH = 60;
/** Trends kept: switching among a few sessions keeps each one's line; the stored state stays small. */
export const TREND_SESSIONS = 8;

export const DEFAULT_SIDE_STATE: SidePanelState = { percentile: 'p50', trends: [], boot: null, server: null };

const isNum = (v: unknown): v is number | null => v === null || (typeof v === 'number' && Number.isFinite(v));

function trendPoints(raw: unknown): readonly TrendPoint[] {
  if (!Array.isArray(raw)) return [];
  return (raw as unknown[])
    .filter((p): p is TrendPoint => {
      if (typeof p !== 'object' || p === null) return false;
      const q = p as Record<string, unknown>;
      return typeof q['n'] === 'number' && isNum(q['p50']) && isNum(q['p90']) && isNum(q['p99']);
    })
    .slice(-TREND_LENGTH);
}

/** Stored state may be from an older build or hand-edited: keep only what is well formed. */
export function sanitizeSideState(raw: unknown): SidePanelState {
  if (typeof raw !== 'object' || raw === null) return DEFAULT_SIDE_STATE;
  const r = raw as Record<string, unknown>;
  const percentile = r['percentile'] === 'p90' || r['percentile'] === 'p99' ? r['percentile'] : 'p50';
  const trends: SessionTrend[] = [];
  for (const t of Array.isArray(r['trends']) ? (r['trends'] as unknown[]) : []) {
    if (typeof t !== 'object' || t === null) continue;
    const sessionId = (t as Record<string, unknown>)['sessionId'];
    if (typeof sessionId !== 'string') continue;
    // A session listed twice: its later entry is the one updated last.
    const earlier = trends.findIndex((e) => e.sessionId === sessionId);
    if (earlier >= 0) trends.splice(earlier, 1);
    trends.push({ sessionId, points: trendPoints((t as Record<string, unknown>)['points']) });
  }
  const boot = typeof r['boot'] === 'object' && r['boot'] !== null ? (r['boot'] as Record<string, unknown>) : null;
  const choice =
    typeof boot?.['sessionId'] === 'string' && Number.isInteger(boot['boot']) && (boot['boot'] as number) >= 0
      ? { sessionId: boot['sessionId'], boot: boot['boot'] as number }
      : null;
  const server =
    typeof r['server'] === 'object' && r['server'] !== null ? (r['server'] as Record<string, unknown>) : null;
  const serverChoice =
    typeof server?.['sessionId'] === 'string' && typeof server['server'] === 'string' && server['server'] !== ''
      ? { sessionId: server['sessionId'], server: server['server'] }
      : null;
  return { percentile, trends: trends.slice(-TREND_SESSIONS), boot: choice, server: serverChoice };
}

/** The boot picked in `sessionId`; null: every boot. */
export function bootOf(state: Pick<SidePanelState, 'boot'>, sessionId: string): number | null {
  return state.boot !== null && state.boot.sessionId === sessionId ? state.boot.boot : null;
}

/** The server picked in `sessionId`; null: every server. */
export function serverOf(state: Pick<SidePanelState, 'server'>, sessionId: string): string | null {
  return state.server !== null && state.server.sessionId === sessionId ? state.server.server : null;
}

/**
 * Whose trend a summary adds to: the session's, or one boot's or server's of it (numbers of one
 * boot or server are a line of their own).
 */
export function trendKey(sessionId: string, boot: number | null, server: string | null = null): string {
  const ofBoot = boot === null ? sessionId : `${sessionId} boot ${boot}`;
  return server === null ? ofBoot : `${ofBoot} server ${server}`;
}

/** The trend of one session: its own points, none before its first summary. */
export function trendOf(state: Pick<SidePanelState, 'trends'>, sessionId: string): readonly TrendPoint[] {
  return state.trends.find((t) => t.sessionId === sessionId)?.points ?? [];
}

/**
 * A summary's point added to its session's trend. The other sessions' trends are kept (a
 * session shown again continues its line); beyond TREND_SESSIONS the one updated longest ago goes.
 */
export function addTrendPoint(
  state: Pick<SidePanelState, 'trends'>,
  sessionId: string,
  point: TrendPoint,
): Pick<SidePanelState, 'trends'> {
  const points = pushTrend(trendOf(state, sessionId), point);
  const others = state.trends.filter((t) => t.sessionId !== sessionId);
  return { trends: [...others, { sessionId, points }].slice(-TREND_SESSIONS) };
}

/** Add a trend point when the request count moved (a re-sent summary adds nothing). */
export function pushTrend(trend: readonly TrendPoint[], point: TrendPoint): readonly TrendPoint[] {
  const last = trend[trend.length - 1];
  if (last !== undefined && last.n === point.n) return [...trend.slice(0, -1), point];
  return [...trend, point].slice(-TREND_LENGTH);
}
