// Collects, per scope and metric, the measured values of a run's requests (and counts the
// values that are not numbers, by reason) into growing Float64Arrays; `finish()` sorts
// them once. Requests go in one at a time, so a 100k-request log is never held whole.
import { RunTailsBuilder } from './tailCompare';
import type { AnalyzedRequest, Finding } from '../analysis/types';
import { e2eValue, edgeMetricValue, stageMetricValue } from './metrics';
import { prefillCoversDecode } from '../analysis/oneOutputStage';
import { edgeTableNotPrinted } from '../analysis/tablesMissing';
import { StageOutputEvidence } from '../analysis/roleFit';
import type { MetricValue } from './metrics';
import type { FindingCount, MetricId, MetricSamples, RunSamples, ScopeSamples, UnknownCounts } from './types';
import { EDGE_METRICS, REQUEST_SCOPE, STAGE_METRICS } from './types';

class GrowingSamples {
  private values = new Float64Array(64);
  length = 0;
  inferred = 0;
  coarse = 0;
  readonly unknown: { -readonly [K in keyof UnknownCounts]: number } = {};

  add(v: MetricValue): void {
    if ('unknown' in v) {
      this.unknown[v.unknown] = (this.unknown[v.unknown] ?? 0) + 1;
      return;
    }
    if (this.length === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length++] = v.value;
    if (v.inferred) this.inferred++;
    if (v.coarse === true) this.coarse++;
  }

  finish(): MetricSamples {
    return {
      values: this.values.slice(0, this.length).sort(),
      inferred: this.inferred,
      ...(this.coarse > 0 ? { coarse: this.coarse } : {}),
      unknown: { ...this.unknown },
    };
  }
}

class ScopeAccumulator {
  requestCount = 0;
  readonly metrics = new Map<MetricId, GrowingSamples>();

  constructor(
    readonly scope: string,
    readonly stageId: number | null,
  ) {}

  add(metric: MetricId, value: MetricValue): void {
    let s = this.metrics.get(metric);
    if (s === undefined) this.metrics.set(metric, (s = new GrowingSamples()));
    s.add(value);
  }

  finish(): ScopeSamples {
    const metrics: Partial<Record<MetricId, MetricSamples>> = {};
    for (const [id, s] of this.metrics) metrics[id] = s.finish();
    return { scope: this.scope, stageId: this.stageId, requestCount: this.requestCount, metrics };
  }
}

/** Stage keys in pipeline order (`0`, `1`, `1_2`, `2`), then transfer edges (`0->1`, `1->2`), then `request`. */
export function compareScopes(a: string, b: string): number {
  if (a === b) return 0;
  if (a === REQUEST_SCOPE) return 1;
  if (b === REQUEST_SCOPE) return -1;
  const ea = a.includes('->');
  const eb = b.includes('->');
  if (ea !== eb) return ea ? 1 : -1;
  if (ea) {
    const [af = '', at = ''] = a.split('->');
    const [bf = '', bt = ''] = b.split('->');
    return Number(af) - Number(bf) || Number(at) - Number(bt) || (a < b ? -1 : 1);
  }
  const [an = '', as = '1'] = a.split('_');
  const [bn = '', bs = '1'] = b.split('_');
  const d = Number(an) - Number(bn);
  if (!Number.isNaN(d) && d !== 0) return d;
  if (Number.isNaN(d) && an !== bn) return an < bn ? -1 : 1;
  return Number(as) - Number(bs) || (a < b ? -1 : 1);
}

export class RunSamplesBuilder {
  private readonly scopes = new Map<string, ScopeAccumulator>();
  private readonly tails = new RunTailsBuilder();
  private requests = 0;
  private cold = 0;
  private firstTime: string | null = null;
  private lastTime: string | null = null;
  private readonly stagePairs = new Map<string, number>();
  private readonly stageOutputs = new StageOutputEvidence();
  private model: string | null = null;

  constructor(private readonly excludeCold: boolean) {}

  /** The model the log says it serves (the first start-up's). */
  servedModel(model: string): void {
    this.model ??= model;
  }

