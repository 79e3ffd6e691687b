// Per-stage distributions of every numeric field (measured values only) and of the
// phase split (measured and inferred values only; notMeasured/hidden/notRecorded are
// counted, never averaged in as 0). Incremental, so a live session of 100k requests can
// be summarised repeatedly.
import { prefillCoversDecode } from './oneOutputStage';
import { SampleSet } from './sampleSet';
import type { Cell } from '../values';
import type { AnalyzedRequest, Distribution, RequestStage, SplitName, SplitState, SplitStateCounts, StageSummary } from './types';
import { SPLIT_NAMES } from './types';

function emptyStateCounts(): Record<SplitState, number> {
  return { measured: 0, notMeasured: 0, hidden: 0, notRecorded: 0, inferred: 0 };
}

class StageAccumulator {
  requestCount = 0;
  readonly fields = new Map<string, SampleSet>();
  readonly split = new Map<SplitName, SampleSet>();
  readonly splitStates = new Map<SplitName, Record<SplitState, number>>(SPLIT_NAMES.map((n) => [n, emptyStateCounts()]));
  readonly addedTimeToFirstOutput = new SampleSet();
  oneOutputRequests = 0;
  readonly prefillDecode = new SampleSet();

  constructor(
    readonly stageKey: string,
    readonly stageId: number | null,
    readonly replicaId: number | null,
  ) {}

  summary(): StageSummary {
    const fields: Record<string, Distribution> = {};
    for (const [name, set] of [...this.fields].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const d = set.distribution();
      if (d !== null) fields[name] = d;
    }
    const split: Partial<Record<SplitName, Distribution>> = {};
    for (const [name, set] of this.split) {
      const d = set.distribution();
      if (d !== null) split[name] = d;
    }
    const splitStates = {} as Record<SplitName, SplitStateCounts>;
    for (const name of SPLIT_NAMES) splitStates[name] = { ...(this.splitStates.get(name) ?? emptyStateCounts()) };
    return {
      stageKey: this.stageKey,
      stageId: this.stageId,
      replicaId: this.replicaId,
      requestCount: this.requestCount,
      fields,
      split,
      splitStates,
      addedTimeToFirstOutputMs: this.addedTimeToFirstOutput.distribution(),
      oneOutputRequests: this.oneOutputRequests,
      prefillDecodeMs: this.prefillDecode.distribution(),
    };
  }
}

function compareStageKeys(a: string, b: string): number {
  const [an, as = '1'] = a.split('_');
  const [bn, bs = '1'] = b.split('_');
  const d = Number(an) - Number(bn);
  if (!Number.isNaN(d) && d !== 0) return d;
  if (Number.isNaN(d) && an !== bn) return (an ?? '') < (bn ?? '') ? -1 : 1;
  return Number(as) - Number(bs);
}

export class StageSummaryBuilder {
  private readonly byStage = new Map<string, StageAccumulator>();
  /** Replica ids seen per stage: per-replica summaries are only worth their memory for stages on several. */
  private readonly replicaIds = new Map<string, Set<number>>();

  add(request: AnalyzedRequest): void {
    for (const stage of request.stages) {
      let replicas = this.replicaIds.get(stage.stageKey);
      if (replicas === undefined) this.replicaIds.set(stage.stageKey, (replicas = new Set()));
      if (replicas.size < 1024) replicas.add(stage.replicaId);
      accumulate(accumulator(this.byStage, stage.stageKey, stage.stageKey, stage.stageId, null), request, stage);
    }
  }

  /** One summary per stage (all replicas together), in stage order. */
  stages(): StageSummary[] {
    return [...this.byStage.values()].sort((a, b) => compareStageKeys(a.stageKey, b.stageKey)).map((a) => a.summary());
  }

  /**
   * One summary per stage and replica, only for stages seen on more than one replica,
   * computed from the requests given (the same ones that were added).
   */
  replicas(requests: Iterable<AnalyzedRequest>): StageSummary[] {
    const multi = new Set([...this.replicaIds].filter(([, ids]) => ids.size > 1).map(([key]) => key));
    if (multi.size === 0) return [];
    const byReplica = new Map<string, StageAccumulator>();
    for (const request of requests) {
      for (const stage of request.stages) {
        if (!multi.has(stage.stageKey)) continue;
        accumulate(accumulator(byReplica, `${stage.stageKey}/${stage.replicaId}`, stage.stageKey, stage.stageId, stage.replicaId), request, stage);
      }
    }
    return [...byReplica.values()]
      .sort((a, b) => compareStageKeys(a.stageKey, b.stageKey) || (a.replicaId ?? 0) - (b.replicaId ?? 0))
      .map((a) => a.summary());
  }
}

function accumulator(map: Map<string, StageAccumulator>, key: string, stageKey: string, stageId: number | null, replicaId: number | null): StageAccumulator {
  let acc = map.get(key);
  if (acc === undefined) map.set(key, (acc = new StageAccumulator(stageKey, stageId, replicaId)));
  return acc;
}

function accumulate(acc: StageAccumulator, request: AnalyzedRequest, stage: RequestStage): void {
  acc.requestCount += 1;
  for (const name in stage.fields) {
    const cell = stage.fields[name] as Cell;
    if (cell.state !== 'measured' || !Number.isFinite(cell.value)) continue;
    let set = acc.fields.get(name);
    if (set === undefined) acc.fields.set(name, (set = new SampleSet()));
    set.add(cell.value);
  }
  // A one-output stage's prefill covers its decode: counted apart, never as prefill or decode.
  const oneOutput = prefillCoversDecode(request, stage);
  if (oneOutput) {
    acc.oneOutputRequests += 1;
    acc.prefillDecode.add(stage.split.values.prefillMs as number);
  }
  for (const name of SPLIT_NAMES) {
    if (oneOutput && (name === 'prefillMs' || name === 'decodeMs')) continue;
    const state = stage.split.states[name];
    (acc.splitStates.get(name) as Record<SplitState, number>)[state] += 1;
    const value = stage.split.values[name];
    if (value === null) continue;
    let set = acc.split.get(name);
    if (set === undefined) acc.split.set(name, (set = new SampleSet()));
    set.add(value);
  }
  const added = request.derived.addedTimeToFirstOutputMs[stage.stageKey];
  if (added !== undefined) acc.addedTimeToFirstOutput.add(added);
}
