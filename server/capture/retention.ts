// How many saved sessions the storage folder keeps (stageLens.retention.maxSessions): the
// newest are kept, older ones are deleted with their captured bytes. A session that is
// still capturing (in any window), or that another window has open, is never deleted,
// whatever its age; it still counts toward the limit.
// Pure: which sessions go is decided here, the registry deletes them.
import type { RetentionParams, SessionInfo } from '../protocol';

export type RetentionLimits = RetentionParams;

/** The default of the setting in package.json. */
export const DEFAULT_RETENTION: RetentionLimits = { maxSessions: 50 };

function positiveInteger(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 1 ? Math.floor(value) : fallback;
}

/** Limits from the client (initializationOptions.retention or a settings change); anything malformed keeps its default. */
export function retentionFrom(raw: unknown, fallback: RetentionLimits = DEFAULT_RETENTION): RetentionLimits {
  if (typeof raw !== 'object' || raw === null) return fallback;
  const r = raw as Record<string, unknown>;
  return { maxSessions: positiveInteger(r['maxSessions'], fallback.maxSessions) };
}

/** Still capturing: never deleted. */
export function isCapturing(info: Pick<SessionInfo, 'status'>): boolean {
  return info.status === 'running' || info.status === 'starting';
}

/**
 * Ids of the sessions to delete: everything older than the newest `maxSessions`, except
 * sessions still capturing and those `keep` names (open or captured in another window);
 * those still count toward the limit. Newest first by start time (ties: by id, so the
 * choice is stable).
 */
export function sessionsToDelete(
  sessions: readonly Pick<SessionInfo, 'id' | 'startedAt' | 'status'>[],
  maxSessions: number,
  keep: (id: string) => boolean = () => false,
): string[] {
  const newestFirst = [...sessions].sort(
    (a, b) => b.startedAt - a.startedAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0),
  );
  return newestFirst
    .slice(Math.max(1, maxSessions))
    .filter((s) => !isCapturing(s) && !keep(s.id))
    .map((s) => s.id);
}
