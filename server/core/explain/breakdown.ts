// The additive breakdown of one request's end-to-end time (docs/breakdown.md):
//   total = preprocess + Σ stages (input wait + ready queued | queued, prefill, decode, the
//           rest of the stage's generation time) + Σ hand-offs (postprocess, tx, in flight,
//           rx decode) + final output − overlap + residual
// Every part keeps its state: a value that was not measured is null, never 0. Parts are
// placed on the request's clock where the log allows (stages by stagePlacement.ts), so
// time during which two stages ran at once (async chunk) is counted once: it is the
// overlap. What no part explains is the residual; it is never forced to 0.
import { OMNI_TIMING_SECONDS, preprocessOf } from '../analysis/preprocess';
import { mapPacked } from '../arrays';
import type { AnalyzedRequest, PhaseSplit, SplitName, SplitState } from '../analysis/types';
import { prefillCoversDecode, reportedSplit, PREFILL_DECODE_LABEL } from '../analysis/oneOutputStage';
import { genTimeOf, placeStages, type StagePlacement } from '../analysis/stagePlacement';
import { e2eNotRecorded, e2eTableMs, endToEndOf } from '../analysis/endToEnd';
import { unrecordedReason } from '../analysis/unrecordedValues';
import { numberOf, stateOf, type FieldMap } from '../values';
import type { BreakdownPart, PartPhase, PartState, RequestBreakdown, TransferComponent } from './types';

const GEN_OTHER_RULE =
  'stage_gen_time_ms minus the stage phases that are numbers (submit -> QUEUED and output handling after the last token; any phase not measured is in here too)';
const PRINT_SLACK_MS = 0.01;
const FINAL_OUTPUT_RULE =
  'e2e total minus the end of the last stage (anchored on its measured first output): output handling after the last stage finished';

/** Pairs kept per level: hostile logs can name any number of stages and edges; the cache stays a cache. */
const MAX_INTERNED = 4096;

// A part's key is `<stageKey>/<phase>`, `<from>-><to>/<component>` or its phase. A deployment
// has a few dozen part keys and a handful of edges, and every request names each of them: one
// value per (owner, name) pair, looked up rather than built per request,
// so the index's maps hash it once.
function interned<A, B, V>(cache: Map<A, Map<B, V>>, owner: A, name: B, make: (owner: A, name: B) => V): V {
  let byName = cache.get(owner);
  if (byName === undefined) {
    if (cache.size >= MAX_INTERNED) cache.clear();
    cache.set(owner, (byName = new Map<B, V>()));
  }
  let value = byName.get(name);
  if (value === undefined) {
    if (byName.size >= MAX_INTERNED) byName.clear();
    byName.set(name, (value = make(owner, name)));
  }
  return value;
}

const partKeys = new Map<string, Map<string, string>>();
const keyText = (owner: string, name: string): string => `${owner}/${name}`;
const internedKey = (owner: string, name: string): string => interned(partKeys, owner, name, keyText);

// Every part is made here, with the same fields in the same order: its readers (the JSON
// writers, the explain index) see one object layout, and no intermediate object is made.
function makePart(
  key: string,
  stageKey: string | null,
  stageId: number | null,
  phase: PartPhase,
  edge: string | null,
  component: TransferComponent | null,
  ms: number | null,
  state: PartState,
  note: string | null,
  startMs: number | null,
  endMs: number | null,
  placement: 'measured' | 'reconstructed' | null,
  placementRule: string | null,
  withUnmeasuredPhases = false,
): BreakdownPart {
  return {
    key,
    stageKey,
    stageId,
    phase,
    edge,
    component,
    ms,
    state,
    note,
    startMs,
    endMs,
    placement,
    placementRule,
    withUnmeasuredPhases,
  };
}

