// Wires the session registry to the language-server connection: every custom request
// of server/protocol.ts is answered here, and session changes / raw output are sent as
// notifications. Failures come back as JSON-RPC errors with a message a user can read.
import type { Connection } from 'vscode-languageserver';
import { ResponseError, ErrorCodes } from 'vscode-languageserver';
import type { ClientNotificationMethod, ClientNotifications, RequestParams, RequestResult, ServerRequestMethod } from '../protocol';
import type { SessionRegistry } from '../capture/sessionRegistry';
import { requestDetail, requestPage, requestSpans, sessionSummary, stageHistogram } from '../capture/sessionQueries';
import { listServingProcesses } from '../capture/servingProcesses';
import { exportSession } from '../capture/sessionExport';
import { compareRequest } from './compareRequests';
import { registerPrometheusRequests } from './prometheusRequests';

type Handler<M extends ServerRequestMethod> = (params: RequestParams<M>) => RequestResult<M> | Promise<RequestResult<M>>;

export function handle<M extends ServerRequestMethod>(connection: Connection, method: M, handler: Handler<M>): void {
  connection.onRequest(method, async (params: RequestParams<M>) => {
    try {
      return await handler(params);
    } catch (err) {
      return new ResponseError(ErrorCodes.InvalidRequest, err instanceof Error ? err.message : String(err));
    }
  });
}

export function notify<M extends ClientNotificationMethod>(connection: Connection, method: M, payload: ClientNotifications[M]): void {
  void connection.sendNotification(method, payload);
}

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
  handle(connection, 'stageLens/findings', (p) => [...registry.require(p.sessionId).snapshot().findings]);
  handle(connection, 'stageLens/matchDeployConfig', (p) => registry.matchDeployConfig(p.sessionId, p.deployConfig));
  handle(connection, 'stageLens/histogram', (p) => stageHistogram(registry.require(p.sessionId), p));
  handle(connection, 'stageLens/requestSpans', (p) => requestSpans(registry.require(p.sessionId)));
  handle(connection, 'stageLens/export', (p) => exportSession(registry.require(p.sessionId), p.format, p.path));
  handle(connection, 'stageLens/compare', (p) => compareRequest(registry, p));
  registerPrometheusRequests(connection, registry);
}
