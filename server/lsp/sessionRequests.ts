// Wires the session registry to the language-server connection: the session requests of
// server/protocol.ts are registered here, through typedRequests.ts, which answers failures
// as JSON-RPC errors with a message a user can read. A request about a saved session opens
// it (replays its stored bytes) the first time.
import type { Connection } from 'vscode-languageserver';
import type { SessionRegistry } from '../capture/sessionRegistry';
import { requestDetail, requestPage, requestSpans, sessionFindings, sessionSummary, stageHistogram } from '../capture/sessionQueries';
import { listServingProcesses } from '../capture/servingProcesses';
import { exportSession } from '../capture/sessionExport';
import { compareRequest } from './compareRequests';
import { registerPrometheusRequests } from './prometheusRequests';
import { registerExplainRequests } from './explainRequests';
import { handle } from './typedRequests';

export function registerSessionRequests(connection: Connection, registry: SessionRegistry): void {
  handle(connection, 'stageLens/listSessions', () => {
    registry.rescan();
    return registry.list();
  });
  handle(connection, 'stageLens/launch', (p) => registry.launch(p));
  handle(connection, 'stageLens/tail', (p) => registry.tail(p));
  handle(connection, 'stageLens/scrape', (p) => registry.scrape(p));
  handle(connection, 'stageLens/attach', (p) => registry.attach(p));
  handle(connection, 'stageLens/import', (p) => registry.importLog(p));
  handle(connection, 'stageLens/listServingProcesses', () => listServingProcesses());
  handle(connection, 'stageLens/stop', (p) => registry.stop(p.sessionId));
  handle(connection, 'stageLens/restart', (p) => registry.restart(p.sessionId));
  handle(connection, 'stageLens/summary', async (p) => sessionSummary(await registry.open(p.sessionId), p.windowSeconds, p.scope));
  handle(connection, 'stageLens/requests', async (p) => requestPage(await registry.open(p.sessionId), p));
  handle(connection, 'stageLens/request', async (p) => requestDetail(await registry.open(p.sessionId), p.requestId));
  handle(connection, 'stageLens/findings', async (p) => sessionFindings(await registry.open(p.sessionId)));
  handle(connection, 'stageLens/matchDeployConfig', (p) => registry.matchDeployConfig(p.sessionId, p.deployConfig));
  handle(connection, 'stageLens/histogram', async (p) => stageHistogram(await registry.open(p.sessionId), p));
  handle(connection, 'stageLens/requestSpans', async (p) => requestSpans(await registry.open(p.sessionId)));
  handle(connection, 'stageLens/export', async (p) => exportSession(await registry.open(p.sessionId), p.format, p.path));
  handle(connection, 'stageLens/compare', (p) => compareRequest(registry, p));
  handle(connection, 'stageLens/storageProblems', () => registry.problems());
  registerPrometheusRequests(connection, registry);
  registerExplainRequests(connection, registry);
}
