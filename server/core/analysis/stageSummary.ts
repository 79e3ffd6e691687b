// Per-stage distributions of every numeric field (measured values only; printed numbers that
// are not measurements are counted by reason, unrecordedValues.ts) and of the
// phase split (measured and inferred values only; notMeasured/hidden/notRecorded are
// counted, never averaged in as 0). Incremental, so a live session of 100k requests can
// be summarised repeatedly.
import { PER_OUTPUT_INTERVAL_FIELDS, prefillCoversDecode, reportedSplit } from './oneOutputStage';
import { SampleSet } from './sampleSet';
import { compareStageKeys } from './stageOrder';
import type { Cell } from '../values';
import { unrecordedReason, type UnrecordedReason } from './unrecordedValues';
import { rowUnread } from './stageBuilder';
import type {
  AnalyzedRequest,
  Distribution,
  FieldNotRecordedCounts,
  RequestStage,
  SplitName,
  SplitState,
  SplitStateCounts,
  StageSummary,
} from './types';
import { SPLIT_FIELD, SPLIT_NAMES } from './types';

/** Split states in the order their counts are reported. */
const STATES: readonly SplitState[] = ['measured', 'notMeasured', 'hidden', 'notRecorded', 'inferred'];
const STATE_COUNT = STATES.length;

function stateIndex(state: SplitState): number {
  switch (state) {
    case 'measured':
      return 0;
    case 'notMeasured':
      return 1;
    case 'hidden':
      return 2;
    case 'notRecorded':
      return 3;
    default:
      return 4;
  }
}

class StageAccumulator {
  requestCount = 0;
  readonly fields = new Map<string, SampleSet>();
  /** Split value sets by SPLIT_NAMES index, and the order in which each was first seen (the summary's key order). */
  split: (SampleSet | null)[] = SPLIT_NAMES.map(() => null);
  splitOrder: number[] = [];
  /** stateCounts[splitIndex * STATE_COUNT + stateIndex]. */
  stateCounts = new Float64Array(SPLIT_NAMES.length * STATE_COUNT);
  /** Field -> reason -> printed numbers left out (unrecordedValues.ts). */
  notRecorded = new Map<string, Map<UnrecordedReason, number>>();
  addedTimeToFirstOutput: SampleSet;
  oneOutputRequests = 0;
  /** One-output requests' prefill and decode states: [0 prefill, 1 decode] * STATE_COUNT + stateIndex. */
  oneOutputStateCounts = new Float64Array(2 * STATE_COUNT);
  prefillDecode: SampleSet;

  constructor(
    readonly stageKey: string,
    readonly stageId: number | null,
    readonly replicaId: number | null,
    /** The sample sets keep their tails' buffers (StageSummaryOptions.keepsTails). */
    readonly keepsTails: boolean,
  ) {
    this.addedTimeToFirstOutput = new SampleSet(keepsTails);
    this.prefillDecode = new SampleSet(keepsTails);
  }

  newSet(): SampleSet {
    return new SampleSet(this.keepsTails);
  }

  addSplit(index: number, value: number | null, state: SplitState): void {
    this.stateCounts[index * STATE_COUNT + stateIndex(state)] += 1;
    if (value === null) return;
    let set = this.split[index];
    if (set === null || set === undefined) {
      this.split[index] = set = this.newSet();
      this.splitOrder.push(index);
    }
    set.add(value);
  }

  summary(): StageSummary {
    const fields: Record<string, Distribution> = {};
    for (const [name, set] of [...this.fields].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const d = set.distribution();
      if (d !== null) fields[name] = d;
    }
    const split: Partial<Record<SplitName, Distribution>> = {};
    for (const index of this.splitOrder) {
      const d = this.split[index]?.distribution() ?? null;
      if (d !== null) split[SPLIT_NAMES[index]] = d;
    }
    const splitStates = {} as Record<SplitName, SplitStateCounts>;
    SPLIT_NAMES.forEach((name, i) => {
      const counts = {} as Record<SplitState, number>;
      STATES.forEach((state, j) => (counts[state] = this.stateCounts[i * STATE_COUNT + j]));
      splitStates[name] = counts;
    });
    const oneOutputStates = (at: number): SplitStateCounts => {
      const counts = {} as Record<SplitState, number>;
      STATES.forEach((state, j) => (counts[state] = this.oneOutputStateCounts[at * STATE_COUNT + j]));
      return counts;
    };
    return {
      stageKey: this.stageKey,
      stageId: this.stageId,
      replicaId: this.replicaId,
      requestCount: this.requestCount,
      fields,
      split,
      splitStates,
      fieldsNotRecorded: this.fieldsNotRecorded(),
      addedTimeToFirstOutputMs: this.addedTimeToFirstOutput.distribution(),
      oneOutputRequests: this.oneOutputRequests,
      oneOutputSplitStates: { prefillMs: oneOutputStates(0), decodeMs: oneOutputStates(1) },
      prefillDecodeMs: this.prefillDecode.distribution(),
    };
  }

