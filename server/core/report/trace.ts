// `analyze --format trace` / Export Session as a Chrome trace (Trace Event Format, JSON
// Object Format) that Perfetto and chrome://tracing open.
//
// Layout: one process per stage (per stage and replica when a stage ran on several), named
// with `M` metadata events; a first process "requests (E2E)" holds each request's E2E time.
// Stages overlap under async chunk, so a request's time on a stage is an async slice
// (`b`/`e`), never a B/E duration event: each request-stage has its own id, a top slice
// named after the stage, and its phases as child slices. Perfetto names an async track
// after the first slice on it and merges same-named tracks of a process into one, so the
// constant top-slice name is what makes "one track per stage".
//
// Honesty rules: a phase that is not measured (None), hidden (row absent) or not recorded
// has no slice; a slice whose position or duration follows a rule instead of a measurement
// says `provenance: "reconstructed"` and names the rule (rules spelled out in `metadata`);
// each request's wall-clock placement rule is on its top slices and in `metadata`.
//
// A log that merges several servers' (AnalyzedRequest.server) has these processes per server,
// named after it (`pod/vllm-0/vllm: stage 0`), and each server's E2E slices on a track of the
// first process named after it (`pod/vllm-0/vllm: e2e`): the servers' requests never share a track.
//
// Transfers: one process per edge (`transfer 0->1`); a request's transfer is a top slice with
// its measured parts as children (send, in flight, receive decode: TransferEdgeStats, or the
// [OmniTiming] send time alone). The log gives no start time for a transfer, so it is placed
// after its upstream stage as drawn, always `reconstructed`; an edge without a measured part
// (a `0.00ms` send that is not recorded, hidden rows) has no slice.
//
// Output is produced as chunks of UTF-8 bytes (a generator), never as one string: a 100k
// request session is a few million events.
import { timelineOf } from '../analysis/timeline';
import { endToEndOf } from '../analysis/endToEnd';
import type { AnalyzedRequest, RequestStage, RequestTransfer, TimelineSegment } from '../analysis/types';
import { numberOf } from '../values';
import { stageLabel } from '../stageRoles';
import { ByteChunks } from './byteChunks';
import { TraceEventWriter, argKey, constantArg, type ConstantArg } from './traceEvents';
import {
  E2E_SLICE_NAME,
  PHASE_SLICE_NAME,
  PHASE_SPLIT,
  TRANSFER_PARTS,
  TRANSFER_RULE_AFTER,
  TRANSFER_RULE_ARRIVAL,
  traceMetadata,
  type Phase,
} from './traceMetadata';
import type { PlacementRule, TraceRequests } from './tracePlacement';
import { placeRequests } from './tracePlacement';

export type { TraceRequests } from './tracePlacement';
export { E2E_SLICE_NAME, PHASE_SLICE_NAME, TRACE_CATEGORY } from './traceMetadata';

export interface TraceOptions {
  /** Where the data came from (file, session description), written into `metadata`. */
  readonly source?: string;
  /** ms since epoch at which request i was completed in a live capture; a clock when the log has no timestamps. */
  readonly captureTimesMs?: readonly number[];
  /** Yield a chunk once this many bytes are written (default 4 MiB). */
  readonly chunkBytes?: number;
  /** Stage id -> role ("1" -> "code2wav", server/core/stageRoles.ts): tracks are named "stage 1 · code2wav". */
  readonly stageRoles?: Readonly<Record<string, string>>;
}

export interface TraceSummary {
  readonly requests: number;
  readonly events: number;
  readonly slices: number;
  readonly tracks: number;
}

const PHASE_NAME_JSON = Object.fromEntries(
  Object.entries(PHASE_SLICE_NAME).map(([k, v]) => [k, JSON.stringify(v)]),
) as Record<Phase, string>;
const E2E_NAME = JSON.stringify(E2E_SLICE_NAME);

const KNOWN_RULES: ReadonlyArray<readonly [RegExp, string]> = [
  [/^anchored/, 'anchored'],
  [/alongside the upstream/, 'alongside-upstream'],
  [/after the upstream/, 'after-upstream'],
  [/request arrival/, 'async-start'],
];

