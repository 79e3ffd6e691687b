// Where a session's analysed requests live: packed, not as objects. Each request keeps
// its id, a few scalars and a shared layout (requestLayout.ts); its cells are int32
// slots in one chunked arena (packedValues.ts). A request is materialized back into the
// AnalyzedRequest it was made from (equal in every field, the split and the cross-stage
// figures recomputed by the same functions) only when someone asks for it, so 100k
// requests take tens of MB instead of the hundreds their record objects would.
import type { LogHeader, OmniTimingRecord, RecordIdentity, TransferEdge } from '../records';
import { NOT_MEASURED, measured, type Cell, type FieldMap } from '../values';
import { measuredCell } from '../log/fieldMaps';
import { ChunkedInt32 } from './chunkedArrays';
import { addedTimeToFirstOutput } from './crossStage';
import { LayoutTable, type FieldLayout, type RequestLayout } from './requestLayout';
import { SlotCodec } from './packedValues';
import {
  afterLastRow,
  stageFromColumn,
  stagesFromColumns,
  stagesFromTiming,
  tableHasNativeStats,
} from './stageBuilder';
import { e2eTableMs, endToEndOf, omniTimingTotalMs } from './endToEnd';
import { requestTransfers, tableEdgesOf } from './transfers';
import type { AnalyzedRequest, RequestOverallSummary, RequestStage } from './types';

/** Read access to a list of analysed requests: an array, or a RequestStore. */
export interface RequestList extends Iterable<AnalyzedRequest> {
  readonly length: number;
  at(index: number): AnalyzedRequest | undefined;
}

const COLD = 1;
const COMPLETE = 2;
const HAS_STAGE_TABLE = 4;
const NATIVE_STATS = 8;
const STAGE_TABLE_CUT = 16;
/** AnalyzedRequest.repeat: 'first', 'again'. */
const REPEAT_FIRST = 32;
const REPEAT_AGAIN = 64;
/** bootFlags = boot * FLAG_SPAN + flags */
const FLAG_SPAN = 128;

/** The parts of a request that most requests do not have, kept out of PackedRequest. */
interface RareParts {
  /** The [OmniTiming] identity when it is not just `{request_id: <the request's id>}`. */
  readonly timingIdentity: RecordIdentity | null;
  readonly timingExtra: Readonly<Record<string, string>> | null;
  /** Text cells past the codec's table, by position in the request's run. */
  readonly asides: Map<number, Cell> | null;
  /** A request too big to pack, kept as it is. */
  readonly whole: AnalyzedRequest | null;
  /** The server that printed it, in a log that merges several servers'; null otherwise. */
  readonly server: string | null;
}

/** One stored request: scalars and references only; its cells are in the arena. */
class PackedRequest {
  constructor(
    readonly requestId: string,
    readonly layout: RequestLayout | null,
    readonly offset: number,
    readonly line: number,
    /** boot * FLAG_SPAN + (COLD | COMPLETE | HAS_STAGE_TABLE | NATIVE_STATS | STAGE_TABLE_CUT | REPEAT_*) */
    readonly bootFlags: number,
    readonly timestamp: string | null,
    readonly timingLine: number,
    readonly timingHeader: LogHeader | null,
    readonly rare: RareParts | null,
  ) {}
}

function rarePartsOf(request: AnalyzedRequest, asides: Map<number, Cell> | null): RareParts | null {
  const identity = request.timing?.identity ?? null;
  const plainIdentity =
    identity === null || (Object.keys(identity).length === 1 && identity['request_id'] === request.requestId);
  const extra = request.timing === null || Object.keys(request.timing.extra).length === 0 ? null : request.timing.extra;
  const server = request.server ?? null;
  if (plainIdentity && extra === null && asides === null && server === null) return null;
  return { timingIdentity: plainIdentity ? null : identity, timingExtra: extra, asides, whole: null, server };
}

export interface RequestStoreOptions {
  /** Keep each request's [Overall Summary] (default true; a few slots per request). */
  readonly keepOverallSummaries?: boolean;
}

export class RequestStore implements RequestList {
  private readonly entries: PackedRequest[] = [];
  private readonly arena = new ChunkedInt32();
  private readonly codec = new SlotCodec();
  private readonly layouts = new LayoutTable();
  private readonly textCells = new Map<string, Cell>();
  /** requestId -> position; ids are unique (the assembler numbers repeats). */
  private readonly positions = new Map<string, number>();
  private readonly keepOverall: boolean;

  constructor(options: RequestStoreOptions = {}) {
    this.keepOverall = options.keepOverallSummaries !== false;
  }