  private fieldsNotRecorded(): Record<string, FieldNotRecordedCounts> {
    const out: Record<string, FieldNotRecordedCounts> = {};
    for (const [name, reasons] of [...this.notRecorded].sort(([a], [b]) => (a < b ? -1 : 1)))
      out[name] = Object.fromEntries(reasons) as FieldNotRecordedCounts;
    return out;
  }

  trim(): void {
    for (const set of this.fields.values()) set.trim();
    for (const set of this.split) set?.trim();
    this.addedTimeToFirstOutput.trim();
    this.prefillDecode.trim();
  }

  /** The same samples under another replica id (the maps keep their order, so summaries come out the same). */
  copyFor(replicaId: number): StageAccumulator {
    const copy = new StageAccumulator(this.stageKey, this.stageId, replicaId, this.keepsTails);
    copy.requestCount = this.requestCount;
    for (const [name, set] of this.fields) copy.fields.set(name, set.copy());
    copy.split = this.split.map((set) => set?.copy() ?? null);
    copy.splitOrder = [...this.splitOrder];
    copy.stateCounts = this.stateCounts.slice();
    for (const [name, reasons] of this.notRecorded) copy.notRecorded.set(name, new Map(reasons));
    copy.addedTimeToFirstOutput = this.addedTimeToFirstOutput.copy();
    copy.oneOutputRequests = this.oneOutputRequests;
    copy.oneOutputStateCounts = this.oneOutputStateCounts.slice();
    copy.prefillDecode = this.prefillDecode.copy();
    return copy;
  }
}

export interface StageSummaryOptions {
  /**
   * Keep the per-replica summaries as requests arrive instead of computing them from the
   * stored requests when asked (a reader that keeps no requests): a stage's first replica
   * starts as a copy of the stage's samples when its second replica id appears (`None`, no
   * replica id, counts as another, so that copy never holds its requests).
   */
  readonly replicasAsTheyCome?: boolean;
  /** The stage fields to summarize (default: every numeric field); the split is always summarized. */
  readonly fields?: ReadonlySet<string>;
  /**
   * Each sample set keeps its tail's buffer across merges (SampleSet's keepsTail): for a reader
   * that summarizes to the end and reports once; a session's sets let it go (default).
   */
  readonly keepsTails?: boolean;
}

export class StageSummaryBuilder {
  private readonly byStage = new Map<string, StageAccumulator>();
  /** Replica ids seen per stage (null: `None`): per-replica summaries are only worth their memory for stages on several. */
  private readonly replicaIds = new Map<string, Set<number | null>>();
  /** Per stage and replica, for stages seen on several replicas (replicasAsTheyCome only). */
  private readonly byReplica: Map<string, StageAccumulator> | null;

  private readonly fields: ReadonlySet<string> | null;
  private readonly keepsTails: boolean;

  constructor(options: StageSummaryOptions = {}) {
    this.byReplica = options.replicasAsTheyCome === true ? new Map() : null;
    this.fields = options.fields ?? null;
    this.keepsTails = options.keepsTails === true;
  }

  /** The sample sets' room for more samples let go (SampleSet.trim): the input ended. */
  trim(): void {
    for (const acc of this.byStage.values()) acc.trim();
    if (this.byReplica !== null) for (const acc of this.byReplica.values()) acc.trim();
  }