/** Short, stable keys for the timeline's placement rules (full texts go into `metadata.rules`). */
class RuleKeys {
  private readonly keys = new Map<string, string>();
  readonly texts: Record<string, string> = {};

  keyOf(text: string): string {
    let key = this.keys.get(text);
    if (key === undefined) {
      key = KNOWN_RULES.find(([re]) => re.test(text))?.[1] ?? `rule-${this.keys.size + 1}`;
      if (this.texts[key] !== undefined && this.texts[key] !== text) key = `${key}-${this.keys.size + 1}`;
      this.keys.set(text, key);
      this.texts[key] = text;
    }
    return key;
  }
}

interface Track {
  readonly pid: number;
  /** The server of a merged log whose requests the process holds; undefined in a log of one server. */
  readonly server?: string;
  readonly stageKey: string;
  readonly stageId: number | null;
  readonly segment: number;
  /** null: the log printed `None` (no replica id), a track of its own, never replica 0. */
  readonly replicaId: number | null;
  /** JSON name of its requests' top slices: one name per process, so Perfetto shows one track. */
  readonly topName: string;
  /** Set on the track of a transfer edge (after every stage track). */
  readonly edge?: { readonly name: string; readonly toStage: number | null };
}

const REQUESTS_PID = 1;

/**
 * One process per stage and replica, numbered as first seen (one pass over the requests);
 * named and ordered at the end, when it is known which stages ran on several replicas.
 */
class Tracks {
  private readonly byKey = new Map<string, Track>();

  constructor(private readonly roles: Readonly<Record<string, string>>) {}

  get size(): number {
    return this.byKey.size;
  }

  of(stage: RequestStage, server: string | undefined): Track {
    const key =
      server === undefined
        ? `${stage.stageKey}/${stage.replicaId}`
        : `${server}\u0000${stage.stageKey}/${stage.replicaId}`;
    let track = this.byKey.get(key);
    if (track === undefined) {
      const { stageKey, stageId, segment, replicaId } = stage;
      this.byKey.set(
        key,
        (track = {
          pid: REQUESTS_PID + 1 + this.byKey.size,
          ...(server === undefined ? {} : { server }),
          stageKey,
          stageId,
          segment,
          replicaId,
          topName: JSON.stringify(stageLabel(stageKey, this.roles)),
        }),
      );
    }
    return track;
  }

  /** The process of a transfer edge. */
  ofEdge(transfer: RequestTransfer, server: string | undefined): Track {
    const key = `\u0000${server ?? ''}\u0000${transfer.edge}`;
    let track = this.byKey.get(key);
    if (track === undefined) {
      const name = `transfer ${transfer.edge}`;
      track = {
        pid: REQUESTS_PID + 1 + this.byKey.size,
        ...(server === undefined ? {} : { server }),
        stageKey: '',
        stageId: transfer.fromStage,
        segment: 1,
        replicaId: 0,
        topName: JSON.stringify(name),
        edge: { name, toStage: transfer.toStage },
      };
      this.byKey.set(key, track);
    }
    return track;
  }

