// The "why a request is slow" requests of server/protocol.ts on the language-server
// connection: tail attribution, load at arrival, percentiles over time, cost model and
// the breakdown summary of a session, each scoped (time window, cold left out).
import type { Connection } from 'vscode-languageserver';
import type { SessionRegistry } from '../capture/sessionRegistry';
import { sessionBreakdownSummary, sessionCostModel, sessionLoadAtArrival, sessionOverTime, sessionTailAttribution } from '../capture/explainQueries';
import { handle } from './typedRequests';

export function registerExplainRequests(connection: Connection, registry: SessionRegistry): void {
  handle(connection, 'stageLens/tailAttribution', async (p) => sessionTailAttribution(await registry.open(p.sessionId), p));
  handle(connection, 'stageLens/loadAtArrival', async (p) => sessionLoadAtArrival(await registry.open(p.sessionId), p));
  handle(connection, 'stageLens/overTime', async (p) => sessionOverTime(await registry.open(p.sessionId), p));
  handle(connection, 'stageLens/costModel', async (p) => sessionCostModel(await registry.open(p.sessionId), p));
  handle(connection, 'stageLens/breakdownSummary', async (p) => sessionBreakdownSummary(await registry.open(p.sessionId), p));
}