  get length(): number {
    return this.entries.length;
  }

  /** Bytes held outside the V8 heap (the arenas' typed-array backing stores). */
  get externalBytes(): number {
    return this.arena.externalBytes + this.codec.externalBytes;
  }

  add(request: AnalyzedRequest): void {
    this.positions.set(request.requestId, this.entries.length);
    // A request of the format before February 2026 is kept whole: its split is not measured, which
    // the packed stages would read back as hidden; such logs are small.
    // So is one whose stage table lost a line (rare): its unread rows are not in the packed form.
    if (request.legacyDict === true || request.stageTableUnreadRows !== undefined) {
      const flags = (request.cold ? COLD : 0) | (request.complete ? COMPLETE : 0);
      const kept = this.keepOverall ? request : { ...request, overallSummary: null };
      const rare: RareParts = { timingIdentity: null, timingExtra: null, asides: null, whole: kept, server: null };
      this.entries.push(
        new PackedRequest(
          request.requestId,
          null,
          0,
          request.line,
          request.boot * FLAG_SPAN + flags,
          request.timestamp,
          0,
          null,
          rare,
        ),
      );
      return;
    }
    const flags =
      (request.cold ? COLD : 0) |
      (request.complete ? COMPLETE : 0) |
      (request.hasStageTable ? HAS_STAGE_TABLE : 0) |
      (request.stageTableCut ? STAGE_TABLE_CUT : 0) |
      (request.repeat === 'first' ? REPEAT_FIRST : request.repeat === 'again' ? REPEAT_AGAIN : 0);
    const timing = request.timing;
    const fromTiming = !request.hasStageTable && timing !== null;
    const tableEdges = tableEdgesOf(request.transfers);
    const overall = this.keepOverall ? request.overallSummary : null;
    const layout = this.layouts.layoutOf({
      stages: fromTiming ? [] : request.stages,
      stagesFromTiming: fromTiming,
      e2e: request.e2e,
      transfers: tableEdges,
      timing,
      overall: overall?.fields ?? null,
    });
    const bootFlags =
      request.boot * FLAG_SPAN + flags + (!fromTiming && tableHasNativeStats(request.stages) ? NATIVE_STATS : 0);
    if (layout.slotCount > ChunkedInt32.MAX_RUN) {
      const kept = overall === request.overallSummary ? request : { ...request, overallSummary: overall };
      const rare: RareParts = { timingIdentity: null, timingExtra: null, asides: null, whole: kept, server: null };
      this.entries.push(
        new PackedRequest(request.requestId, null, 0, request.line, bootFlags, request.timestamp, 0, null, rare),
      );
      return;
    }
    const offset = this.arena.reserve(layout.slotCount);
    const writer = new SlotWriter(this.arena.chunkOf(offset), ChunkedInt32.offsetIn(offset), this.codec, offset);
    if (!fromTiming)
      request.stages.forEach((s, i) => writer.fields(s.fields, (layout.stages[i] as { fields: FieldLayout }).fields));
    writer.fields(request.e2e, layout.e2e);
    tableEdges.forEach((t, i) => writer.fields(t.fields, (layout.transfers[i] as { fields: FieldLayout }).fields));
    if (timing !== null) writer.timing(timing);
    if (overall !== null && layout.overall !== null) writer.overall(overall, layout.overall);
    this.entries.push(
      new PackedRequest(
        request.requestId,
        layout,
        offset,
        request.line,
        bootFlags,
        request.timestamp,
        timing?.line ?? 0,
        timing?.header ?? null,
        rarePartsOf(request, writer.asides),
      ),
    );
  }

  byId(requestId: string): AnalyzedRequest | undefined {
    const i = this.positions.get(requestId);
    return i === undefined ? undefined : this.at(i);
  }

  requestIdAt(index: number): string | undefined {
    return this.entries[index]?.requestId;
  }

  isColdAt(index: number): boolean {
    return ((this.entries[index]?.bootFlags ?? 0) & COLD) !== 0;
  }

