// Every client -> server request of server/protocol.ts (ServerRequests) and its handler, in
// one table typed by the protocol: a method without a handler here, or a handler whose
// params or result differ from the protocol's, is a compile error. What each request means
// (who sends it, when, what it guarantees) is written once, beside its type in
// server/protocol.ts, and for users of other editors in docs/lsp-extensions.md.
// Handlers that do more than call the registry live in the module of their feature
// (compareRequests.ts, prometheusRequests.ts, the capture queries).
import type { Connection } from 'vscode-languageserver';
import type { ServerRequestMethod } from '../protocol';
import type { SessionRegistry } from '../capture/sessionRegistry';
import {
  requestDetail,
  requestPage,
  requestSpans,
  sessionFindings,
  sessionSummary,
  stageHistogram,
} from '../capture/sessionQueries';
import {
  sessionBreakdownSummary,
  sessionCostModel,
  sessionLoadAtArrival,
  sessionOverTime,
  sessionTailAttribution,
} from '../capture/explainQueries';
import { prometheusSummaryOf } from '../capture/prometheusCapture';
import { listServingProcesses } from '../capture/servingProcesses';
import { exportSession } from '../capture/sessionExport';
import { matchDeployConfig, sessionConfigMismatch, type OpenConfigStageIds } from '../capture/deployConfigMatch';
import { retentionFrom } from '../capture/retention';
import { compareRequest, runBootsRequest } from './compareRequests';
import { demoConfigCheck } from './demoConfigCheck';
import { prometheusDeployments, startPrometheus } from './prometheusRequests';
import { handle, type Handler } from './typedRequests';

export type RequestHandlers = { readonly [M in ServerRequestMethod]: Handler<M> };

/** `openStageIds`: a deploy config's stages as its open editor buffer has them (deployDocuments.ts). */
export function requestHandlers(registry: SessionRegistry, openStageIds?: OpenConfigStageIds): RequestHandlers {
  return {
    'stageLens/listSessions': () => {
      registry.rescan();
      return registry.list();
    },
    'stageLens/launch': (p) => registry.launch(p),
    'stageLens/tail': (p) => registry.tail(p),
    'stageLens/scrape': (p) => registry.scrape(p),
    'stageLens/attach': (p) => registry.attach(p),
    'stageLens/import': (p) => registry.importLog(p),
    'stageLens/listServingProcesses': () => listServingProcesses(),
    'stageLens/stop': (p) => registry.stop(p.sessionId),
    'stageLens/restart': (p) => registry.restart(p.sessionId),
    'stageLens/summary': async (p) => sessionSummary(await registry.open(p.sessionId), p.windowSeconds, p.scope),
    'stageLens/requests': async (p) => requestPage(await registry.open(p.sessionId), p),
    'stageLens/request': async (p) => requestDetail(await registry.open(p.sessionId), p.requestId),
    'stageLens/findings': async (p) => sessionFindings(await registry.open(p.sessionId)),
    'stageLens/matchDeployConfig': (p) => matchDeployConfig(registry, p, openStageIds),
    'stageLens/deployConfigFit': async (p) => ({
      stageMismatch: await sessionConfigMismatch(registry, p.sessionId, p.deployConfig, openStageIds),
    }),
    'stageLens/demoConfigCheck': (p) => demoConfigCheck(p),
    'stageLens/histogram': async (p) => stageHistogram(await registry.open(p.sessionId), p),
    'stageLens/export': async (p) => exportSession(await registry.open(p.sessionId), p.format, p.path),
    'stageLens/requestSpans': async (p) => requestSpans(await registry.open(p.sessionId), p.scope),
    'stageLens/compare': (p) => compareRequest(registry, p),
    'stageLens/runBoots': (p) => runBootsRequest(registry, p),
    'stageLens/setRetention': (p) => ({ removed: registry.setRetention(retentionFrom(p, registry.retentionLimits)) }),
    'stageLens/prometheus': (p) => startPrometheus(registry, p),
    'stageLens/prometheusSummary': async (p) => prometheusSummaryOf(await registry.open(p.sessionId)),
    'stageLens/prometheusDeployments': (p) => prometheusDeployments(p),
    'stageLens/storageProblems': () => registry.problems(),
    'stageLens/tailAttribution': async (p) => sessionTailAttribution(await registry.open(p.sessionId), p),
    'stageLens/loadAtArrival': async (p) => sessionLoadAtArrival(await registry.open(p.sessionId), p),
    'stageLens/overTime': async (p) => sessionOverTime(await registry.open(p.sessionId), p),
    'stageLens/costModel': async (p) => sessionCostModel(await registry.open(p.sessionId), p),
    'stageLens/breakdownSummary': async (p) => sessionBreakdownSummary(await registry.open(p.sessionId), p),
  };
}

function registerOne<M extends ServerRequestMethod>(
  connection: Connection,
  method: M,
  handlers: RequestHandlers,
): void {
  handle(connection, method, handlers[method]);
}

/** Registers every request of the table on the connection. */
export function registerRequests(connection: Connection, handlers: RequestHandlers): void {
  for (const method of Object.keys(handlers) as ServerRequestMethod[]) registerOne(connection, method, handlers);
}
