// Requests from logs in vLLM-Omni's format before February 2026 (vllm-omni#891). Each
// `request_level_metrics` dict of log_utils.py is one finished request and says what it
// measured: per stage `stage_gen_time_ms` and token counts, the request's `e2e_time_ms`, its
// transfer totals. With --log-stats, each edge's `transfer_total_stats` dict (size, send, in
// flight, decode, total) is printed, with the same request id, before that request's dict: it
// becomes the request's edge. The format has no phase split: every split value is not measured,
// never 0 and never hidden (a hidden row would mean "zero or not measured").
// The version of log_utils.py that appends JSON lines to files of their own instead writes the
// same keys: an `overall_request` record (<log file>.overall.stats.jsonl) is the request's
// request_level_metrics dict; an `orchestrator_request_e2e` record (.orchestrator.stats.jsonl)
// holds only its end-to-end numbers, after the request's transfer_total_stats records. Both are
// written for one finished request from one computation (OrchestratorMetrics.on_finalize_request),
// so the two files read as one input (concatenated, either first) give each request once: its
// records are held until the other one comes (or the input ends or goes quiet) and joined.
import type { LegacyDictRecord, TransferEdge } from '../records';
import type { FieldMap } from '../values';
import { measured, NOT_MEASURED, type Cell } from '../values';
import { isSafeKey } from '../log/strings';
import { requestTransfers } from './transfers';
import { stageKindOf } from './stageKind';
import { notMeasuredSplit } from './phaseSplit';
import { filledFrom } from './filledValues';
import type { AnalyzedRequest, RequestRepeat, RequestStage } from './types';

export const REQUEST_LEVEL_METRICS = 'log_utils request_level_metrics';
/** The formats whose record is one finished request. */
const REQUEST_FORMATS: ReadonlySet<string> = new Set([
  REQUEST_LEVEL_METRICS,
  'log_utils overall_request',
  'log_utils orchestrator_request_e2e',
]);
const TRANSFER_TOTAL = 'log_utils transfer_total_stats';
const STAGES_PREFIX = 'stages.';
/** Keys of a dict that name it rather than measure something. */
const NOT_VALUES: ReadonlySet<string> = new Set(['type', 'request_id', 'from_stage', 'to_stage', 'final_stage_id']);
/** Request ids whose edges wait for their request's dict; the oldest go first past this (a dict never printed). */
const MAX_PENDING = 10_000;

/**
 * A printed `request_level_metrics` dict: the vllm-omni#891 branch prints the request's tables
 * after it in the same call (RequestAssembler.holdDictInto), the format before it none.
 */
export function mayPrecedeTables(record: LegacyDictRecord): boolean {
  return record.format === REQUEST_LEVEL_METRICS && record.json !== true && record.requestId !== null;
}

/** Where a request read elsewhere sits among the log's requests (RequestAssembler.placeRequest). */
export interface RequestPlace {
  readonly requestId: string;
  readonly boot: number;
  readonly cold: boolean;
  /** It repeats an earlier request's dict (requestRepeats.ts). */
  readonly repeat?: RequestRepeat;
}

interface PendingEdges {
  readonly line: number;
  readonly timestamp: string | null;
  /** Edge name -> its dict's values; null when the edge was printed twice for the id (which one is this request's is unknown). */
  readonly edges: Map<string, TransferEdge | null>;
}

/** How the dicts print "not measured" (a JSON null is read as it, pythonLiteral.ts). */
const NONE = 'None';

/** A value's cell: a number is measured, a printed None not measured (never 0, never hidden); null: no value. */
function cellOf(v: number | string): Cell | null {
  return typeof v === 'number' ? measured(v) : v === NONE ? NOT_MEASURED : null;
}

/** The values of a dict that are not nested (`stages.0.x` is), as cells. */
function topLevelFields(values: LegacyDictRecord['values']): FieldMap {
  const fields: FieldMap = {};
  for (const key in values) {
    const cell = NOT_VALUES.has(key) || key.includes('.') ? null : cellOf(values[key] as number | string);
    if (cell !== null) fields[key] = cell;
  }
  return fields;
}

/** The request's stages from its `stages.<id>.<name>` values, by stage id. */
export function legacyStages(values: LegacyDictRecord['values']): RequestStage[] {
  const byId = new Map<number, FieldMap>();
  for (const key in values) {
    const cell = key.startsWith(STAGES_PREFIX) ? cellOf(values[key] as number | string) : null;
    if (cell === null) continue;
    const dot = key.indexOf('.', STAGES_PREFIX.length);
    const idText = key.slice(STAGES_PREFIX.length, dot);
    const name = key.slice(dot + 1);
    const id = Number(idText);
    if (dot === -1 || idText === '' || !Number.isInteger(id) || name === '' || name.includes('.') || !isSafeKey(name))
      continue;
    let fields = byId.get(id);
    if (fields === undefined) byId.set(id, (fields = {}));
    fields[name] = cell;
  }
  return [...byId.keys()]
    .sort((a, b) => a - b)
    .map((id) => {
      const fields = byId.get(id) as FieldMap;
      return {
        stageKey: String(id),
        stageId: id,
        segment: 1,
        replicaId: 0,
        kind: stageKindOf(fields),
        fields,
        split: notMeasuredSplit(),
      };
    });
}