  at(index: number): AnalyzedRequest | undefined {
    const entry = this.entries[index < 0 ? this.entries.length + index : index];
    if (entry === undefined) return undefined;
    const layout = entry.layout;
    if (layout === null) return entry.rare?.whole ?? undefined;
    const reader = new SlotReader(
      this.arena.chunkOf(entry.offset),
      ChunkedInt32.offsetIn(entry.offset),
      this.codec,
      entry.rare?.asides ?? null,
      entry.offset,
      this.textCells,
    );
    const columns = layout.stagesFromTiming
      ? []
      : layout.stages.map((s) => ({
          column: s.stageKey,
          stageId: s.stageId,
          segment: s.segment,
          fields: reader.fields(s.fields),
        }));
    const e2e = reader.fields(layout.e2e);
    const tableEdges: TransferEdge[] = layout.transfers.map((t) => ({
      edge: t.edge,
      fromStage: t.fromStage,
      toStage: t.toStage,
      fields: reader.fields(t.fields),
    }));
    const timing = layout.timing === null ? null : reader.timing(layout, entry);
    const overallSummary = layout.overall === null ? null : reader.overall(layout.overall);
    const stages: RequestStage[] =
      layout.stagesFromTiming && timing !== null
        ? stagesFromTiming(timing)
        : stagesFromColumns(columns, (entry.bootFlags & STAGE_TABLE_CUT) !== 0);
    return {
      requestId: entry.requestId,
      boot: Math.floor(entry.bootFlags / FLAG_SPAN),
      cold: (entry.bootFlags & COLD) !== 0,
      line: entry.line,
      timestamp: entry.timestamp,
      stages,
      e2e,
      timing,
      transfers: requestTransfers(tableEdges, timing),
      overallSummary,
      complete: (entry.bootFlags & COMPLETE) !== 0,
      hasStageTable: (entry.bootFlags & HAS_STAGE_TABLE) !== 0,
      stageTableCut: (entry.bootFlags & STAGE_TABLE_CUT) !== 0,
      derived: { addedTimeToFirstOutputMs: addedTimeToFirstOutput(stages) },
      ...((entry.bootFlags & REPEAT_FIRST) !== 0
        ? { repeat: 'first' as const }
        : (entry.bootFlags & REPEAT_AGAIN) !== 0
          ? { repeat: 'again' as const }
          : {}),
      ...(entry.rare === null || entry.rare.server === null ? {} : { server: entry.rare.server }),
    };
  }

  /**
   * One stage of request `index` (fields, split) without reading the rest of the request:
   * for sorting, filtering and histograms over many requests.
   */
  stageAt(index: number, stageKey: string): RequestStage | undefined {
    const entry = this.entries[index];
    const layout = entry?.layout;
    if (entry === undefined || layout === undefined) return undefined;
    if (layout === null || layout.stagesFromTiming) return this.at(index)?.stages.find((s) => s.stageKey === stageKey);
    let skip = 0;
    for (const s of layout.stages) {
      if (s.stageKey === stageKey) {
        const start = entry.offset + skip;
        const reader = new SlotReader(
          this.arena.chunkOf(start),
          ChunkedInt32.offsetIn(start),
          this.codec,
          entry.rare?.asides ?? null,
          entry.offset + skip,
          this.textCells,
        );
        const column = { column: s.stageKey, stageId: s.stageId, segment: s.segment, fields: reader.fields(s.fields) };
        const unread =
          (entry.bootFlags & STAGE_TABLE_CUT) !== 0 ? afterLastRow(layout.stages.map((c) => c.fields.names)) : null;
        return stageFromColumn(column, (entry.bootFlags & NATIVE_STATS) !== 0, unread);
      }
      skip += s.fields.slotCount;
    }
    return undefined;
  }

  /** A cell of request `index`'s RequestE2EStats (undefined: hidden or no such table). */
  e2eCellAt(index: number, name: string): Cell | undefined {
    const entry = this.entries[index];
    const layout = entry?.layout;
    if (entry === undefined || layout === undefined) return undefined;
    if (layout === null) return entry.rare?.whole?.e2e[name];
    let skip = 0;
    if (!layout.stagesFromTiming) for (const s of layout.stages) skip += s.fields.slotCount;
    const start = entry.offset + skip;
    const reader = new SlotReader(
      this.arena.chunkOf(start),
      ChunkedInt32.offsetIn(start),
      this.codec,
      entry.rare?.asides ?? null,
      entry.offset + skip,
      this.textCells,
    );
    return reader.fields(layout.e2e)[name];
  }

