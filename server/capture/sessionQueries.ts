// Answers the client's questions about one session: summary over a window, a page of
// requests (sorted and filtered here, not in the webview), one request with its
// timeline, findings.
import {
  bootChoices,
  bootsDifferFinding,
  pipelineGroups,
  pipelineText,
  viewBootsOf,
  type BootPipeline,
} from '../core/analysis/bootPipelines';
import type { RunBoot } from '../core/compare/types';
import { serversDifferFinding } from '../core/analysis/serverPipelines';
import { EdgeSummaryBuilder } from '../core/analysis/edgeSummary';
import { FindingsBuilder } from '../core/analysis/findings';
import { StageSummaryBuilder } from '../core/analysis/stageSummary';
import { EndToEndBuilder } from '../core/analysis/endToEnd';
import { offersServerPick, ServerSummaries } from '../core/analysis/serverSummaries';
import { TablesMissingCounter } from '../core/analysis/tablesMissing';
import { isUnreadableInput } from '../core/analysis/unreadableInput';
import { runSummariesJson } from '../core/analysis/runSummaries';
import { requestScopeWords, type RequestScope } from '../core/analysis/requestScope';
import type { AnalyzedRequest, Finding } from '../core/analysis/types';
import {
  requestColourRule,
  slowestPhaseOfRequest,
  type RequestColourRule,
  type RequestSlowestPhase,
} from '../core/analysis/slowest';
import { detailOf, histogramOf, pageOf, slowestStageAt, type ScopeMask } from './requestQueries';
import { rowsInScope, scopeCutsRows } from '../core/explain/scope';
import { prometheusMetricFindings } from './explainQueries';
import type { EngineLineScope } from '../core/explain/metricNotReporting';
import type { ExplainScope } from '../core/explain/types';
import type { FindingRequestIds, TargetValues } from './requestQueries';
import type {
  HistogramParams,
  HistogramResult,
  RequestDetail,
  RequestPage,
  RequestPageParams,
  RequestSpans,
  SessionBoots,
  SessionServers,
  SummaryResult,
} from '../protocol';
import type { Session } from './session';
import type { RequestStore } from '../core/analysis/requestStore';
import type { ExplainIndex } from '../core/explain/explainIndex';
import { prometheusPanelOf } from './prometheusCapture';
import { withDeployEvidence } from './deployEvidence';
import { stageRolesOfSession } from '../core/stageRoles';
import type { ScopedFigures } from './scopedSummaries';

/** A session's findings (all request ids), with its matched deploy config's evidence: the summary's, as the CLI prints them. */
export function sessionFindings(session: Session): Finding[] {
  return [
    ...withDeployEvidence([...session.snapshot().findings, ...scrapeFindingsOf(session)], session.info.deployConfig),
  ];
}

/**
 * What the session's scrapes (an endpoint, an imported file, Prometheus) say of metrics that do not
 * report, and an imported scrape of its file; after its requests' findings, as `analyze` lists them.
 */
export function scrapeFindingsOf(session: Session): Finding[] {
  return [...session.metricFindings(), ...session.scrapeInputFindings(), ...prometheusMetricFindings(session)];
}

/** The mask of a session's requests in a scope (the explain index keeps the requests' order). */
export function scopeMaskOf(session: Session): ScopeMask {
  return (scope) => {
    const mask = new Uint8Array(session.requests().length);
    for (const i of rowsInScope(session.explainIndex, scope)) mask[i] = 1;
    return mask;
  };
}

/**
 * One server's boots of a merged log: the session's pipeline of each boot it has, with its own
 * requests and the model its own start-up lines named (another server's boot of that number may
 * serve another model).
 */
function serverBootPipelines(session: Session, server: string): BootPipeline[] {
  const byBoot = new Map(session.bootPipelines().map((p) => [p.boot, p]));
  const boots = session.explainIndex.serverBoots(server);
  const bootZero = boots.some((b) => b.boot === 0);
  return boots.map(({ boot, requests }) => ({
    boot,
    requests,
    model: session.serverBootModel(server, boot, bootZero),
    stages: byBoot.get(boot)?.stages ?? [],
  }));
}