/** A phase of a stage. */
function stagePart(
  stage: { readonly stageKey: string; readonly stageId: number | null },
  phase: PartPhase,
  ms: number | null,
  state: PartState,
  note: string | null,
  startMs: number | null,
  endMs: number | null,
  placement: 'measured' | 'reconstructed' | null,
  placementRule: string | null,
  withUnmeasuredPhases = false,
): BreakdownPart {
  const { stageKey, stageId } = stage;
  const key = internedKey(stageKey, phase);
  return makePart(
    key,
    stageKey,
    stageId,
    phase,
    null,
    null,
    ms,
    state,
    note,
    startMs,
    endMs,
    placement,
    placementRule,
    withUnmeasuredPhases,
  );
}

/** A component of a hand-off between two stages (no place on the clock). */
function transferPart(
  edge: string,
  component: TransferComponent,
  ms: number | null,
  state: PartState,
  note: string | null,
): BreakdownPart {
  const key = internedKey(edge, component);
  return makePart(key, null, null, 'transfer', edge, component, ms, state, note, null, null, null, null);
}

/** Preprocess or final output: the request's own parts (placed: measured). */
function requestPart(
  phase: 'preprocess' | 'finalOutput',
  ms: number | null,
  state: PartState,
  note: string | null,
  startMs: number | null,
  endMs: number | null,
): BreakdownPart {
  const placement = startMs === null ? null : 'measured';
  return makePart(phase, null, null, phase, null, null, ms, state, note, startMs, endMs, placement, null);
}

/** A phase's state as a part: without a stage table nothing of the split was printed at all. */
function splitPartState(state: SplitState, hasStageTable: boolean): PartState {
  return hasStageTable ? state : 'notMeasured';
}

/** A field's state as a part when it is not a number (absent row: hidden when the table was printed). */
function fieldState(fields: FieldMap | null, name: string, tablePrinted: boolean): PartState {
  if (fields === null) return 'notMeasured';
  return stateOf(fields, name) === 'hidden' && tablePrinted ? 'hidden' : 'notMeasured';
}

/** The stage's phases, in clock order from its start, pushed onto `out`. */
function pushStagePhases(out: BreakdownPart[], request: AnalyzedRequest, placed: StagePlacement): void {
  const { stage, startMs, anchored, rule } = placed;
  const placement = anchored ? 'measured' : 'reconstructed';
  const placementRule = anchored ? null : rule;
  // A one-output stage's decode is inside its prefill figure: not a measured 0 ms part.
  const oneOutput = prefillCoversDecode(request, stage);
  const split = reportedSplit(stage, oneOutput);
  const { values } = split;
  const phases = new PhaseClock(out, request, placed.stage, split, oneOutput, startMs, placement, placementRule);
  if (values.inputWaitMs !== null && values.readyQueuedMs !== null) {
    phases.push('inputWait', 'inputWaitMs');
    phases.push('readyQueued', 'readyQueuedMs');
  } else {
    phases.push('queued', 'queuedMs');
  }
  phases.push('prefill', 'prefillMs');
  phases.push('decode', 'decodeMs');

  // Its prefill or decode not a number (a one-output decode is in its prefill): the rest holds them.
  const unsplit = values.prefillMs === null || (values.decodeMs === null && !oneOutput);
  const gen = genTimeOf(stage);
  if (!Number.isFinite(gen)) {
    const printed = stateOf(stage.fields, 'stage_gen_time_ms');
    // A number printed that is not a time (negative, nan, inf: unrecordedValues.ts) is not recorded.
    const state: PartState =
      printed === 'measured' ? 'notRecorded' : request.hasStageTable && printed === 'hidden' ? 'hidden' : 'notMeasured';
    out.push(
      stagePart(
        stage,
        'genOther',
        null,
        state,
        state === 'notRecorded' ? NOT_A_TIME_PART : null,
        null,
        null,
        null,
        null,
        unsplit,
      ),
    );
    return;
  }
  const fromTiming = numberOf(stage.fields, 'stage_gen_time_ms') === undefined;
  const ms = gen - phases.sum;
  const end = startMs + gen;
  const placedHere = end >= phases.t;
  out.push(
    stagePart(
      stage,
      'genOther',
      ms,
      phases.any ? 'reconstructed' : 'measured',
      phases.any
        ? GEN_OTHER_RULE
        : fromTiming
          ? `stage time ${OMNI_TIMING_SECONDS}`
          : 'stage_gen_time_ms: no phase split measured',
      placedHere ? phases.t : null,
      placedHere ? end : null,
      placedHere ? placement : null,
      placedHere ? placementRule : null,
      unsplit,
    ),
  );
}

