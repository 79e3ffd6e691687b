// `stage-lens explain --format json` (schema 1): the tail attribution of each target at
// each quantile, the load at arrival of the same tails, the distribution of every part
// of the breakdown, the percentiles over time with the engines' gauges, the cost model,
// and the findings that say which numbers not to trust. Built from an ExplainIndex.
import { breakdownSummaryJson, tailJson } from './oneOutputJson';
import type { EngineSeries } from '../analysis/engineSeries';
import { overallCutOffSentence } from '../analysis/overallSummaries';
import type { Finding } from '../analysis/types';
import { breakdownSummary } from './breakdownSummary';
import { ColumnReads } from './columnReads';
import { costModel } from './costModel';
import type { ExplainIndex } from './explainIndex';
import { loadAtArrival } from './loadAtArrival';
import { preemptionsInTail } from './preemptionsInTail';
import { overTime } from './overTime';
import { bootsInScope, rowsInScope } from './scope';
import { targetTails } from './targetTails';
import { pushAll } from '../arrays';
import type { DeployConfigJson } from '../deployConfigUsed';
import type { StageRolesFrom } from '../stageRoles';
import type {
  BreakdownSummary,
  CostFit,
  CostFitSkipped,
  ExplainScope,
  GaugeSamples,
  LoadAtArrival,
  OneRequestTarget,
  OverTimeSeries,
  PreemptionsInTail,
  TailAttribution,
  TailQuantile,
  TargetName,
} from './types';

export type { OneRequestTarget };

export const DEFAULT_QUANTILES: readonly TailQuantile[] = ['p95', 'p99'];

export interface ExplainOptions {
  /** Targets to explain; default every target some request measured. */
  readonly targets?: readonly TargetName[];
  readonly quantiles?: readonly TailQuantile[];
  readonly scope: ExplainScope;
  /** One tail attribution per server boot. */
  readonly byBoot?: boolean;
  /** The one server boot the index was read for (explain --boot); said in the report's scope. */
  readonly boot?: number;
  /** The one server of a merged log the index was read for (explain --server); said in the report's scope. */
  readonly server?: string;
  /**
   * Stage id -> role of the analysis the findings come from (StreamAnalysis.stageRoles), so that
   * the report names stages as its findings do; {} (stages by id) when absent.
   */
  readonly stageRoles?: Readonly<Record<string, string>>;
  /** [Overall Summary] tables of a log without per-request stage tables: said where nothing can be explained. */
  readonly overallSummaryTables?: number;
  /** Of those, the tables cut off before their end (OverallSummaries.cutOffTables). */
  readonly overallSummaryCutOff?: number;
  /** The log has a line at DEBUG (AnalysisSnapshot.debugLines): what it lacks is not the level. */
  readonly debugLines?: boolean;
  /** A stats table was printed at DEBUG (AnalysisSnapshot.statsTablesAtDebug): the tables it lacks were cut out. */
  readonly statsTablesAtDebug?: boolean;
  /** analyze's words for a log without per-request stage statistics (noStageStatsAdvice), said before the rest. */
  readonly noStageStats?: string | null;
}

export interface ExplainReport {
  readonly schema: 1;
  readonly source: string;
  readonly scope: {
    readonly excludeCold: boolean;
    readonly byBoot: boolean;
    /** Present when the input was read for one server boot (--boot): requestCount is that boot's. */
    readonly boot?: number;
    /** Present when the input was read for one server of a merged log (--server): requestCount is that server's. */
    readonly server?: string;
    readonly fromMs: number | null;
    readonly toMs: number | null;
  };
  readonly requestCount: number;
  readonly requestsInScope: number;
  /** Targets some request in the log measured. */
  readonly targets: readonly TargetName[];
  readonly tail: readonly TailAttribution[];
  /**
   * Targets (per boot with byBoot) that one request in scope measured: no tail to explain (the
   * tail would be that request, each part's excess over its own median 0), so none is in `tail`.
   */
  readonly oneRequest: readonly OneRequestTarget[];
  /** Targets asked for that no request in scope measured. */
  readonly unsupportedTargets: readonly TargetName[];
  readonly load: readonly LoadAtArrival[];
  /** Per target and quantile, the preempted requests in the tail against all (absent where none printed a preemption). */
  readonly preemptions: readonly PreemptionsInTail[];
  readonly breakdown: BreakdownSummary;
  readonly overTime: OverTimeSeries;
  readonly costModel: readonly CostFit[];
  readonly costModelSkipped: readonly CostFitSkipped[];
  /** Stages whose vllm_prefill_ms covers their decode (one output): their `prefill` part and fit are prefill+decode. */
  readonly oneOutputStages: readonly string[];
  /** Stage id -> role ("0" -> "talker") of the pipeline the source names; {} for another, or where its stages contradict it. */
  readonly stageRoles: Readonly<Record<string, string>>;
  /** Where `stageRoles` came from; set by the CLI (explain.ts), which knows the input. */
  readonly stageRolesFrom?: StageRolesFrom;
  /** The deploy config the findings cite, where it came from, or why it is not cited; set as stageRolesFrom. */
  readonly deployConfig?: DeployConfigJson;
  readonly findings: readonly Finding[];
  /** [Overall Summary] tables read where the log has no per-request stage table (run totals, nothing to explain); absent when none. */
  readonly overallSummaryTables?: number;
  /** analyze's sentence for the [Overall Summary] tables that were cut off (overallCutOffSentence); absent when none was. */
  readonly overallSummaryCutOff?: string;
  /** The log has a line at DEBUG: the server logged at DEBUG (what its missing tables lack is not the level); absent when not. */
  readonly debugLines?: true;
  /** A stats table was printed at DEBUG: the per-request tables the log lacks were cut out of it; absent when not. */
  readonly statsTablesAtDebug?: true;
  /**
   * Why the log has no per-request stage statistics and what prints them, in analyze's words
   * (no stage and no [Overall Summary] table in a readable log of the current format); absent otherwise.
   */
  readonly noStageStats?: string;
}