  /** The M events naming and ordering the processes (per server: stage order, then replica; then the edges). */
  metadata(): string {
    const tracks = [...this.byKey.values()];
    const replicas = new Map<string, number>();
    const replicaKey = (t: Track): string => `${t.server ?? ''}\u0000${t.stageKey}`;
    for (const t of tracks)
      if (t.edge === undefined) replicas.set(replicaKey(t), (replicas.get(replicaKey(t)) ?? 0) + 1);
    const byId = (x: number | null): number => x ?? Number.MAX_SAFE_INTEGER;
    const isEdge = (t: Track): number => (t.edge === undefined ? 0 : 1);
    const serverOf = (t: Track): string => (t.server === undefined ? '' : `\u0001${t.server}`);
    tracks.sort(
      (a, b) =>
        (serverOf(a) < serverOf(b) ? -1 : serverOf(a) > serverOf(b) ? 1 : 0) ||
        isEdge(a) - isEdge(b) ||
        byId(a.stageId) - byId(b.stageId) ||
        byId(a.edge?.toStage ?? null) - byId(b.edge?.toStage ?? null) ||
        a.segment - b.segment ||
        a.stageKey.localeCompare(b.stageKey) ||
        (a.edge?.name ?? '').localeCompare(b.edge?.name ?? '') ||
        byId(a.replicaId) - byId(b.replicaId),
    );
    const named = (t: Track): string => {
      if (t.edge !== undefined) return t.edge.name;
      const stage = stageLabel(t.stageKey, this.roles);
      if ((replicas.get(replicaKey(t)) ?? 0) <= 1) return stage;
      return t.replicaId === null ? `${stage} · no replica id` : `${stage} · replica ${t.replicaId}`;
    };
    const nameOf = (t: Track): string => (t.server === undefined ? named(t) : `${t.server}: ${named(t)}`);
    return tracks.map((t, i) => metadataEvents({ pid: t.pid, sortIndex: i + 1, name: nameOf(t) })).join('');
  }
}

const str = JSON.stringify;

function metadataEvents(track: { readonly pid: number; readonly name: string; readonly sortIndex: number }): string {
  const head = `,\n{"ph":"M","ts":0,"pid":${track.pid},"tid":${track.pid},"name":`;
  return (
    `${head}"process_name","args":{"name":${str(track.name)}}}` +
    `${head}"process_sort_index","args":{"sort_index":${track.sortIndex}}}` +
    `${head}"thread_name","args":{"name":${str(track.name)}}}` +
    `${head}"thread_sort_index","args":{"sort_index":${track.sortIndex}}}`
  );
}

/** A `nan` or `inf` cell is a number but has no place on a time axis (and JSON has no NaN). */
function drawable(s: TimelineSegment): boolean {
  return Number.isFinite(s.startMs) && Number.isFinite(s.endMs) && s.endMs >= s.startMs;
}

function genTimeOf(stage: RequestStage): { ms: number; field: string } | null {
  const gen = numberOf(stage.fields, 'stage_gen_time_ms');
  if (gen !== undefined) return { ms: gen, field: 'stage_gen_time_ms' };
  const omni = numberOf(stage.fields, 'omni_timing_stage_s');
  return omni === undefined ? null : { ms: omni * 1000, field: 'omni_timing_stage_s' };
}

// Args, encoded once.
const REQUEST = argKey('request');
const MS = argKey('ms');
const BOOT = argKey('boot');
const REPLICA = argKey('replica');
const GEN_MS = argKey('genTimeMs');
const GEN_FIELD = argKey('genTimeField');
const RULE = argKey('rule');
const RULE_TEXT = argKey('ruleText');
const EDGE = argKey('edge');
const SIZE = argKey('sizeKbytes');
const SOURCE = argKey('source');
const COLD = constantArg('cold', 'true');
const MEASURED = constantArg('provenance', '"measured"');
/** Where an e2e slice's time comes from when no E2E table printed it. */
const E2E_FROM = {
  omniTiming: constantArg('field', '"[OmniTiming] total="'),
  legacyDict: constantArg('field', '"e2e_time_ms"'),
} as const;
const RECONSTRUCTED = constantArg('provenance', '"reconstructed"');
const INFERRED = constantArg('state', '"inferred"');
const DIFFUSION = constantArg('kind', '"diffusion"');
const SPAN_GEN = constantArg('span', '"gen-time"');
const SPAN_PHASES = constantArg('span', '"phases"');
const PLACEMENT: Readonly<Record<PlacementRule, ConstantArg>> = {
  'log-timestamp': constantArg('placement', '"log-timestamp"'),
  'capture-time': constantArg('placement', '"capture-time"'),
  sequential: constantArg('placement', '"sequential"'),
};

/** The slices of one request after another, as the header comment lays them out; counts what it wrote. */
class RequestSlices {
  readonly tracks: Tracks;
  readonly rules = new RuleKeys();
  events = 0;
  slices = 0;
  private nextId = 1;
  private request: AnalyzedRequest | null = null;
  private arrival = 0;
  private placed: PlacementRule = 'sequential';
  /** The E2E slice name of each server of a merged log (JSON). */
  private readonly e2eNames = new Map<string, string>();