/** A stage's phases placed one after another from its start; what they add up to. */
class PhaseClock {
  /** Where the next phase starts. */
  t: number;
  /** Sum of the phases that are numbers. */
  sum = 0;
  /** Whether any phase was a number. */
  any = false;

  constructor(
    private readonly out: BreakdownPart[],
    private readonly request: AnalyzedRequest,
    private readonly stage: StagePlacement['stage'],
    /** The split as reported (reportedSplit): a one-output stage's decode is not a number. */
    private readonly split: PhaseSplit,
    /** The stage emits one output (oneOutputStage.ts): its decode is inside its prefill figure. */
    private readonly oneOutput: boolean,
    startMs: number,
    private readonly placement: 'measured' | 'reconstructed',
    private readonly placementRule: string | null,
  ) {
    this.t = startMs;
  }

  push(phase: PartPhase, name: SplitName): void {
    const { stage, split } = this;
    const ms = split.values[name];
    const state = splitPartState(split.states[name], this.request.hasStageTable);
    if (ms === null) {
      const note = this.oneOutput && name === 'decodeMs' ? `in the ${PREFILL_DECODE_LABEL} figure` : null;
      this.out.push(stagePart(stage, phase, null, state, note, null, null, null, null));
      return;
    }
    this.sum += ms;
    this.any = true;
    // A negative interval (a finding of its own) has no place; its value still counts.
    const placedHere = ms >= 0;
    const t = this.t;
    this.out.push(
      stagePart(
        stage,
        phase,
        ms,
        state,
        null,
        placedHere ? t : null,
        placedHere ? t + ms : null,
        placedHere ? this.placement : null,
        placedHere ? this.placementRule : null,
      ),
    );
    if (placedHere) this.t = t + ms;
  }
}

interface Edge {
  readonly from: number;
  readonly to: number;
  /** `from->to` */
  readonly name: string;
}

const edgeNames = new Map<number, Map<number, string>>();
const edgeText = (from: number, to: number): string => `${from}->${to}`;
/** `from->to`, one string per edge. */
const edgeName = (from: number, to: number): string => interned(edgeNames, from, to, edgeText);

/** One Edge per hand-off. */
const edges = new Map<number, Map<number, Edge>>();
const makeEdge = (from: number, to: number): Edge => Object.freeze({ from, to, name: edgeName(from, to) });
const edgeOf = (from: number, to: number): Edge => interned(edges, from, to, makeEdge);

/**
 * Every hand-off the request shows: its transfer tables, its [OmniTiming] transfers, and
 * consecutive stages; by source, then destination. A request has a few: they are kept in a
 * small array, sorted by insertion.
 */
function edgesOf(request: AnalyzedRequest): Edge[] {
  const out: Edge[] = [];
  const add = (from: number | null, to: number | null): void => {
    if (from === null || to === null) return;
    let at = out.length;
    for (let i = 0; i < out.length; i++) {
      const e = out[i] as Edge;
      if (e.from === from && e.to === to) return;
      if (at === out.length && (e.from > from || (e.from === from && e.to > to))) at = i;
    }
    out.splice(at, 0, edgeOf(from, to));
  };
  for (const t of request.transfers) add(t.fromStage, t.toStage);
  const timing = request.timing;
  if (timing !== null) for (const t of timing.transfers) add(t.fromStage, t.toStage);
  let previous: number | null = null;
  for (const id of stageIdsAscending(request)) {
    add(previous, id);
    previous = id;
  }
  return out;
}