  add(request: AnalyzedRequest): void {
    for (const stage of request.stages) {
      // null (`None`: no replica id) is told apart from every id, and summarized with no replica.
      const replicaId = stage.replicaId;
      let replicas = this.replicaIds.get(stage.stageKey);
      if (replicas === undefined) this.replicaIds.set(stage.stageKey, (replicas = new Set()));
      const stageAcc = accumulator(this.byStage, stage.stageKey, stage.stageKey, stage.stageId, null, this.keepsTails);
      const byReplica = this.byReplica;
      if (byReplica !== null && replicas.size === 1 && !replicas.has(replicaId)) {
        // The stage's second replica id: every request of the stage so far ran on the first.
        const first = replicas.values().next().value as number | null;
        if (first !== null) byReplica.set(`${stage.stageKey}/${first}`, stageAcc.copyFor(first));
      }
      if (replicas.size < 1024) replicas.add(replicaId);
      accumulate(stageAcc, request, stage, this.fields);
      if (byReplica !== null && replicas.size > 1 && replicaId !== null)
        accumulate(replicaAccumulator(byReplica, stage, replicaId, this.keepsTails), request, stage, this.fields);
    }
  }

  /** One summary per stage (all replicas together), in stage order. */
  stages(): StageSummary[] {
    return [...this.byStage.values()].sort((a, b) => compareStageKeys(a.stageKey, b.stageKey)).map((a) => a.summary());
  }

  /** The stages seen on more than one replica id (`None` is no replica id, so not one of them). */
  private multiReplicaStages(): Set<string> {
    const multi = new Set<string>();
    for (const [key, ids] of this.replicaIds) if (ids.size - (ids.has(null) ? 1 : 0) > 1) multi.add(key);
    return multi;
  }

  /**
   * One summary per stage and replica, only for stages seen on more than one replica,
   * computed from the requests given (the same ones that were added); with
   * replicasAsTheyCome, the ones kept as they came (`requests` is not read).
   */
  replicas(requests: Iterable<AnalyzedRequest>): StageSummary[] {
    const multi = this.multiReplicaStages();
    if (this.byReplica !== null)
      return sortedSummaries(new Map([...this.byReplica].filter(([, acc]) => multi.has(acc.stageKey))));
    if (multi.size === 0) return [];
    const byReplica = new Map<string, StageAccumulator>();
    for (const request of requests) {
      for (const stage of request.stages) {
        const replicaId = stage.replicaId;
        if (replicaId === null || !multi.has(stage.stageKey)) continue;
        accumulate(replicaAccumulator(byReplica, stage, replicaId, this.keepsTails), request, stage, this.fields);
      }
    }
    return sortedSummaries(byReplica);
  }
}

function sortedSummaries(byReplica: Map<string, StageAccumulator>): StageSummary[] {
  return [...byReplica.values()]
    .sort((a, b) => compareStageKeys(a.stageKey, b.stageKey) || (a.replicaId ?? 0) - (b.replicaId ?? 0))
    .map((a) => a.summary());
}

/** The accumulator of `stage` on replica `replicaId`. */
function replicaAccumulator(
  map: Map<string, StageAccumulator>,
  stage: RequestStage,
  replicaId: number,
  keepsTails: boolean,
): StageAccumulator {
  return accumulator(map, `${stage.stageKey}/${replicaId}`, stage.stageKey, stage.stageId, replicaId, keepsTails);
}

function accumulator(
  map: Map<string, StageAccumulator>,
  key: string,
  stageKey: string,
  stageId: number | null,
  replicaId: number | null,
  keepsTails: boolean,
): StageAccumulator {
  let acc = map.get(key);
  if (acc === undefined) map.set(key, (acc = new StageAccumulator(stageKey, stageId, replicaId, keepsTails)));
  return acc;
}

const SPLIT_FIELDS: ReadonlySet<string> = new Set(Object.values(SPLIT_FIELD));

function countNotRecorded(acc: StageAccumulator, name: string, reason: UnrecordedReason): void {
  let reasons = acc.notRecorded.get(name);
  if (reasons === undefined) acc.notRecorded.set(name, (reasons = new Map<UnrecordedReason, number>()));
  reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
}

/**
 * The split values not recorded because their printed number is not a measurement (a negative
 * interval), or because a cut-off table never reached their row, by field.
 */
function countSplitNotRecorded(acc: StageAccumulator, request: AnalyzedRequest, stage: RequestStage): void {
  for (const name of SPLIT_NAMES) {
    if (stage.split.states[name] !== 'notRecorded') continue;
    const field = SPLIT_FIELD[name];
    const cell = stage.fields[field];
    if (cell === undefined && rowUnread(request, field)) countNotRecorded(acc, field, 'unread');
    if (cell === undefined || cell.state !== 'measured') continue;
    const reason = unrecordedReason(field, cell.value);
    if (reason !== null) countNotRecorded(acc, field, reason);
  }
}