  /** endToEndOf(request)'s ms without building the request (the spans view asks it of every request). */
  endToEndMsAt(index: number): number | null {
    const entry = this.entries[index];
    const layout = entry?.layout;
    if (entry === undefined || layout === undefined) return null;
    if (layout === null) {
      const whole = entry.rare?.whole;
      return whole === undefined || whole === null ? null : (endToEndOf(whole)?.ms ?? null);
    }
    const cell = this.e2eCellAt(index, 'e2e_total_ms');
    if (cell?.state === 'measured') return e2eTableMs(cell) ?? null;
    if (layout.timing === null) return null;
    // The timing block follows the stages, the e2e fields and the transfer edges (SlotWriter's order); its first slot is total.
    let at = entry.offset + layout.e2e.slotCount;
    if (!layout.stagesFromTiming) for (const s of layout.stages) at += s.fields.slotCount;
    for (const t of layout.transfers) at += t.fields.slotCount;
    const slot = this.arena.chunkOf(at)[ChunkedInt32.offsetIn(at)] as number;
    return this.codec.kindOf(slot) === 'number' ? omniTimingTotalMs(this.codec.valueOf(slot)) : null;
  }

  lineAt(index: number): number | undefined {
    return this.entries[index]?.line;
  }

  /** The server of request `index` in a log that merges several servers' (its lines' tag); null otherwise. */
  serverAt(index: number): string | null {
    return this.entries[index]?.rare?.server ?? null;
  }

  /** The stage keys of request `index`, in column order. */
  stageKeysAt(index: number): readonly string[] {
    const entry = this.entries[index];
    if (entry === undefined) return [];
    if (entry.layout === null || entry.layout.stagesFromTiming)
      return (this.at(index)?.stages ?? []).map((s) => s.stageKey);
    return stageKeysOf(entry.layout);
  }

  /** Whether request `index` has a stage with this id. */
  hasStageId(index: number, stageId: number): boolean {
    const entry = this.entries[index];
    if (entry === undefined) return false;
    if (entry.layout === null || entry.layout.stagesFromTiming)
      return (this.at(index)?.stages ?? []).some((s) => s.stageId === stageId);
    return entry.layout.stages.some((s) => s.stageId === stageId);
  }

  /** One field of one stage of request `index`, read from its slot alone (undefined: hidden, or no such stage). */
  stageCellAt(index: number, stageKey: string, name: string): Cell | undefined {
    const entry = this.entries[index];
    const layout = entry?.layout;
    if (entry === undefined || layout === undefined) return undefined;
    if (layout === null || layout.stagesFromTiming)
      return this.at(index)?.stages.find((s) => s.stageKey === stageKey)?.fields[name];
    let skip = 0;
    for (const s of layout.stages) {
      if (s.stageKey === stageKey) {
        const within = slotOffsetOf(s.fields, name);
        if (within === undefined) return undefined;
        const at = entry.offset + skip + within;
        const slot = this.arena.chunkOf(at)[ChunkedInt32.offsetIn(at)];
        const kind = this.codec.kindOf(slot);
        if (kind === 'number') {
          const v = this.codec.valueOf(slot);
          return s.fields.counted[s.fields.names.indexOf(name)] === true
            ? measured(v, this.arena.chunkOf(at + 1)[ChunkedInt32.offsetIn(at + 1)])
            : measuredCell(v);
        }
        if (kind === 'none') return entry.rare?.asides?.get(entry.offset + skip + within) ?? NOT_MEASURED;
        return Object.freeze({ state: 'text' as const, value: this.codec.textOf(slot) });
      }
      skip += s.fields.slotCount;
    }
    return undefined;
  }

  timestampAt(index: number): string | null {
    return this.entries[index]?.timestamp ?? null;
  }

  *[Symbol.iterator](): Iterator<AnalyzedRequest> {
    for (let i = 0; i < this.entries.length; i++) yield this.at(i) as AnalyzedRequest;
  }
}

const stageKeyCache = new WeakMap<RequestLayout, readonly string[]>();
function stageKeysOf(layout: RequestLayout): readonly string[] {
  let keys = stageKeyCache.get(layout);
  if (keys === undefined) stageKeyCache.set(layout, (keys = layout.stages.map((s) => s.stageKey)));
  return keys;
}

const slotOffsets = new WeakMap<FieldLayout, Map<string, number>>();
/** Where a field's slot is within its field layout's run. */
function slotOffsetOf(layout: FieldLayout, name: string): number | undefined {
  let offsets = slotOffsets.get(layout);
  if (offsets === undefined) {
    offsets = new Map();
    let at = 0;
    layout.names.forEach((n, i) => {
      (offsets as Map<string, number>).set(n, at);
      at += layout.counted[i] === true ? 2 : 1;
    });
    slotOffsets.set(layout, offsets);
  }
  return offsets.get(name);
}

/** Writes one request's cells into its reserved run of the arena. */
class SlotWriter {
  asides: Map<number, Cell> | null = null;
  private pos: number;

  constructor(
    private readonly chunk: Int32Array,
    start: number,
    private readonly codec: SlotCodec,
    private readonly arenaOffset: number,
  ) {
    this.pos = start;
  }