/** The request's distinct stage ids, ascending. */
function stageIdsAscending(request: AnalyzedRequest): number[] {
  const ids: number[] = [];
  for (const s of request.stages) if (s.stageId !== null && !ids.includes(s.stageId)) ids.push(s.stageId);
  return ids.length < 2 ? ids : ids.sort((a, b) => a - b);
}

const TX_FROM_TIMING = 'tx time printed by [OmniTiming] with 2 decimals';
const TX_NOT_RECORDED =
  '[OmniTiming] prints 0.00 ms and no tx_time_ms was measured: no payload transfer was recorded on this edge (async chunk streams the input through the connector), not a 0 ms hand-off';
const TRANSFER_COMPONENTS = ['tx', 'inFlight', 'rxDecode'] as const;
const TRANSFER_FIELD: Readonly<Record<(typeof TRANSFER_COMPONENTS)[number], string>> = {
  tx: 'tx_time_ms',
  inFlight: 'in_flight_time_ms',
  rxDecode: 'rx_decode_time_ms',
};

/** A part whose printed number is not a time (unrecordedValues.ts). */
const NOT_A_TIME_PART =
  'printed below zero (a clock or accounting bug in the server, finding negative-interval), nan or inf: not a time';

const postprocessNotes = new Map<number, Map<number, string>>();
const postprocessNoteText = (from: number, to: number): string =>
  `postprocess_time_ms of stage ${from}: building stage ${to}'s inputs`;

/** The hand-off's parts (postprocess, tx, in flight, rx decode), pushed onto `out`. */
function pushEdgeParts(out: BreakdownPart[], request: AnalyzedRequest, edge: Edge): void {
  const name = edge.name;
  const transfer = request.transfers.find((t) => t.fromStage === edge.from && t.toStage === edge.to);
  const table = transfer !== undefined && transfer.tablePrinted ? transfer.fields : null;
  // With tables printed (a stage table is there), a missing transfer column was hidden: every value 0 or unmeasured.
  const missing: PartState = request.hasStageTable ? 'hidden' : 'notMeasured';
  const upstream = request.stages.find((s) => s.stageId === edge.from && s.segment === 1)?.fields ?? null;
  const printedPost = upstream === null ? undefined : numberOf(upstream, 'postprocess_time_ms');
  const post =
    printedPost !== undefined && unrecordedReason('postprocess_time_ms', printedPost) !== null
      ? undefined
      : printedPost;
  out.push(
    printedPost !== undefined && post === undefined
      ? transferPart(name, 'postprocess', null, 'notRecorded', NOT_A_TIME_PART)
      : post === undefined
        ? transferPart(
            name,
            'postprocess',
            null,
            fieldState(upstream, 'postprocess_time_ms', request.hasStageTable),
            null,
          )
        : transferPart(
            name,
            'postprocess',
            post,
            'measured',
            interned(postprocessNotes, edge.from, edge.to, postprocessNoteText),
          ),
  );
  for (const component of TRANSFER_COMPONENTS) {
    if (table !== null) {
      const field = TRANSFER_FIELD[component];
      const ms = numberOf(table, field);
      out.push(
        ms === undefined
          ? transferPart(name, component, null, fieldState(table, field, true), null)
          : unrecordedReason(field, ms) !== null
            ? transferPart(name, component, null, 'notRecorded', NOT_A_TIME_PART)
            : transferPart(name, component, ms, 'measured', null),
      );
    } else if (component === 'tx' && transfer !== undefined && transfer.omniTimingTxState === 'measured') {
      out.push(transferPart(name, component, transfer.omniTimingTxMs, 'measured', TX_FROM_TIMING));
    } else if (component === 'tx' && transfer !== undefined && transfer.omniTimingTxState === 'notRecorded') {
      out.push(transferPart(name, component, null, 'notRecorded', TX_NOT_RECORDED));
    } else {
      out.push(transferPart(name, component, null, missing, null));
    }
  }
}