/** The boots of one server of a session's merged log, with its requests in each (each server numbers its own). */
export function serverBootChoices(session: Session, server: string): RunBoot[] {
  return bootChoices(serverBootPipelines(session, server));
}

/**
 * The session's boots when it has several with requests, with the boot `scope` keeps. With a
 * server of a merged log picked, that server's boots: a pod that never restarted has none to
 * pick, unless a boot is picked already, which is then offered (with the server's requests in
 * it, 0 for another pod's boot) so that the pick can be left.
 */
function sessionBoots(session: Session, scope: ExplainScope | undefined): SessionBoots | null {
  const selected = scope?.boot ?? null;
  const server = scope?.server ?? null;
  if (server === null) return viewBootsOf(session.bootPipelines(), selected);
  const pipelines = serverBootPipelines(session, server);
  const boots = bootChoices(pipelines);
  if (selected !== null && !boots.some((b) => b.boot === selected))
    boots.push({ boot: selected, requests: 0, model: null });
  if (boots.length < 2 && selected === null) return null;
  return {
    boots: boots.sort((a, b) => a.boot - b.boot),
    pipelines: pipelineGroups(pipelines).map(pipelineText),
    selected,
  };
}

/**
 * The servers of a merged log (two or more with requests), with the server `scope` keeps; null
 * for a log of one server, and past MAX_SERVERS (not a handful of pods to pick from: the
 * per-server end to end stops there too).
 */
function sessionServers(session: Session, scope: ExplainScope | undefined): SessionServers | null {
  const index = session.explainIndex;
  if (!offersServerPick(index.serverCount)) return null;
  const { servers, untagged } = index.serverCounts();
  return { servers, untaggedRequests: untagged, selected: scope?.server ?? null };
}

/** Stage and edge summaries and findings of some of the session's requests (positions). */
function figuresOver(
  session: Session,
  rows: Iterable<number>,
  roles: Readonly<Record<string, string>>,
  view: RequestScope,
): ScopedFigures {
  const requests = session.requests();
  const summaries = new StageSummaryBuilder({ replicasAsTheyCome: true });
  const edges = new EdgeSummaryBuilder();
  const findings = new FindingsBuilder();
  // Its findings count the view's requests; cold-start says how many boots the log has.
  findings.nameScope(requestScopeWords(view), session.coldBoots());
  const debugLines = session.debugLines;
  if (debugLines) findings.debugLinesRead();
  const overallTables = session.overallTables;
  findings.overallTablesRead(overallTables);
  const statsTablesAtDebug = session.statsTablesAtDebug;
  if (statsTablesAtDebug) findings.statsTablesAtDebugRead();
  const endToEnd = new EndToEndBuilder();
  const servers = new ServerSummaries();
  const tablesMissing = new TablesMissingCounter();
  const boots = session.bootPipelineEvidence();
  const serverPipelines = session.serverPipelineEvidence();
  let count = 0;
  let legacyDictRequests = 0;
  for (const i of rows) {
    const r = requests.at(i) as AnalyzedRequest;
    boots.add(r);
    serverPipelines.add(r);
    summaries.add(r);
    edges.add(r);
    findings.add(r);
    endToEnd.add(r);
    servers.add(r);
    tablesMissing.add(r);
    if (r.legacyDict === true) legacyDictRequests += 1;
    count += 1;
  }
  const stages = summaries.stages();
  const mixedBoots = bootsDifferFinding(boots.pipelines());
  const mixedServers = serversDifferFinding(serverPipelines.pipelines());
  return {
    requestCount: count,
    stages,
    replicas: summaries.replicas([]),
    findings: [
      ...(mixedBoots === null ? [] : [mixedBoots]),
      ...(mixedServers === null ? [] : [mixedServers]),
      ...findings.findings(stages, 200, roles),
    ],
    endToEnd: endToEnd.summary(),
    servers: servers.summary(),
    tablesMissing: tablesMissing.notice(debugLines, overallTables, statsTablesAtDebug),
    edges: edges.edges(),
    legacyDictRequests,
  };
}

/**
 * The summary of these figures, with what the session says beside its requests (its log's format,
 * input and engine lines, scrapes, deploy evidence).
 */