/** A `request_level_metrics` dict (or record of the JSON lines) that names its request and holds something of it. */
function isRequestDict(record: LegacyDictRecord): boolean {
  if (!REQUEST_FORMATS.has(record.format) || record.requestId === null) return false;
  // A fragment (its opening line not in the input) is taken for one only when it prints a request's values.
  if (record.values['e2e_time_ms'] !== undefined) return true;
  for (const key in record.values) if (key.startsWith(STAGES_PREFIX)) return true;
  return false;
}

function edgeOf(record: LegacyDictRecord): TransferEdge | null {
  const from = record.values['from_stage'];
  const to = record.values['to_stage'];
  if (typeof from !== 'number' || typeof to !== 'number') return null;
  const fields = topLevelFields(record.values);
  // The same quantity the current format prints as size_kbytes (size_bytes / 1024; the dict's own
  // total_time_per_kb_ms divides by that KB too), so the views' size column has it.
  const bytes = record.values['size_bytes'];
  if (typeof bytes === 'number' && fields['size_kbytes'] === undefined) fields['size_kbytes'] = measured(bytes / 1024);
  return { edge: `${from}->${to}`, fromStage: from, toStage: to, fields };
}

/** The two JSON records one finished request has, one in each stats file: joined into one request. */
type JoinedKind = 'overall' | 'orchestrator';
const JOINED_KINDS: ReadonlyMap<string, JoinedKind> = new Map([
  ['log_utils overall_request', 'overall'],
  ['log_utils orchestrator_request_e2e', 'orchestrator'],
]);
/**
 * Requests held for their other record; past this a record with none held is read alone at once
 * (holding it instead of an older one would lose that one's join too, and so on down a long
 * file). Its other record, coming later, is a second request (the repeated-request-ids finding).
 */
const MAX_HELD = 100_000;

/** What a request is built from of one of its records: its values and whether it was read whole. */
interface RecordValues {
  readonly values: LegacyDictRecord['values'];
  readonly complete: boolean;
}

/** What one request is read from: its records (an overall_request and an orchestrator_request_e2e at most) and edges. */
interface RequestParts {
  overall: RecordValues | null;
  orchestrator: RecordValues | null;
  /** Any other request record: read alone. */
  other: RecordValues | null;
  edges: TransferEdge[];
  line: number;
  timestamp: string | null;
}

/**
 * A string that shares no memory with the one it copies: a value sliced from a parsed line keeps
 * that whole line alive while it is held, and up to MAX_HELD records are held.
 */
function ownCopy(text: string): string {
  return (' ' + text).slice(1);
}

/** Key lists kept for held records, by their keys: one list for all records that print the same keys. */
const MAX_KEY_LISTS = 1000;

/** A held record's values, kept apart from its parsed record: its values in a list, its keys shared. */
class HeldValues implements RecordValues {
  private readonly list: (number | string)[];

  constructor(
    private readonly keys: readonly string[],
    values: LegacyDictRecord['values'],
    readonly complete: boolean,
  ) {
    this.list = keys.map((key) => {
      const v = values[key] as number | string;
      return typeof v === 'number' ? v : v === NONE ? NONE : ownCopy(v);
    });
  }

  get values(): LegacyDictRecord['values'] {
    const values: Record<string, number | string> = {};
    for (let i = 0; i < this.keys.length; i++) values[this.keys[i] as string] = this.list[i] as number | string;
    return values;
  }
}

const NONE_YET: readonly AnalyzedRequest[] = Object.freeze([]);

function startEarlier(parts: RequestParts, line: number, timestamp: string | null): void {
  if (line >= parts.line) return;
  parts.line = line;
  parts.timestamp = timestamp;
}

/**
 * The values of a request's two records as one: the overall_request's, and the
 * orchestrator_request_e2e's where the overall_request has none or an unmeasured one. Both
 * records carry e2e_time_ms and num_tokens_out from the same computation; the overall_request is
 * the request's whole record (its stages and its split of that end to end into service, transfer
 * and queue time), so its value is kept where they differ, and a None never replaces a number.
 */
function joinedValues(parts: RequestParts): LegacyDictRecord['values'] {
  const { overall, orchestrator } = parts;
  if (orchestrator === null) return (overall ?? (parts.other as RecordValues)).values;
  if (overall === null) return orchestrator.values;
  return filledFrom(overall.values, orchestrator.values, (value) => typeof value === 'number');
}

/** Reads the legacy dicts of one log, in order; a request comes out at its request_level_metrics dict. */
export class LegacyRequestReader {
  private readonly pending = new Map<string, PendingEdges>();
  /** JSON records waiting for the request's other record, by request id, oldest first. */
  private readonly held = new Map<string, RequestParts>();
  /** The key lists of held records' values, by the keys joined. */
  private readonly keyLists = new Map<string, readonly string[]>();
  private joinedCount = 0;

