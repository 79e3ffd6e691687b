// What the Each request chart is of, in words: the scope the server kept the requests by (its
// answer echoes it), so the chart says the boot, window and cold choice its points are of.
import type { RequestSpans } from '../../../server/protocol';
import { formatCount, formatLogClock } from '../../shared/format';

export function spansScopeText(spans: Pick<RequestSpans, 'scope' | 'sessionRequests' | 'requestIds'>): string {
  const total = spans.sessionRequests;
  const scope = spans.scope;
  if (scope === null) return `Every request of the session (${formatCount(total)})`;
  const parts: string[] = [];
  if (scope.boot !== undefined) parts.push(`boot ${scope.boot}`);
  const from = scope.fromMs === undefined ? null : formatLogClock(scope.fromMs, false);
  const to = scope.toMs === undefined ? null : formatLogClock(scope.toMs, false);
  if (from !== null && to !== null) parts.push(`window ${from}–${to}`);
  else if (from !== null) parts.push(`from ${from}`);
  else if (to !== null) parts.push(`until ${to}`);
  if (scope.excludeCold === true) parts.push('cold left out');
  return `${formatCount(spans.requestIds.length)} of ${formatCount(total)} requests: ${parts.join(' · ')}`;
}
