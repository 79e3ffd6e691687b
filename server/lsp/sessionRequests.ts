// Wires the session registry to the language-server connection: the session requests of
// server/protocol.ts are registered here, through typedRequests.ts, which answers failures
// as JSON-RPC errors with a message a user can read.
import type { Connection } from 'vscode-languageserver';
import type { SessionRegistry } from '../capture/sessionRegistry';
import { requestDetail, requestPage, requestSpans, sessionFindings, sessionSummary, stageHistogram } from '../capture/sessionQueries';
import { listServingProcesses } from '../capture/servingProcesses';
import { exportSession } from '../capture/sessionExport';
import { compareRequest } from './compareRequests';
import { registerPrometheusRequests } from './prometheusRequests';
import { handle } from './typedRequests';

export function registerSessionRequests(connection: Connection, registry: SessionRegistry): void {
  handle(connection, 'stageLens/listSessions', () => registry.list());
  handle(connection, 'stageLens/launch', (p) => registry.launch(p));
  handle(connection, 'stageLens/tail', (p) => registry.tail(p));
  handle(connection, 'stageLens/scrape', (p) => registry.scrape(p));
  handle(connection, 'stageLens/attach', (p) => registry.attach(p));
  handle(connection, 'stageLens/import', (p) => registry.importLog(p));
  handle(connection, 'stageLens/listServingProcesses', () => listServingProcesses());
  handle(connection, 'stageLens/stop', (p) => registry.stop(p.sessionId));
  handle(connection, 'stageLens/restart', (p) => registry.restart(p.sessionId));
  handle(connection, 'stageLens/summary', (p) => sessionSummary(registry.require(p.sessionId), p.windowSeconds));
  handle(connection, 'stageLens/requests', (p) => requestPage(registry.require(p.sessionId), p));
  handle(connection, 'stageLens/request', (p) => requestDetail(registry.require(p.sessionId), p.requestId));
  handle(connection, 'stageLens/findings', (p) => sessionFindings(registry.require(p.sessionId)));
  handle(connection, 'stageLens/matchDeployConfig', (p) => registry.matchDeployConfig(p.sessionId, p.deployConfig));
  handle(connection, 'stageLens/histogram', (p) => stageHistogram(registry.require(p.sessionId), p));
  handle(connection, 'stageLens/requestSpans', (p) => requestSpans(registry.require(p.sessionId)));
  handle(connection, 'stageLens/export', (p) => exportSession(registry.require(p.sessionId), p.format, p.path));
  handle(connection, 'stageLens/compare', (p) => compareRequest(registry, p));
  registerPrometheusRequests(connection, registry);
}
