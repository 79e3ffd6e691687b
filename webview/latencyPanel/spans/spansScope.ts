// What the Each request chart is of, in words: the scope the server kept the requests by (its
// answer echoes it), so the chart says the boot, window and cold choice its points are of.
import type { RequestSpans } from '../../../server/protocol';
import { scopeText } from '../../shared/scopeText';

export function spansScopeText(spans: Pick<RequestSpans, 'scope' | 'sessionRequests' | 'requestIds'>): string {
  return scopeText(spans.scope, spans.requestIds.length, spans.sessionRequests);
}