  add(request: AnalyzedRequest): void {
    this.requests++;
    // Before the cold request is left out: what a stage printed is evidence whenever it printed it.
    this.stageOutputs.add(request);
    // In log order, not by sorting the text: a log that runs over New Year stays in order.
    if (request.timestamp !== null) {
      this.firstTime ??= request.timestamp;
      this.lastTime = request.timestamp;
    }
    if (request.cold) {
      this.cold++;
      if (this.excludeCold) return;
    }
    this.tails.add(request);
    this.countStagePairs(request);
    for (const stage of request.stages) {
      const acc = this.scope(stage.stageKey, stage.stageId);
      acc.requestCount++;
      const oneOutput = prefillCoversDecode(request, stage);
      for (const metric of STAGE_METRICS) {
        const value = stageMetricValue(request, stage, metric, oneOutput);
        if (value !== null) acc.add(metric, value);
      }
    }
    // Transfer edges: a scope per edge (`0->1`), over the requests that name it.
    for (const transfer of request.transfers) {
      const acc = this.scope(transfer.edge, null);
      acc.requestCount++;
      const tableNotPrinted = edgeTableNotPrinted(request, transfer);
      for (const metric of EDGE_METRICS) acc.add(metric, edgeMetricValue(transfer, metric, tableNotPrinted));
    }
    const e2e = e2eValue(request);
    // A request that printed no e2e table (an INFO-level excerpt of stage tables) is not a request-level sample.
    if ('value' in e2e || Object.keys(request.e2e).length > 0 || request.timing !== null) {
      const acc = this.scope(REQUEST_SCOPE, null);
      acc.requestCount++;
      acc.add('e2e', e2e);
    }
  }

  finish(findings: readonly Finding[]): RunSamples {
    return {
      requestCount: this.requests,
      coldRequests: this.cold,
      coldExcluded: this.excludeCold,
      scopes: [...this.scopes.values()].sort((a, b) => compareScopes(a.scope, b.scope)).map((s) => s.finish()),
      findings: findings.map(findingCount),
      tails: this.tails.finish(),
      logSpan:
        this.firstTime === null || this.lastTime === null ? null : { first: this.firstTime, last: this.lastTime },
      stagePairRequests: Object.fromEntries(this.stagePairs),
      stageOutputs: this.stageOutputs.stages(),
      servedModel: this.model,
    };
  }

  /** Each pair of the request's stages once (replicas and segments of a stage count as it). */
  private countStagePairs(request: AnalyzedRequest): void {
    const ids: number[] = [];
    for (const stage of request.stages)
      if (stage.stageId !== null && !ids.includes(stage.stageId)) ids.push(stage.stageId);
    ids.sort((a, b) => a - b);
    for (let i = 0; i < ids.length; i++)
      for (let j = i + 1; j < ids.length; j++) {
        const key = `${ids[i]}->${ids[j]}`;
        this.stagePairs.set(key, (this.stagePairs.get(key) ?? 0) + 1);
      }
  }

  private scope(scope: string, stageId: number | null): ScopeAccumulator {
    let acc = this.scopes.get(scope);
    if (acc === undefined) this.scopes.set(scope, (acc = new ScopeAccumulator(scope, stageId)));
    return acc;
  }
}

/** `samples` with `findings` as their counts (a log's findings named once its stages' roles are known). */
export function withFindings(samples: RunSamples, findings: readonly Finding[]): RunSamples {
  return { ...samples, findings: findings.map(findingCount) };
}

export function findingCount(f: Finding): FindingCount {
  return { code: f.code, severity: f.severity, stageId: f.stageId, requestCount: f.requestCount, message: f.message };
}

/**
 * Samples of an analysis already in memory (a live or reopened session): its requests (the packed
 * store is iterable), findings, and whether its log has a DEBUG line, as a log read again says it
 * (LogRunReader).
 */
export function runSamplesFromAnalysis(
  analysis: {
    readonly requests: Iterable<AnalyzedRequest>;
    readonly findings: readonly Finding[];
    readonly debugLines?: boolean;
    /** The model the log says it serves (StreamAnalysis.servedModel): it names the stages as a read of the log's bytes would. */
    readonly servedModel?: string | null;
  },
  excludeCold: boolean,
): RunSamples {
  const builder = new RunSamplesBuilder(excludeCold);
  if (analysis.servedModel !== undefined && analysis.servedModel !== null) builder.servedModel(analysis.servedModel);
  for (const request of analysis.requests) builder.add(request);
  const samples = builder.finish(analysis.findings);
  return analysis.debugLines === true ? { ...samples, debugLines: true } : samples;
}