function summaryOf(
  session: Session,
  figures: ScopedFigures,
  view: RequestScope,
  lines: EngineLineScope,
  scope?: ExplainScope,
): SummaryResult {
  // Made here, not kept with the figures: the log's dicts are counted as they come, with or without a request.
  const legacy = session.legacyFindingOver(figures.requestCount, figures.legacyDictRequests);
  // What the input is comes before any number, as in the whole session's findings; they count
  // the log's requests, and how many of them this view holds.
  const words = requestScopeWords(view);
  const log = session.logFindings(words === null ? null : { words, requests: figures.requestCount }, lines);
  return {
    sessionId: session.id,
    requestCount: figures.requestCount,
    stages: figures.stages,
    replicas: figures.replicas,
    findings: withDeployEvidence(
      [
        ...log.filter(isUnreadableInput),
        ...figures.findings,
        ...(legacy === null ? [] : [legacy]),
        ...log.filter((f) => !isUnreadableInput(f)),
        ...scrapeFindingsOf(session),
      ],
      session.info.deployConfig,
    ),
    histograms: session.histograms(),
    scrapeRestart: session.scrapeRestart(),
    prometheus: prometheusPanelOf(session),
    endToEnd: figures.endToEnd,
    servers: figures.servers,
    tablesMissing: figures.tablesMissing,
    overallSummaries: null,
    runSummaries: null,
    edges: figures.edges,
    boots: sessionBoots(session, scope),
    sessionServers: sessionServers(session, scope),
    debugLines: session.debugLines,
    statsTablesAtDebug: session.statsTablesAtDebug,
  };
}

/** The summary of the requests in a scope that leaves some out; its figures kept while its requests are the same. */
function scopedSummary(session: Session, scope: ExplainScope): SummaryResult {
  const rows = rowsInScope(session.explainIndex, scope);
  const roles = stageRolesOfSession(session.info);
  const view = {
    ...(scope.boot === undefined ? {} : { boot: scope.boot }),
    ...(scope.server === undefined ? {} : { server: scope.server }),
    window: scope.fromMs !== undefined || scope.toMs !== undefined,
    excludeCold: scope.excludeCold === true,
  };
  const figures = session.scopedSummaries.get(scope, rows, roles, session.debugLines, session.statsTablesAtDebug, () =>
    figuresOver(session, rows, roles, view),
  );
  // The engine lines of the boot, of the server and of the window on the log clock, as the window's requests are chosen.
  const lines = {
    ...(scope.boot === undefined ? {} : { boot: scope.boot }),
    ...(scope.server === undefined ? {} : { server: scope.server }),
    ...(view.window
      ? {
          window: {
            fromMs: scope.fromMs ?? Number.NEGATIVE_INFINITY,
            toMs: scope.toMs ?? Number.POSITIVE_INFINITY,
          },
        }
      : {}),
  };
  return summaryOf(session, figures, view, lines, scope);
}

/** The positions of the requests seen in the last `windowSeconds` of capture time, newest first. */
function* recentRows(session: Session, windowSeconds: number): Generator<number> {
  const since = Date.now() - windowSeconds * 1000;
  const times = session.requestTimes();
  // Requests are in capture order: walk back from the newest.
  for (let i = session.requests().length - 1; i >= 0 && (times[i] ?? 0) >= since; i--) yield i;
}

export function sessionSummary(session: Session, windowSeconds?: number, scope?: ExplainScope): SummaryResult {
  if (scopeCutsRows(scope)) return scopedSummary(session, scope);
  if (windowSeconds !== undefined && windowSeconds > 0) {
    const view = { window: true };
    return summaryOf(
      session,
      figuresOver(session, recentRows(session, windowSeconds), stageRolesOfSession(session.info), view),
      view,
      // The last seconds of capture time are not on the log clock its engine lines are placed by.
      { logWide: true },
    );
  }
  const summary = session.summary();
  return {
    sessionId: session.id,
    requestCount: session.requests().length,
    stages: summary.stages,
    replicas: summary.replicas,
    findings: withDeployEvidence([...summary.findings, ...scrapeFindingsOf(session)], session.info.deployConfig),
    histograms: session.histograms(),
    scrapeRestart: session.scrapeRestart(),
    prometheus: prometheusPanelOf(session),
    endToEnd: summary.endToEnd,
    servers: summary.servers,
    tablesMissing: summary.tablesMissing,
    overallSummaries: summary.overallSummaries,
    runSummaries: summary.runSummaries === null ? null : runSummariesJson(summary.runSummaries),
    edges: summary.edges,
    boots: sessionBoots(session, undefined),
    sessionServers: sessionServers(session, undefined),
    debugLines: summary.debugLines,
    statsTablesAtDebug: summary.statsTablesAtDebug,
  };
}