  fields(fields: FieldMap, layout: FieldLayout): void {
    const names = layout.names;
    for (let i = 0; i < names.length; i++) {
      const cell = fields[names[i]];
      if (cell.state === 'measured') {
        this.chunk[this.pos++] = this.codec.number(cell.value);
        if (layout.counted[i] === true) this.chunk[this.pos++] = cell.sampleCount ?? 0;
      } else if (cell.state === 'notMeasured') {
        this.chunk[this.pos++] = this.codec.none;
      } else {
        const slot = this.codec.text(cell.value);
        if (slot === null) (this.asides ??= new Map()).set(this.arenaOffset + this.written, cell);
        this.chunk[this.pos++] = slot ?? this.codec.none;
      }
    }
  }

  timing(t: OmniTimingRecord): void {
    this.optional(t.totalS);
    this.optional(t.preprocessS);
    this.optional(t.engineS);
    this.optional(t.ar2diffusionMs);
    for (const s of t.stages) this.chunk[this.pos++] = this.codec.number(s.seconds);
    for (const x of t.transfers) this.chunk[this.pos++] = this.codec.number(x.ms);
  }

  overall(summary: RequestOverallSummary, layout: FieldLayout): void {
    this.chunk[this.pos++] = this.codec.number(summary.line);
    this.fields(summary.fields, layout);
  }

  private get written(): number {
    return this.pos - ChunkedInt32.offsetIn(this.arenaOffset);
  }

  private optional(v: number | null): void {
    this.chunk[this.pos++] = v === null ? this.codec.none : this.codec.number(v);
  }
}

/** Reads one request's cells back, in the order SlotWriter wrote them. */
class SlotReader {
  private pos: number;

  constructor(
    private readonly chunk: Int32Array,
    private readonly start: number,
    private readonly codec: SlotCodec,
    private readonly asides: Map<number, Cell> | null,
    private readonly arenaOffset: number,
    private readonly textCells: Map<string, Cell>,
  ) {
    this.pos = start;
  }

  fields(layout: FieldLayout): FieldMap {
    const names = layout.names;
    if (names.length === 0) return {};
    const out = { ...layout.template } as unknown as Record<string, Cell>;
    for (let i = 0; i < names.length; i++) {
      const at = this.pos - this.start;
      const slot = this.chunk[this.pos++];
      let cell: Cell;
      const kind = this.codec.kindOf(slot);
      if (kind === 'number') {
        const v = this.codec.valueOf(slot);
        cell = layout.counted[i] === true ? measured(v, this.chunk[this.pos++]) : measuredCell(v);
      } else if (kind === 'none') {
        cell = this.asides?.get(this.arenaOffset + at) ?? NOT_MEASURED;
      } else {
        cell = this.textCell(this.codec.textOf(slot));
      }
      out[names[i]] = cell;
    }
    return out;
  }

  timing(layout: RequestLayout, entry: PackedRequest): OmniTimingRecord {
    const t = layout.timing as NonNullable<RequestLayout['timing']>;
    const totalS = this.optional();
    const preprocessS = this.optional();
    const engineS = this.optional();
    const ar2diffusionMs = this.optional();
    const stages = t.stages.map((s) => ({ stageId: s.stageId, label: s.label, seconds: this.number() }));
    const transfers = t.transfers.map((x) => ({ fromStage: x.fromStage, toStage: x.toStage, ms: this.number() }));
    const identity = entry.rare?.timingIdentity ?? { request_id: entry.requestId };
    return {
      kind: 'omniTiming',
      line: entry.timingLine,
      header: entry.timingHeader,
      requestId: identity['request_id'] ?? entry.requestId,
      identity,
      totalS,
      preprocessS,
      engineS,
      stages,
      transfers,
      ar2diffusionMs,
      extra: entry.rare?.timingExtra ?? {},
    };
  }

  overall(layout: FieldLayout): RequestOverallSummary {
    const line = this.number();
    return { line, fields: this.fields(layout) };
  }

  private number(): number {
    return this.codec.valueOf(this.chunk[this.pos++]);
  }

  private optional(): number | null {
    const slot = this.chunk[this.pos++];
    return this.codec.kindOf(slot) === 'number' ? this.codec.valueOf(slot) : null;
  }

  private textCell(value: string): Cell {
    let cell = this.textCells.get(value);
    if (cell === undefined) {
      cell = Object.freeze({ state: 'text' as const, value });
      if (this.textCells.size < 4096) this.textCells.set(value, cell);
    }
    return cell;
  }
}