  constructor(private readonly place: (key: string) => RequestPlace) {}

  /** Requests read from both of their JSON records so far. */
  get joined(): number {
    return this.joinedCount;
  }

  /** The requests this record finishes (none while a JSON record waits for its other one). */
  read(record: LegacyDictRecord): readonly AnalyzedRequest[] {
    if (record.format === TRANSFER_TOTAL) {
      this.holdEdge(record);
      return NONE_YET;
    }
    if (!isRequestDict(record)) return NONE_YET;
    const id = record.requestId as string;
    const kind = record.json === true ? JOINED_KINDS.get(record.format) : undefined;
    if (kind === undefined) return [this.build(id, this.partsOf(record, null))];
    const held = this.held.get(id);
    if (held !== undefined && held[kind] === null) {
      // The request's other record: the two are one request.
      held[kind] = record;
      this.takeEdges(held, id, record);
      this.held.delete(id);
      this.joinedCount += 1;
      return [this.build(id, held)];
    }
    // The same record again (the same file read twice): the held one is a request of its own.
    if (held !== undefined) {
      this.held.delete(id);
      this.held.set(ownCopy(id), this.partsOf(record, kind, this.heldValues(record)));
      return [this.build(id, held)];
    }
    if (this.held.size >= MAX_HELD) return [this.build(id, this.partsOf(record, kind))];
    this.held.set(ownCopy(id), this.partsOf(record, kind, this.heldValues(record)));
    return NONE_YET;
  }

  /** The requests whose other record has not come (the input ended or went quiet), in the order they came. */
  release(): readonly AnalyzedRequest[] {
    if (this.held.size === 0) return NONE_YET;
    const done: AnalyzedRequest[] = [];
    for (const [id, parts] of this.held) done.push(this.build(id, parts));
    this.held.clear();
    return done;
  }

  /** The values of a record to hold: its parsed record (and the line it was read from) is let go. */
  private heldValues(record: LegacyDictRecord): HeldValues {
    const names = Object.keys(record.values);
    const joined = names.join('\n');
    let keys = this.keyLists.get(joined);
    if (keys === undefined) {
      keys = names.map(ownCopy);
      if (this.keyLists.size < MAX_KEY_LISTS) this.keyLists.set(ownCopy(joined), keys);
    }
    return new HeldValues(keys, record.values, record.complete);
  }

  private partsOf(record: LegacyDictRecord, kind: JoinedKind | null, values: RecordValues = record): RequestParts {
    const timestamp = record.header?.timestamp ?? null;
    const parts: RequestParts = {
      overall: kind === 'overall' ? values : null,
      orchestrator: kind === 'orchestrator' ? values : null,
      other: kind === null ? values : null,
      edges: [],
      line: record.line,
      timestamp: timestamp === null ? null : ownCopy(timestamp),
    };
    this.takeEdges(parts, record.requestId as string, record);
    return parts;
  }

  /** Adds the edges printed for the request before `record`; the request starts at the earliest line of its parts. */
  private takeEdges(parts: RequestParts, id: string, record: LegacyDictRecord): void {
    startEarlier(parts, record.line, record.header?.timestamp ?? null);
    const pending = this.pending.get(id);
    if (pending === undefined) return;
    this.pending.delete(id);
    startEarlier(parts, pending.line, pending.timestamp);
    for (const edge of pending.edges.values())
      if (edge !== null && !parts.edges.some((e) => e.edge === edge.edge)) parts.edges.push(edge);
  }

  private build(id: string, parts: RequestParts): AnalyzedRequest {
    const values = joinedValues(parts);
    const place = this.place(id);
    let complete = true;
    for (const r of [parts.overall, parts.orchestrator, parts.other]) if (r !== null && !r.complete) complete = false;
    return {
      requestId: place.requestId,
      boot: place.boot,
      cold: place.cold,
      line: parts.line,
      timestamp: parts.timestamp,
      stages: legacyStages(values),
      e2e: topLevelFields(values),
      timing: null,
      transfers: requestTransfers(parts.edges, null),
      overallSummary: null,
      complete,
      hasStageTable: false,
      stageTableCut: false,
      derived: { addedTimeToFirstOutputMs: {} },
      legacyDict: true,
      ...(place.repeat === undefined ? {} : { repeat: place.repeat }),
    };
  }

  private holdEdge(record: LegacyDictRecord): void {
    const edge = record.requestId === null || !record.complete ? null : edgeOf(record);
    if (edge === null || record.requestId === null) return;
    let held = this.pending.get(record.requestId);
    if (held === undefined) {
      if (this.pending.size >= MAX_PENDING) this.pending.delete(this.pending.keys().next().value as string);
      held = { line: record.line, timestamp: record.header?.timestamp ?? null, edges: new Map() };
      this.pending.set(record.requestId, held);
    }
    held.edges.set(edge.edge, held.edges.has(edge.edge) ? null : edge);
  }
}