// Interval ends of one request's parts, reused from request to request.
let clippedStarts = new Float64Array(64);
let clippedEnds = new Float64Array(64);

/** Length of the union of the placed parts' intervals, and the sum of their lengths, within [0, limit]. */
function coverage(parts: readonly BreakdownPart[], limit: number | null): { sum: number; union: number } {
  if (clippedStarts.length < parts.length) {
    clippedStarts = new Float64Array(parts.length * 2);
    clippedEnds = new Float64Array(parts.length * 2);
  }
  const starts = clippedStarts;
  const ends = clippedEnds;
  let n = 0;
  let sum = 0;
  for (const p of parts) {
    if (p.startMs === null || p.endMs === null) continue;
    const s = Math.max(0, p.startMs);
    const e = limit === null ? p.endMs : Math.min(limit, p.endMs);
    if (!(e > s)) continue;
    sum += e - s;
    // Insertion by start: parts come nearly in clock order, so this rarely moves anything.
    let i = n - 1;
    for (; i >= 0 && starts[i] > s; i--) {
      starts[i + 1] = starts[i];
      ends[i + 1] = ends[i];
    }
    starts[i + 1] = s;
    ends[i + 1] = e;
    n++;
  }
  let union = 0;
  let curS = -Infinity;
  let curE = -Infinity;
  for (let k = 0; k < n; k++) {
    const s = starts[k];
    const e = ends[k];
    if (s > curE) {
      if (curE > curS) union += curE - curS;
      curS = s;
      curE = e;
    } else if (e > curE) curE = e;
  }
  if (curE > curS) union += curE - curS;
  return { sum, union };
}

export function breakdownOf(request: AnalyzedRequest): RequestBreakdown {
  const e2e = e2eTableMs(request.e2e['e2e_total_ms']);
  // An e2e_total_ms printed negative, nan or inf is not a time, and the [OmniTiming] total does not stand in for it.
  const timingTotal = e2eNotRecorded(request) ? null : (request.timing?.totalS ?? null);
  // A request of the format before February 2026 has its dict's e2e_time_ms (endToEnd.ts).
  const legacyTotal = request.legacyDict === true ? (endToEndOf(request)?.ms ?? null) : null;
  const totalMs = e2e ?? (timingTotal === null ? legacyTotal : timingTotal * 1000);
  const totalSource =
    e2e !== undefined
      ? 'e2e_total_ms'
      : timingTotal !== null
        ? 'omniTiming.total'
        : legacyTotal !== null
          ? 'e2e_time_ms'
          : null;
  const preprocess = preprocessOf(request);
  const preprocessMs = preprocess?.ms ?? null;

  const parts: BreakdownPart[] = [];
  parts.push(
    preprocessMs === null
      ? requestPart('preprocess', null, 'notMeasured', null, null, null)
      : requestPart('preprocess', preprocessMs, 'measured', preprocess?.note ?? null, 0, preprocessMs),
  );

  const placements = placeStages(request, preprocessMs ?? 0);
  // Each hand-off goes before the first stage at or after its destination; the rest at the end.
  const edges = edgesOf(request);
  const edgeDone = mapPacked(edges, () => false);
  for (const placed of placements) {
    const stageId = placed.stage.stageId;
    if (stageId !== null) {
      for (let i = 0; i < edges.length; i++) {
        const e = edges[i] as Edge;
        if (edgeDone[i] !== true && e.to <= stageId) {
          edgeDone[i] = true;
          pushEdgeParts(parts, request, e);
        }
      }
    }
    pushStagePhases(parts, request, placed);
  }
  for (let i = 0; i < edges.length; i++) if (edgeDone[i] !== true) pushEdgeParts(parts, request, edges[i] as Edge);

  const last: StagePlacement | undefined = placements[placements.length - 1];
  const finalOutputMs = last !== undefined && last.anchored && totalMs !== null ? totalMs - last.endMs : null;
  // Within the printing's 1 µs rounding of both ends, a stage ending "after" the request ended with it.
  if (finalOutputMs !== null && finalOutputMs >= -PRINT_SLACK_MS) {
    parts.push(
      requestPart(
        'finalOutput',
        Math.max(0, finalOutputMs),
        'reconstructed',
        FINAL_OUTPUT_RULE,
        Math.min((last as StagePlacement).endMs, totalMs as number),
        totalMs,
      ),
    );
  } else {
    const why =
      last === undefined
        ? null
        : last.anchored
          ? 'the last stage is placed ending after the request: its output handling is not separable'
          : 'the last stage has no measured anchor: its output handling is in the residual';
    parts.push(requestPart('finalOutput', null, 'notMeasured', why, null, null));
  }

  let allMeasured = true;
  let sum = 0;
  for (const p of parts) {
    if (p.ms !== null) sum += p.ms;
    if (p.startMs !== null && p.endMs !== null && p.placement !== 'measured') allMeasured = false;
  }
  const cover = coverage(parts, totalMs);
  const overlapMs = cover.sum - cover.union;
  return {
    totalMs,
    totalSource,
    parts,
    overlapMs,
    overlapPlacement: allMeasured ? 'measured' : 'reconstructed',
    residualMs: totalMs === null ? null : totalMs - sum + overlapMs,
    stageSpans: mapPacked(placements, (p) => ({
      stageKey: p.stage.stageKey,
      stageId: p.stage.stageId,
      startMs: p.startMs,
      endMs: p.endMs,
      placement: p.anchored ? 'measured' : 'reconstructed',
      placementRule: p.anchored ? null : p.rule,
      alongsideUpstream: p.alongsideUpstream,
    })),
  };
}