/** Request ids that a finding names (all of them, not the capped list of live summaries). */
function findingRequestIds(session: Session): FindingRequestIds {
  return (code, stageId) =>
    new Set(
      session
        .summary(Number.POSITIVE_INFINITY)
        .findings.filter(
          (f) => f.code === code && (stageId === undefined || f.stageId === null || f.stageId === stageId),
        )
        .flatMap((f) => f.requestIds),
    );
}

/** A target's column of the session's explain index (same order as its requests). */
export function targetValuesOf(session: Session): TargetValues {
  return (target) => {
    const column = session.explainIndex.target(target);
    return column === undefined ? undefined : (i) => column.get(i);
  };
}

export function requestPage(session: Session, params: RequestPageParams): RequestPage {
  return pageOf(
    session.requests(),
    params,
    findingRequestIds(session),
    session.requestOrders,
    scopeMaskOf(session),
    targetValuesOf(session),
  );
}

export function requestDetail(session: Session, requestId: string): RequestDetail | null {
  const request = session.requestById(requestId);
  return request === undefined ? null : detailOf(request);
}

export function stageHistogram(session: Session, params: HistogramParams): HistogramResult {
  return histogramOf(session.requests(), params, scopeMaskOf(session));
}

export function requestSpans(session: Session, scope?: ExplainScope): RequestSpans {
  const colourBy = requestColourRule((code) => session.hasFinding(code));
  return spansOf(session.requests(), session.explainIndex, session.requestTimes(), colourBy, scope);
}

/**
 * The Each request chart's columns, of the requests in `scope` (rowsInScope: the rule the
 * request table, the histograms and the scoped summary keep their requests by). A request ends
 * at its finish in the explain index, the time Over Time bins it at (the middle of its printed
 * second, or its capture time), so the two charts on one time axis place it alike.
 */
export function spansOf(
  requests: RequestStore,
  index: ExplainIndex,
  capturedAt: readonly number[],
  colourBy: RequestColourRule = 'slowestStage',
  scope?: ExplainScope,
): RequestSpans {
  const requestIds: string[] = [];
  const endMs: number[] = [];
  const e2eMs: (number | null)[] = [];
  const slowestStage: (string | null)[] = [];
  const slowestPhase: (RequestSlowestPhase | null)[] = [];
  const cold: boolean[] = [];
  const rows = scopeCutsRows(scope) ? rowsInScope(index, scope) : null;
  const count = rows === null ? requests.length : rows.length;
  for (let k = 0; k < count; k++) {
    const i = rows === null ? k : (rows[k] as number);
    requestIds.push(requests.requestIdAt(i) ?? '');
    const finish = i < index.length ? index.finishMs(i) : Number.NaN;
    endMs.push(Number.isFinite(finish) ? finish : (capturedAt[i] ?? 0));
    // e2e_total_ms, else [OmniTiming]'s total (an INFO-level log): the end to end every view uses.
    e2eMs.push(requests.endToEndMsAt(i));
    slowestStage.push(slowestStageAt(requests, i));
    // The whole request is read only where the phases colour it.
    if (colourBy === 'slowestPhase') {
      const request = requests.at(i);
      slowestPhase.push(request === undefined ? null : slowestPhaseOfRequest(request));
    }
    cold.push(requests.isColdAt(i));
  }
  return {
    scope: scopeCutsRows(scope) ? scope : null,
    sessionRequests: requests.length,
    requestIds,
    endMs,
    e2eMs,
    slowestStage,
    colourBy,
    slowestPhase,
    cold,
  };
}