  constructor(
    private readonly w: TraceEventWriter,
    roles: Readonly<Record<string, string>>,
  ) {
    this.tracks = new Tracks(roles);
  }

  /** All slices of `request`, placed at `arrival` (microseconds) by `placed`. */
  write(request: AnalyzedRequest, arrival: number, placed: PlacementRule): void {
    this.request = request;
    this.arrival = arrival;
    this.placed = placed;
    this.e2e(request);
    const stageEnds = this.stages(request);
    for (const transfer of request.transfers) this.transfer(transfer, stageEnds);
  }

  private e2eNameOf(server: string): string {
    let name = this.e2eNames.get(server);
    if (name === undefined) this.e2eNames.set(server, (name = JSON.stringify(`${server}: ${E2E_SLICE_NAME}`)));
    return name;
  }

  /** The args every top slice of a request starts with. */
  private requestArgs(): void {
    const request = this.request as AnalyzedRequest;
    this.w.string(REQUEST, request.requestId);
    if (request.cold) this.w.constant(COLD);
    this.w.constant(PLACEMENT[this.placed]);
  }

  /** The request's E2E time on the first process (a merged log's server's on a track named after it). */
  private e2e(request: AnalyzedRequest): void {
    const end = endToEndOf(request);
    if (end === null) return;
    const e2e = end.ms;
    const w = this.w;
    const id = this.nextId++;
    const name = request.server === undefined ? E2E_NAME : this.e2eNameOf(request.server);
    w.begin(this.arrival, REQUESTS_PID, name, id);
    this.requestArgs();
    w.number(MS, e2e);
    if (end.from !== 'e2eTable') w.constant(E2E_FROM[end.from]);
    w.constant(MEASURED);
    w.endArgs();
    w.end(this.arrival + e2e * 1000, REQUESTS_PID, name, id);
    this.events += 2;
    this.slices += 1;
  }

  /** A slice per stage the request ran on, its phases as children; where each stage id ends as drawn (transfers start there). */
  private stages(request: AnalyzedRequest): Map<number, number> | null {
    // The timeline lists each stage's segments together, stages in order.
    const segments = timelineOf(request);
    const stageEnds = request.transfers.length === 0 ? null : new Map<number, number>();
    for (let from = 0; from < segments.length;) {
      const stageKey = (segments[from] as TimelineSegment).stageKey;
      let to = from + 1;
      while (to < segments.length && (segments[to] as TimelineSegment).stageKey === stageKey) to++;
      let stage: RequestStage | undefined;
      for (const s of request.stages) if (s.stageKey === stageKey) stage = s;
      if (stage !== undefined) this.stage(stage, segments, from, to, stageEnds);
      from = to;
    }
    return stageEnds;
  }