/** The stage a part belongs to, for stage-scoped targets: its own stage, or a transfer's destination. */
export function partStageId(p: Pick<BreakdownPart, 'stageId' | 'edge' | 'phase'>): number | null {
  if (p.phase === 'transfer' && p.edge !== null) return Number(p.edge.slice(p.edge.indexOf('>') + 1));
  return p.stageId;
}

const PHASE_ORDER: Readonly<Record<PartPhase, number>> = {
  preprocess: 0,
  inputWait: 1,
  readyQueued: 2,
  queued: 3,
  prefill: 4,
  decode: 5,
  genOther: 6,
  transfer: 7,
  finalOutput: 8,
};
const COMPONENT_ORDER: Readonly<Record<TransferComponent, number>> = {
  postprocess: 0,
  tx: 1,
  inFlight: 2,
  rxDecode: 3,
};

/** Position of a part in a request's time order: preprocess, then per stage its hand-offs in and its phases, then final output. */
export function comparePartMeta(
  a: Pick<BreakdownPart, 'stageKey' | 'stageId' | 'phase' | 'edge' | 'component'>,
  b: typeof a,
): number {
  const rank = (p: typeof a): [number, number] => {
    if (p.phase === 'preprocess') return [-1, 0];
    if (p.phase === 'finalOutput') return [1e9, 0];
    if (p.phase === 'transfer')
      return [
        (partStageId(p) ?? 0) - 0.5 + Number(p.edge?.split('->')[0] ?? 0) / 1e6,
        COMPONENT_ORDER[p.component ?? 'tx'],
      ];
    const segment = Number(p.stageKey?.split('_')[1] ?? '1');
    return [(p.stageId ?? 0) + segment / 1000, PHASE_ORDER[p.phase]];
  };
  const [a1, a2] = rank(a);
  const [b1, b2] = rank(b);
  return a1 - b1 || a2 - b2;
}
