// What a chart is of, in words: the scope the server kept its requests by (its answer echoes
// it), so a chart says the server, boot, window and cold choice it shows.
import type { ExplainScope } from '../../server/protocol';
import { formatCount, formatLogClock } from './format';

/** `6 of 9 requests: server pod/a · boot 1 · cold left out`; `Every request of the session (9)` when nothing is cut. */
export function scopeText(scope: ExplainScope | null, inScope: number, sessionRequests: number): string {
  if (scope === null) return `Every request of the session (${formatCount(sessionRequests)})`;
  const parts: string[] = [];
  if (scope.server !== undefined) parts.push(`server ${scope.server}`);
  if (scope.boot !== undefined) parts.push(`boot ${scope.boot}`);
  const from = scope.fromMs === undefined ? null : formatLogClock(scope.fromMs, false);
  const to = scope.toMs === undefined ? null : formatLogClock(scope.toMs, false);
  if (from !== null && to !== null) parts.push(`window ${from}–${to}`);
  else if (from !== null) parts.push(`from ${from}`);
  else if (to !== null) parts.push(`until ${to}`);
  if (scope.excludeCold === true) parts.push('cold left out');
  return `${formatCount(inScope)} of ${formatCount(sessionRequests)} requests: ${parts.join(' · ')}`;
}