  /** The top slice of `stage` over segments[begin, stop), then its phases. */
  private stage(
    stage: RequestStage,
    segments: readonly TimelineSegment[],
    begin: number,
    stop: number,
    stageEnds: Map<number, number> | null,
  ): void {
    const w = this.w;
    const first = segments[begin] as TimelineSegment;
    // The process is numbered when first seen, drawable or not (as the trace has always numbered them).
    const track = this.tracks.of(stage, this.request?.server);
    let start = Number.POSITIVE_INFINITY;
    let end = Number.NEGATIVE_INFINITY;
    let measuredPosition = true;
    let genSeg: TimelineSegment | undefined;
    for (let k = begin; k < stop; k++) {
      const s = segments[k] as TimelineSegment;
      if (!drawable(s)) continue;
      start = Math.min(start, s.startMs);
      end = Math.max(end, s.endMs);
      if (s.provenance !== 'measured') measuredPosition = false;
      if (s.phase === 'stage') genSeg = s;
    }
    if (start > end) return;
    if (stageEnds !== null && stage.stageId !== null)
      stageEnds.set(stage.stageId, Math.max(stageEnds.get(stage.stageId) ?? end, end));
    const gen = genTimeOf(stage);
    const id = this.nextId++;
    w.begin(this.arrival + start * 1000, track.pid, track.topName, id);
    this.requestArgs();
    w.number(BOOT, (this.request as AnalyzedRequest).boot);
    // No replica id (`None`) is no arg, never replica 0.
    if (stage.replicaId !== null) w.number(REPLICA, stage.replicaId);
    if (stage.kind === 'diffusion') w.constant(DIFFUSION);
    // What the top slice spans: exactly the server-timed stage (submit -> finished) when the
    // phases fit inside it, else the phases as far as they reach.
    w.constant(genSeg !== undefined && genSeg.startMs === start && genSeg.endMs === end ? SPAN_GEN : SPAN_PHASES);
    if (gen !== null && Number.isFinite(gen.ms)) {
      w.number(GEN_MS, gen.ms);
      if (gen.field !== 'stage_gen_time_ms') w.word(GEN_FIELD, gen.field);
    }
    w.constant(measuredPosition ? MEASURED : RECONSTRUCTED);
    w.word(RULE, this.rules.keyOf(first.rule));
    // The rule's full text rides along on reconstructed stages; `metadata.rules` has them all.
    if (!measuredPosition) w.string(RULE_TEXT, first.rule);
    w.endArgs();
    this.events += 1;
    this.slices += 1;
    for (let k = begin; k < stop; k++) this.phase(stage, segments[k] as TimelineSegment, track, id);
    w.end(this.arrival + end * 1000, track.pid, track.topName, id);
    this.events += 1;
  }

  /** A phase of a stage: only numbers become slices, measured or inferred by a documented rule (marked). */
  private phase(stage: RequestStage, seg: TimelineSegment, track: Track, id: number): void {
    if (seg.phase === 'stage' || !drawable(seg)) return;
    const split = PHASE_SPLIT[seg.phase];
    const state = stage.split.states[split];
    const value = stage.split.values[split];
    if (value === null || (state !== 'measured' && state !== 'inferred')) return;
    const w = this.w;
    const name = PHASE_NAME_JSON[seg.phase];
    w.begin(this.arrival + seg.startMs * 1000, track.pid, name, id);
    w.number(MS, value);
    // Measured phases are anchored by definition (metadata.provenance); others name their rule.
    if (seg.provenance === 'measured' && state === 'measured') w.constant(MEASURED);
    else {
      w.constant(RECONSTRUCTED);
      w.word(RULE, this.rules.keyOf(seg.rule));
      if (state === 'inferred') w.constant(INFERRED);
    }
    w.endArgs();
    w.end(this.arrival + seg.endMs * 1000, track.pid, name, id);
    this.events += 2;
    this.slices += 1;
  }

  /** A transfer on its edge's process, after its upstream stage as drawn, its measured parts as children. */
  private transfer(transfer: RequestTransfer, stageEnds: Map<number, number> | null): void {
    const parts = transferParts(transfer);
    if (parts.length === 0) return;
    const w = this.w;
    const upstreamEnd = transfer.fromStage === null ? undefined : stageEnds?.get(transfer.fromStage);
    const ruleText = upstreamEnd === undefined ? TRANSFER_RULE_ARRIVAL : TRANSFER_RULE_AFTER;
    const rule = this.rules.keyOf(ruleText);
    const start = upstreamEnd ?? 0;
    let length = 0;
    for (const p of parts) length += p.ms;
    const track = this.tracks.ofEdge(transfer, this.request?.server);
    const id = this.nextId++;
    w.begin(this.arrival + start * 1000, track.pid, track.topName, id);
    this.requestArgs();
    w.string(EDGE, transfer.edge);
    w.number(MS, length);
    const size = numberOf(transfer.fields, 'size_kbytes');
    if (size !== undefined && Number.isFinite(size)) w.number(SIZE, size);
    w.constant(RECONSTRUCTED);
    w.word(RULE, rule);
    w.string(RULE_TEXT, ruleText);
    w.endArgs();
    this.events += 1;
    this.slices += 1;
    let t = start;
    for (const p of parts) {
      const name = str(p.name);
      w.begin(this.arrival + t * 1000, track.pid, name, id);
      w.number(MS, p.ms);
      w.string(SOURCE, p.source);
      w.constant(RECONSTRUCTED);
      w.word(RULE, rule);
      w.endArgs();
      t += p.ms;
      w.end(this.arrival + t * 1000, track.pid, name, id);
      this.events += 2;
      this.slices += 1;
    }
    w.end(this.arrival + (start + length) * 1000, track.pid, track.topName, id);
    this.events += 1;
  }
}

