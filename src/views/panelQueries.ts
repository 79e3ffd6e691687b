// Answers the latency panel's questions by asking the language server through the data
// source. Pure (no vscode runtime): unit-tested with a fake data source.
import type { HostToWebview, WebviewToHost } from '../../server/protocol';
import type { LatencyDataSource } from './dataSource';

type Query = Extract<
  WebviewToHost,
  {
    type:
      'queryRequests' | 'queryRequest' | 'queryHistogram' | 'querySpans' | 'queryTail' | 'queryLoad' | 'queryOverTime';
  }
>;

const QUERIES: ReadonlySet<WebviewToHost['type']> = new Set([
  'queryRequests',
  'queryRequest',
  'queryHistogram',
  'querySpans',
  'queryTail',
  'queryLoad',
  'queryOverTime',
]);

export function isPanelQuery(message: WebviewToHost): message is Query {
  return QUERIES.has(message.type);
}

export async function answerPanelQuery(message: Query, source: LatencyDataSource): Promise<HostToWebview> {
  const session = source.currentSession();
  if (session === null) return { type: 'error', message: 'No session is open.' };
  const sessionId = session.id;
  try {
    switch (message.type) {
      case 'queryRequests':
        return {
          type: 'requestPage',
          seq: message.seq,
          page: await source.request('stageLens/requests', { ...message.params, sessionId }),
        };
      case 'queryRequest':
        return {
          type: 'requestDetail',
          detail: await source.request('stageLens/request', { sessionId, requestId: message.requestId }),
        };
      case 'queryHistogram':
        return {
          type: 'histogram',
          seq: message.seq,
          histogram: await source.request('stageLens/histogram', { ...message.params, sessionId }),
        };
      case 'querySpans':
        return {
          type: 'spans',
          seq: message.seq,
          sessionId,
          spans: await source.request('stageLens/requestSpans', {
            sessionId,
            ...(message.scope === undefined ? {} : { scope: message.scope }),
          }),
        };
      case 'queryTail':
        return {
          type: 'tail',
          seq: message.seq,
          tail: await source.request('stageLens/tailAttribution', { ...message.params, sessionId }),
        };
      case 'queryLoad':
        return {
          type: 'loadAtArrival',
          seq: message.seq,
          load: await source.request('stageLens/loadAtArrival', { ...message.params, sessionId }),
        };
      case 'queryOverTime':
        return {
          type: 'overTime',
          seq: message.seq,
          overTime: await source.request('stageLens/overTime', { ...message.params, sessionId }),
        };
    }
  } catch (err) {
    return { type: 'error', message: `${message.type} failed: ${err instanceof Error ? err.message : String(err)}` };
  }
}