/** Engine-line series as gauges of the over-time series (KV usage already in percent). */
export function gaugesOfEngines(series: readonly EngineSeries[]): GaugeSamples[] {
  return series.map((e) => ({
    stage: e.stage === null ? null : String(e.stage),
    replica: e.replica === null ? null : String(e.replica),
    source: 'log',
    engine: e.engine,
    ...(e.server === null ? {} : { server: e.server }),
    mapping: e.mapping,
    times: e.times,
    boots: e.boots,
    running: e.running,
    waiting: e.waiting,
    kvCacheUsagePerc: e.kvCacheUsagePerc,
  }));
}

export function explainReport(
  index: ExplainIndex,
  source: string,
  options: ExplainOptions,
  gauges: readonly GaugeSamples[],
  findings: readonly Finding[],
): ExplainReport {
  const quantiles = options.quantiles ?? DEFAULT_QUANTILES;
  const known = index.targets();
  const wanted = options.targets ?? known;
  const tail: TailAttribution[] = [];
  const load: LoadAtArrival[] = [];
  const preemptions: PreemptionsInTail[] = [];
  const roles = options.stageRoles ?? {};
  const unsupported: TargetName[] = [];
  const oneRequest: OneRequestTarget[] = [];
  const boots = options.byBoot === true ? bootsInScope(index, options.scope) : [undefined];
  const reads = new ColumnReads();
  for (const target of wanted) {
    let any = false;
    for (const quantile of quantiles) {
      const split = targetTails(index, target, quantile, options.scope, boots, reads);
      if (split.tails.length > 0 || split.oneRequest.length > 0) any = true;
      pushAll(tail, split.tails);
      // Said once per target (and boot), whatever the quantiles.
      for (const o of split.oneRequest)
        if (!oneRequest.some((x) => x.target === o.target && x.boot === o.boot)) oneRequest.push(o);
      // Per boot with byBoot, as the tails above: a boot's tail arrived among its own requests.
      for (const boot of boots) {
        const scope = boot === undefined ? options.scope : { ...options.scope, boot };
        const l = loadAtArrival(index, { target, quantile, scope });
        if (l !== null && l.arrivalsKnown > 0) load.push(boot === undefined ? l : { ...l, boot });
      }
      const p = preemptionsInTail(index, { target, quantile, scope: options.scope }, reads, roles);
      if (p !== null) preemptions.push(p);
    }
    if (!any) unsupported.push(target);
  }
  const cost = costModel(index, options.scope, reads);
  return {
    schema: 1,
    source,
    scope: {
      excludeCold: options.scope.excludeCold === true,
      byBoot: options.byBoot === true,
      ...(options.boot === undefined ? {} : { boot: options.boot }),
      ...(options.server === undefined ? {} : { server: options.server }),
      fromMs: options.scope.fromMs ?? null,
      toMs: options.scope.toMs ?? null,
    },
    requestCount: index.length,
    requestsInScope: rowsInScope(index, options.scope).length,
    targets: known,
    tail,
    oneRequest,
    unsupportedTargets: unsupported,
    load,
    preemptions,
    breakdown: breakdownSummary(index, options.scope, reads),
    overTime: overTime(index, { scope: options.scope }, gauges),
    costModel: cost.fits,
    costModelSkipped: cost.skipped,
    oneOutputStages: index.oneOutputStages(),
    stageRoles: roles,
    findings,
    ...((options.overallSummaryTables ?? 0) > 0 ? { overallSummaryTables: options.overallSummaryTables } : {}),
    ...overallCutOffOf(options.overallSummaryTables ?? 0, options.overallSummaryCutOff ?? 0),
    ...(options.debugLines === true ? { debugLines: true as const } : {}),
    ...(options.statsTablesAtDebug === true ? { statsTablesAtDebug: true as const } : {}),
    ...(typeof options.noStageStats === 'string' ? { noStageStats: options.noStageStats } : {}),
  };
}

/** analyze's sentence for cut-off [Overall Summary] tables; explain lists no input problems, so it says where analyze does. */
function overallCutOffOf(tables: number, cutOff: number): { overallSummaryCutOff?: string } {
  if (cutOff === 0) return {};
  const where = `\`stage-lens analyze\` lists ${cutOff === 1 ? 'it' : 'them'} under Input problems`;
  return { overallSummaryCutOff: overallCutOffSentence(cutOff, tables, where) };
}

/** The report as JSON text (a one-output stage's prefill named prefillDecode, oneOutputJson.ts): numbers to at most 4 decimals (they are sums and means of 3-decimal values), NaN as null. */
export function explainJsonText(report: ExplainReport): string {
  const oneOutput = report.oneOutputStages;
  const json = {
    ...report,
    tail: report.tail.map((t) => tailJson(t, oneOutput)),
    breakdown: breakdownSummaryJson(report.breakdown, oneOutput),
  };
  return JSON.stringify(
    json,
    (_key, v: unknown) =>
      typeof v === 'number' ? (Number.isFinite(v) ? (Number.isInteger(v) ? v : Math.round(v * 1e4) / 1e4) : null) : v,
    2,
  );
}