/**
 * The trace as chunks of UTF-8 JSON; concatenated they are one JSON document. The summary
 * (event counts) is the generator's return value.
 */
export function* traceChunks(
  requests: TraceRequests,
  options: TraceOptions = {},
): Generator<Uint8Array, TraceSummary, undefined> {
  const chunkBytes = options.chunkBytes ?? 4 << 20;
  const placement = placeRequests(requests, options.captureTimesMs);
  const placementCounts: Partial<Record<PlacementRule, number>> = {};
  // Headroom so that one request's events never spill far past the chunk size.
  const w = new ByteChunks(chunkBytes + (64 << 10));
  const slices = new RequestSlices(new TraceEventWriter(w), options.stageRoles ?? {});
  // Every event is written with a leading separator; the first one drops it.
  w.text('{"traceEvents":[' + metadataEvents({ pid: REQUESTS_PID, name: 'requests (E2E)', sortIndex: 0 }).slice(1));

  // One pass: each request is materialized once (a packed store builds it on demand).
  let i = -1;
  for (const request of requests) {
    i += 1;
    if (i >= placement.arrivalUs.length) break;
    const placed = placement.rule[i] as PlacementRule;
    placementCounts[placed] = (placementCounts[placed] ?? 0) + 1;
    slices.write(request, placement.arrivalUs[i] as number, placed);
    if (w.length >= chunkBytes) yield w.take();
  }

  const { tracks, rules } = slices;
  w.text(tracks.metadata());
  w.text('\n],\n"displayTimeUnit":"ms",\n"metadata":');
  w.text(
    JSON.stringify(
      traceMetadata({
        source: options.source ?? null,
        requests: placement.arrivalUs.length,
        slices: slices.slices,
        placement,
        placementCounts,
        rules: rules.texts,
      }),
    ),
  );
  w.text('}\n');
  yield w.take();
  return {
    requests: placement.arrivalUs.length,
    events: 4 + slices.events + tracks.size * 4,
    slices: slices.slices,
    tracks: tracks.size + 1,
  };
}

/**
 * The measured parts of a transfer, in the order they happen: the TransferEdgeStats column's
 * send, in-flight and decode times; without a column, [OmniTiming]'s send time when it is
 * measured (a notRecorded 0.00 is no transfer). Hidden, None and non-finite parts are left out.
 */
function transferParts(
  t: RequestTransfer,
): Array<{ readonly name: string; readonly ms: number; readonly source: string }> {
  const out: Array<{ name: string; ms: number; source: string }> = [];
  if (t.tablePrinted) {
    for (const p of TRANSFER_PARTS) {
      const ms = numberOf(t.fields, p.field);
      if (ms !== undefined && Number.isFinite(ms) && ms >= 0)
        out.push({ name: p.name, ms, source: 'TransferEdgeStats' });
    }
  } else if (
    t.omniTimingTxState === 'measured' &&
    t.omniTimingTxMs !== null &&
    Number.isFinite(t.omniTimingTxMs) &&
    t.omniTimingTxMs >= 0
  ) {
    out.push({ name: (TRANSFER_PARTS[0] as { name: string }).name, ms: t.omniTimingTxMs, source: '[OmniTiming]' });
  }
  return out;
}

/** The whole trace as one string: for tests and small inputs only. */
export function traceText(requests: TraceRequests, options: TraceOptions = {}): string {
  const decoder = new TextDecoder();
  let out = '';
  for (const chunk of traceChunks(requests, options)) out += decoder.decode(chunk, { stream: true });
  return out + decoder.decode();
}
