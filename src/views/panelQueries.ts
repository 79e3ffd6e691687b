// Answers the latency panel's questions by asking the language server through the data
// source. Pure (no vscode runtime): unit-tested with a fake data source.
import type { HostToWebview, WebviewToHost } from '../../server/protocol';
import type { LatencyDataSource } from './dataSource';

type Query = Extract<WebviewToHost, { type: 'queryRequests' | 'queryRequest' | 'queryHistogram' | 'querySpans' }>;

export function isPanelQuery(message: WebviewToHost): message is Query {
  return message.type === 'queryRequests' || message.type === 'queryRequest' || message.type === 'queryHistogram' || message.type === 'querySpans';
}

export async function answerPanelQuery(message: Query, source: LatencyDataSource): Promise<HostToWebview> {
  const session = source.currentSession();
  if (session === null) return { type: 'error', message: 'No session is open.' };
  const sessionId = session.id;
  try {
    switch (message.type) {
      case 'queryRequests':
        return { type: 'requestPage', seq: message.seq, page: await source.request('stageLens/requests', { ...message.params, sessionId }) };
      case 'queryRequest':
        return { type: 'requestDetail', detail: await source.request('stageLens/request', { sessionId, requestId: message.requestId }) };
      case 'queryHistogram':
        return { type: 'histogram', seq: message.seq, histogram: await source.request('stageLens/histogram', { ...message.params, sessionId }) };
      case 'querySpans':
        return { type: 'spans', spans: await source.request('stageLens/requestSpans', { sessionId }) };
    }
  } catch (err) {
    return { type: 'error', message: `${message.type} failed: ${err instanceof Error ? err.message : String(err)}` };
  }
}
