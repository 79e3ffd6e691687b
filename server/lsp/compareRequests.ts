// `stageLens/compare`: two runs, each a session of this server (its analysis is already in
// memory) or a path on disk (log, /metrics scrape, saved session folder), compared by
// server/core/compare. The editor's Compare Sessions panel shows the result. One server boot of
// a side, or one server of a merged log, is read as `compare --baseline-boot` / `--baseline-server`
// read it: a session from its folder, as a saved one; so is an imported /metrics scrape.
// `stageLens/runBoots`: the boots and servers a run has, for the compare command to offer.
import { compareRuns, incomparableReason, runSamplesFromAnalysis } from '../core/compare';
import type { RunData } from '../core/compare';
import { loadRun, scrapeOfLogSession } from '../capture/compareInput';
import { SessionFiles } from '../capture/sessionFiles';
import { sessionSummary } from '../capture/sessionQueries';
import type { SessionRegistry } from '../capture/sessionRegistry';
import type {
  CompareParams,
  CompareResult,
  CompareRunName,
  CompareTarget,
  RunBootsParams,
  RunBootsResult,
  RunServer,
} from '../protocol';
import { runNameOfPath, runNameOfSession, runNameWithBoot } from '../core/compare/runName';
import { unknownBootProblem } from '../core/analysis/bootWords';
import { unknownServerProblem } from '../core/analysis/serverWords';
import { offersServerPick } from '../core/analysis/serverSummaries';
import { serverBootChoices } from '../capture/sessionQueries';
import { bootChoices } from '../core/analysis/bootPipelines';
import { sessionPipelineNames } from '../core/stageRoles';

async function sessionRun(
  registry: SessionRegistry,
  sessionId: string,
  excludeCold: boolean,
  boot: number | null,
  server: string | null,
): Promise<{ run: RunData; name: CompareRunName }> {
  const session = await registry.open(sessionId);
  const info = session.info;
  const name = runNameOfSession(info);
  // An imported /metrics scrape, or the last scrape of a session attached to a /metrics URL, is read
  // from its folder as `compare <folder>` and `compare x.prom` read it: its histograms added over
  // replicas and its findings, not a log of 0 requests nor rows per replica.
  if (boot !== null || server !== null || info.importedScrape === true || info.kind === 'scrape') {
    const run = await loadRun(registry.folderOf(sessionId), { excludeCold, boot, server });
    return { run: { ...run, source: `${info.kind} session ${info.id} (${info.description})` }, name };
  }
  // Findings from the summary (request ids capped), over the requests the quantiles are; the
  // requests are read from the packed store one by one.
  const { findings } = excludeCold ? sessionSummary(session, undefined, { excludeCold }) : session.summary();
  const source = `${info.kind} session ${info.id} (${info.description})`;
  // Its /metrics endpoint's last scrape, read as `compare <folder>` reads it (a stage's replicas added).
  const scrape = scrapeOfLogSession(SessionFiles.atFolder(registry.folderOf(sessionId)), source);
  // A session that only queries Prometheus has no per-request data: that is not "0 requests".
  const hasLog = info.kind !== 'prometheus';
  const run: RunData = {
    source,
    // Named as loadRun names a session folder's stages: by its deploy file and source.
    pipelineNames: sessionPipelineNames(info),
    ...(info.stageRoles === undefined ? {} : { recordedStageRoles: info.stageRoles }),
    kind: 'session',
    samples: hasLog
      ? runSamplesFromAnalysis(
          {
            requests: session.requests(),
            findings,
            debugLines: session.debugLines,
            servedModel: session.servedModel(),
          },
          excludeCold,
        )
      : null,
    ...scrape,
    // Its log's unreadable lines and its last scrape's, as `compare <folder>` counts them.
    problemCount: session.logProblemCount() + (scrape.problemCount ?? 0),
  };
  return { run, name };
}

async function runOf(
  registry: SessionRegistry,
  target: CompareTarget,
  excludeCold: boolean,
  boot: number | null,
  server: string | null,
): Promise<{ run: RunData; name: CompareRunName }> {
  const side =
    'sessionId' in target
      ? await sessionRun(registry, target.sessionId, excludeCold, boot, server)
      : { run: await loadRun(target.path, { excludeCold, boot, server }), name: runNameOfPath(target.path) };
  if (boot !== null) {
    if (side.run.kind === 'scrape')
      throw new Error(`${side.run.source} is a /metrics scrape, which has no server boots`);
    const problem = unknownBootProblem(side.run.bootCounts ?? null);
    if (problem !== null) throw new Error(`${side.name.name}: ${problem}`);
  }
  if (server !== null) {
    if (side.run.kind === 'scrape')
      throw new Error(`${side.run.source} is a /metrics scrape, which has no server tags`);
    const problem = unknownServerProblem(side.run.serverCounts ?? null);
    if (problem !== null) throw new Error(`${side.name.name}: ${problem}`);
  }
  return { run: side.run, name: runNameWithBoot(side.name, boot, server) };
}

export async function compareRequest(registry: SessionRegistry, params: CompareParams): Promise<CompareResult> {
  const excludeCold = params.excludeCold === true;
  const [baseline, candidate] = await Promise.all([
    runOf(registry, params.baseline, excludeCold, params.baselineBoot ?? null, params.baselineServer ?? null),
    runOf(registry, params.candidate, excludeCold, params.candidateBoot ?? null, params.candidateServer ?? null),
  ]);
  const reason = incomparableReason(baseline.run, candidate.run);
  if (reason !== null) throw new Error(reason);
  return {
    report: compareRuns(baseline.run, candidate.run),
    baselineRun: baseline.name,
    candidateRun: candidate.name,
  };
}

/** The servers a pick offers: two or more, and no more than the views' server pick offers. */
function offeredServers(servers: readonly RunServer[]): readonly RunServer[] {
  return offersServerPick(servers.length) ? servers : [];
}

export async function runBootsRequest(registry: SessionRegistry, params: RunBootsParams): Promise<RunBootsResult> {
  const server = params.server ?? null;
  if ('sessionId' in params) {
    const session = await registry.open(params.sessionId);
    const { servers, untagged } = session.explainIndex.serverCounts();
    return {
      boots: server === null ? bootChoices(session.bootPipelines()) : serverBootChoices(session, server),
      servers: offeredServers(servers),
      untaggedRequests: untagged,
    };
  }
  const run = await loadRun(params.path, { excludeCold: false, server });
  return {
    boots: run.boots ?? [],
    servers: offeredServers(run.servers ?? []),
    untaggedRequests: run.untaggedRequests ?? 0,
  };
}