function addField(acc: StageAccumulator, name: string, cell: Cell | undefined, oneOutput: boolean): void {
  if (cell === undefined || cell.state !== 'measured') return;
  // A one-output stage prints 0 for the intervals between outputs it never had.
  const reason = oneOutput && PER_OUTPUT_INTERVAL_FIELDS.has(name) ? 'oneOutput' : unrecordedReason(name, cell.value);
  if (reason !== null) {
    // A split field's are counted with the split (countSplitNotRecorded), whichever fields are summarized.
    if (!SPLIT_FIELDS.has(name)) countNotRecorded(acc, name, reason);
    return;
  }
  let set = acc.fields.get(name);
  if (set === undefined) acc.fields.set(name, (set = acc.newSet()));
  set.add(cell.value);
}

const TTFT_LIES: readonly string[] = [SPLIT_FIELD.ttftMs];
const ONE_OUTPUT_LIES: readonly string[] = [SPLIT_FIELD.prefillMs, SPLIT_FIELD.decodeMs];
const BOTH_LIES: readonly string[] = [...ONE_OUTPUT_LIES, ...TTFT_LIES];
const NO_LIES: readonly string[] = [];

/** The printed split fields a stage's split found not to be what their names say. */
function knownLies(oneOutput: boolean, ttftNotRecorded: boolean): readonly string[] {
  if (oneOutput) return ttftNotRecorded ? BOTH_LIES : ONE_OUTPUT_LIES;
  return ttftNotRecorded ? TTFT_LIES : NO_LIES;
}

function accumulate(
  acc: StageAccumulator,
  request: AnalyzedRequest,
  stage: RequestStage,
  only: ReadonlySet<string> | null,
): void {
  acc.requestCount += 1;
  const fields = stage.fields;
  const { values, states } = stage.split;
  const oneOutput = prefillCoversDecode(request, stage);
  // The printed values the split found to lie stay out of the fields' distributions too
  // (counted in the split's states): a TTFT that was never set, and a one-output stage's
  // prefill (prefill+decode, summarized apart) and decode (not a measurement).
  const liars = knownLies(oneOutput, states.ttftMs === 'notRecorded');
  const check = liars.length > 0;
  if (only === null) {
    for (const name in fields) if (!check || !liars.includes(name)) addField(acc, name, fields[name], oneOutput);
  } else {
    for (const name of only) if (!check || !liars.includes(name)) addField(acc, name, fields[name], oneOutput);
  }
  // Unrolled in SPLIT_NAMES order: a loop over the names would read both records by a variable key.
  acc.addSplit(0, values.queuedMs, states.queuedMs);
  acc.addSplit(1, values.inputWaitMs, states.inputWaitMs);
  acc.addSplit(2, values.readyQueuedMs, states.readyQueuedMs);
  // A one-output stage's prefill covers its decode: counted apart, never as prefill or decode.
  if (oneOutput) {
    acc.oneOutputRequests += 1;
    acc.oneOutputStateCounts[stateIndex(states.prefillMs)] += 1;
    // Its decode is no measurement (reportedSplit: notRecorded in the request's JSON and CSV too).
    acc.oneOutputStateCounts[STATE_COUNT + stateIndex(reportedSplit(stage, true).states.decodeMs)] += 1;
    acc.prefillDecode.add(values.prefillMs as number);
  } else {
    acc.addSplit(3, values.prefillMs, states.prefillMs);
    acc.addSplit(4, values.decodeMs, states.decodeMs);
  }
  acc.addSplit(5, values.ttftMs, states.ttftMs);
  if (
    states.queuedMs === 'notRecorded' ||
    states.inputWaitMs === 'notRecorded' ||
    states.readyQueuedMs === 'notRecorded' ||
    states.prefillMs === 'notRecorded' ||
    states.decodeMs === 'notRecorded' ||
    states.ttftMs === 'notRecorded'
  )
    countSplitNotRecorded(acc, request, stage);
  const added = request.derived.addedTimeToFirstOutputMs[stage.stageKey];
  if (added !== undefined) acc.addedTimeToFirstOutput.add(added);
}
