// The parser's outputs packed for another thread (`analyze` parses a large file in a worker
// thread, server/cli/parseWorker.ts). A structured clone of the records (postMessage, or
// v8.serialize) costs more on the receiving thread than parsing saved it (~4.6 µs a record
// to read back): the records the parser makes on every request are packed by hand instead,
// numbers into a Float64Array (transferred, not copied), strings into one array per batch,
// each field map as its layout's number and its cells. Any other record, and every problem,
// goes as it is (structured clone) in a side array, its place in the order kept.
//
// Unpacked records equal the parser's, key order included (the JSON writer iterates field
// maps): field maps are built by fieldMaps.ts from the same cells, so small integers and
// None share their cells as the parser's do. A header or identity object the parser shares
// between records is shared again by the unpacked ones (a short list of those sent last).
import type {
  LogHeader,
  LogRecord,
  OmniTimingRecord,
  OverallSummaryRecord,
  ParseOutput,
  ParseProblem,
  RecordIdentity,
  RequestE2ERecord,
  StageColumn,
  StageTableRecord,
  TransferEdge,
  TransferTableRecord,
} from '../records';
import { BLANK, NOT_MEASURED, measured, type Cell, type FieldMap } from '../values';
import { buildFieldMap, type ColumnCells } from './fieldMaps';
import { FieldSchema } from './fieldSchema';
import { TextCells } from './cells';
import { isSafeKey } from './strings';

/** One batch of parse outputs, as posted between threads. */
export interface PackedBatch {
  /** Tags: what comes next, and small values (booleans, cell kinds). */
  readonly tags: Uint8Array<ArrayBuffer>;
  readonly tagCount: number;
  /** Numbers, and indexes into `strings` and into the layouts. */
  readonly numbers: Float64Array<ArrayBuffer>;
  readonly numberCount: number;
  readonly strings: string[];
  /** Records of other kinds and problems, in the order their tags name them. */
  readonly side: unknown[];
  /** Field map layouts first used in this batch (their names, in order), numbered on from the last batch's. */
  readonly layouts: string[][];
}

// Tags.
const OUTPUT = 1;
const OUTPUT_END = 2;
const SIDE_RECORD = 3;
const PROBLEMS = 4;
const STAGE_TABLE = 5;
const TRANSFER_TABLE = 6;
const REQUEST_E2E = 7;
const OMNI_TIMING = 8;
const OVERALL_SUMMARY = 9;

// Field maps: by their layout, or (a layout with a name that would set a prototype) as they are.
const LAYOUT_FIELDS = 0;
const SIDE_FIELDS = 1;

// Where a field map is packed from (RecordPacker.hints): a table's columns by their place.
const FIELDS_PLACES = 8;
const FIELDS_COLUMN = 0;
const FIELDS_EDGE = FIELDS_PLACES;
const FIELDS_E2E = 2 * FIELDS_PLACES;
const FIELDS_SUMMARY = FIELDS_E2E + 1;

// ParseOutput.debugLines
const DEBUG_ABSENT = 0;
const DEBUG_FALSE = 1;
const DEBUG_TRUE = 2;

// Shared objects (headers, identities): sent whole, or as their place in the list of those sent last.
const NULL_OBJECT = 0;
const NEW_OBJECT = 1;
const SENT_OBJECT = 2;
/** Headers and identities remembered: the parser shares each among a few records close together. */
const SHARED_KEPT = 16;

/** Strings of a batch looked for among those added last before one is added. */
const RECENT_STRINGS = 8;

// Cells.
const CELL_NUMBER = 0;
const CELL_SAMPLED = 1;
const CELL_NONE = 2;
const CELL_BLANK = 3;
const CELL_TEXT = 4;

// Nullable numbers and strings.
const NULL_VALUE = 0;
const SOME_VALUE = 1;

// An optional key (a column's label): absent or present.
const ABSENT = 0;
const PRESENT = 1;

/** Objects sent last, each with its number: a ring both sides keep alike. */
class SentObjects<T> {
  readonly objects: (T | undefined)[] = new Array<T | undefined>(SHARED_KEPT).fill(undefined);
  next = 0;

  indexOf(object: T): number {
    // The one sent last first: most records share the previous one's.
    const objects = this.objects;
    for (let k = 0, i = (this.next + SHARED_KEPT - 1) % SHARED_KEPT; k < SHARED_KEPT; k++) {
      if (objects[i] === object) return i;
      i = i === 0 ? SHARED_KEPT - 1 : i - 1;
    }
    return -1;
  }

  add(object: T): void {
    this.objects[this.next] = object;
    this.next = (this.next + 1) % SHARED_KEPT;
  }
}

interface Layout {
  readonly id: number;
  readonly names: readonly string[];
  /** No name would set a prototype: maps of this layout can be built by fieldMaps.ts. */
  readonly safe: boolean;
}

/** Packs parse outputs into batches (the parsing thread's side). */
export class RecordPacker {
  private tags = new Uint8Array(1 << 16);
  private tagCount = 0;
  private numbers = new Float64Array(1 << 14);
  private numberCount = 0;
  private strings: string[] = [];
  private readonly recentStrings: (string | undefined)[] = new Array<string | undefined>(RECENT_STRINGS).fill(
    undefined,
  );
  private readonly recentIndexes = new Int32Array(RECENT_STRINGS);
  private nextRecent = 0;
  private side: unknown[] = [];
  private newLayouts: string[][] = [];
  /** Layouts by their first name (most maps of a log share a few). */
  private readonly layouts = new Map<string, Layout[]>();
  private layoutCount = 0;
  private readonly headers = new SentObjects<LogHeader>();
  private readonly identities = new SentObjects<RecordIdentity>();
  /** The layout each place a field map is packed from took last (FIELDS_*): most likely the next one's. */
  private readonly hints: (Layout | undefined)[] = [];
  private rowsHint: { readonly rows: readonly string[]; readonly layout: Layout } | null = null;

  /** Adds one parse output (a piece's records, or the end's). */
  add(output: ParseOutput): void {
    this.tag(OUTPUT);
    this.tag(output.debugLines === undefined ? DEBUG_ABSENT : output.debugLines ? DEBUG_TRUE : DEBUG_FALSE);
    for (const record of output.records) this.record(record);
    if (output.problems.length > 0) {
      this.tag(PROBLEMS);
      this.number(output.problems.length);
      for (const problem of output.problems) this.side.push(problem);
    }
    this.tag(OUTPUT_END);
  }

  /** Whether nothing was added since the last batch. */
  get isEmpty(): boolean {
    return this.tagCount === 0;
  }

  /** Bytes the batch holds so far (its tags and numbers). */
  get size(): number {
    return this.tagCount + this.numberCount * 8;
  }

  /** What was added since the last batch; its buffers are the batch's own (to be transferred). */
  take(): PackedBatch {
    const batch: PackedBatch = {
      tags: this.tags,
      tagCount: this.tagCount,
      numbers: this.numbers,
      numberCount: this.numberCount,
      strings: this.strings,
      side: this.side,
      layouts: this.newLayouts,
    };
    // The next batch is likely as large: sized so that it seldom grows.
    this.tags = new Uint8Array(Math.max(1 << 12, this.tagCount + (this.tagCount >> 2)));
    this.numbers = new Float64Array(Math.max(1 << 10, this.numberCount + (this.numberCount >> 2)));
    this.tagCount = 0;
    this.numberCount = 0;
    this.strings = [];
    this.recentStrings.fill(undefined);
    this.side = [];
    this.newLayouts = [];
    return batch;
  }

  private tag(t: number): void {
    if (this.tagCount === this.tags.length) {
      const grown = new Uint8Array(this.tags.length * 2);
      grown.set(this.tags);
      this.tags = grown;
    }
    this.tags[this.tagCount++] = t;
  }

  private number(v: number): void {
    if (this.numberCount === this.numbers.length) {
      const grown = new Float64Array(this.numbers.length * 2);
      grown.set(this.numbers);
      this.numbers = grown;
    }
    this.numbers[this.numberCount++] = v;
  }

  /** A string's index in the batch's strings; one of the last few added is not added again (a request's id). */
  private string(s: string): void {
    const recent = this.recentStrings;
    for (let i = 0; i < RECENT_STRINGS; i++) {
      if (recent[i] === s) {
        this.number(this.recentIndexes[i] as number);
        return;
      }
    }
    const index = this.strings.length;
    this.strings.push(s);
    recent[this.nextRecent] = s;
    this.recentIndexes[this.nextRecent] = index;
    this.nextRecent = (this.nextRecent + 1) % RECENT_STRINGS;
    this.number(index);
  }

  private nullableNumber(v: number | null): void {
    if (v === null) this.tag(NULL_VALUE);
    else {
      this.tag(SOME_VALUE);
      this.number(v);
    }
  }

  private nullableString(s: string | null): void {
    if (s === null) this.tag(NULL_VALUE);
    else {
      this.tag(SOME_VALUE);
      this.string(s);
    }
  }

  private record(record: LogRecord): void {
    switch (record.kind) {
      case 'stageTable':
        if (this.stageTable(record)) return;
        break;
      case 'transferTable':
        if (this.packable(record.header, record.identity)) {
          this.tag(TRANSFER_TABLE);
          this.common(record.line, record.header, record.requestId, record.identity);
          this.number(record.edges.length);
          for (let i = 0; i < record.edges.length; i++) {
            const edge = record.edges[i] as TransferEdge;
            this.string(edge.edge);
            this.nullableNumber(edge.fromStage);
            this.nullableNumber(edge.toStage);
            this.fields(edge.fields, FIELDS_EDGE + Math.min(i, FIELDS_PLACES - 1));
          }
          this.tag(record.complete ? 1 : 0);
          return;
        }
        break;
      case 'requestE2E':
        if (this.packable(record.header, record.identity)) {
          this.tag(REQUEST_E2E);
          this.common(record.line, record.header, record.requestId, record.identity);
          this.fields(record.fields, FIELDS_E2E);
          this.tag(record.complete ? 1 : 0);
          return;
        }
        break;
      case 'omniTiming':
        if (this.packable(record.header, record.identity) && stringValues(record.extra)) {
          this.omniTiming(record);
          return;
        }
        break;
      case 'overallSummary':
        if (this.packable(record.header, null)) {
          this.tag(OVERALL_SUMMARY);
          this.number(record.line);
          this.header(record.header);
          this.fields(record.fields, FIELDS_SUMMARY);
          this.tag(record.complete ? 1 : 0);
          return;
        }
        break;
      default:
        break;
    }
    this.tag(SIDE_RECORD);
    this.side.push(record);
  }

  private stageTable(record: StageTableRecord): boolean {
    if (record.unreadRows !== undefined || !this.packable(record.header, record.identity)) return false;
    const rows = this.rows(record.rows);
    this.tag(STAGE_TABLE);
    this.common(record.line, record.header, record.requestId, record.identity);
    this.number(record.columns.length);
    for (let i = 0; i < record.columns.length; i++) {
      const column = record.columns[i] as StageColumn;
      this.string(column.column);
      this.nullableNumber(column.stageId);
      this.number(column.segment);
      if (column.label === undefined) this.tag(ABSENT);
      else {
        this.tag(PRESENT);
        this.string(column.label);
      }
      this.fields(column.fields, FIELDS_COLUMN + Math.min(i, FIELDS_PLACES - 1));
    }
    this.number(rows.id);
    this.tag(record.complete ? 1 : 0);
    return true;
  }

  private omniTiming(record: OmniTimingRecord): void {
    this.tag(OMNI_TIMING);
    this.common(record.line, record.header, record.requestId, record.identity);
    this.nullableNumber(record.totalS);
    this.nullableNumber(record.preprocessS);
    this.nullableNumber(record.engineS);
    this.number(record.stages.length);
    for (const stage of record.stages) {
      this.number(stage.stageId);
      this.nullableString(stage.label);
      this.number(stage.seconds);
    }
    this.number(record.transfers.length);
    for (const transfer of record.transfers) {
      this.number(transfer.fromStage);
      this.number(transfer.toStage);
      this.number(transfer.ms);
    }
    this.nullableNumber(record.ar2diffusionMs);
    this.strings2(record.extra);
  }

  /** Whether the record's header and identity are of the shapes packed (any other: sent as it is). */
  private packable(header: LogHeader | null, identity: RecordIdentity | null): boolean {
    return (
      (header === null || this.headers.indexOf(header) !== -1 || isHeaderShape(header)) &&
      (identity === null || this.identities.indexOf(identity) !== -1 || stringValues(identity))
    );
  }

  private common(line: number, header: LogHeader | null, requestId: string, identity: RecordIdentity): void {
    this.number(line);
    this.header(header);
    this.string(requestId);
    const sent = this.identities.indexOf(identity);
    if (sent !== -1) {
      this.tag(SENT_OBJECT);
      this.number(sent);
      return;
    }
    this.tag(NEW_OBJECT);
    this.strings2(identity);
    this.identities.add(identity);
  }

  /** A record of strings (an identity, omniTiming's extra): its keys and values in order. */
  private strings2(values: Readonly<Record<string, string>>): void {
    const keys = Object.keys(values);
    this.number(keys.length);
    for (const key of keys) {
      this.string(key);
      this.string(values[key] as string);
    }
  }

  private header(header: LogHeader | null): void {
    if (header === null) {
      this.tag(NULL_OBJECT);
      return;
    }
    const sent = this.headers.indexOf(header);
    if (sent !== -1) {
      this.tag(SENT_OBJECT);
      this.number(sent);
      return;
    }
    this.tag(NEW_OBJECT);
    this.string(header.level);
    this.string(header.timestamp);
    this.string(header.file);
    this.number(header.fileLine);
    this.nullableString(header.process);
    this.nullableNumber(header.stagePrefix);
    this.headers.add(header);
  }

  /**
   * The map's layout and its cells. Read with for-in, which takes the map's keys and cells in
   * order without a lookup per key, against the layout the map's place took last (`hint`, a
   * FIELDS_* number); a map of another layout is then read again by its keys.
   */
  private fields(fields: FieldMap, hint: number): void {
    const tagsBefore = this.tagCount;
    const numbersBefore = this.numberCount;
    let layout = this.hints[hint];
    if (layout !== undefined && layout.safe) {
      this.tag(LAYOUT_FIELDS);
      this.number(layout.id);
      const names = layout.names;
      let i = 0;
      for (const name in fields) {
        if (names[i] !== name) {
          i = -1;
          break;
        }
        this.cell(fields[name] as Cell);
        i++;
      }
      if (i === names.length) return;
      this.tagCount = tagsBefore;
      this.numberCount = numbersBefore;
    }
    layout = this.layoutOfNames(Object.keys(fields));
    this.hints[hint] = layout;
    if (!layout.safe) {
      this.tag(SIDE_FIELDS);
      this.side.push(fields);
      return;
    }
    this.tag(LAYOUT_FIELDS);
    this.number(layout.id);
    for (const name of layout.names) this.cell(fields[name] as Cell);
  }

  private cell(cell: Cell): void {
    if (cell.state === 'measured') {
      if (cell.sampleCount === undefined) {
        this.tag(CELL_NUMBER);
        this.number(cell.value);
      } else {
        this.tag(CELL_SAMPLED);
        this.number(cell.value);
        this.number(cell.sampleCount);
      }
    } else if (cell.state === 'notMeasured') this.tag(CELL_NONE);
    else if (cell.value === '') this.tag(CELL_BLANK);
    else {
      this.tag(CELL_TEXT);
      this.string(cell.value);
    }
  }

  private rows(rows: readonly string[]): Layout {
    const hint = this.rowsHint;
    if (hint !== null && (hint.rows === rows || sameNames(hint.layout.names, rows))) return hint.layout;
    const layout = this.layoutOfNames(rows);
    this.rowsHint = { rows, layout };
    return layout;
  }

  /** The layout of `names`, numbered when new. */
  private layoutOfNames(names: readonly string[]): Layout {
    const first = names.length === 0 ? '' : (names[0] as string);
    const known = this.layouts.get(first);
    if (known !== undefined) {
      for (const layout of known) if (sameNames(layout.names, names)) return layout;
    }
    const layout: Layout = { id: this.layoutCount++, names: [...names], safe: names.every(isSafeKey) };
    if (known === undefined) this.layouts.set(first, [layout]);
    else known.push(layout);
    this.newLayouts.push(layout.names as string[]);
    return layout;
  }
}

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const HEADER_KEYS = 6;

/** A header as the parser makes it (prefix.ts): these keys, in this order. */
function isHeaderShape(header: LogHeader): boolean {
  return Object.keys(header).length === HEADER_KEYS;
}

/** Whether every value of `values` is a string and no key would set a prototype. */
function stringValues(values: Readonly<Record<string, string>>): boolean {
  for (const key in values) if (typeof values[key] !== 'string' || !isSafeKey(key)) return false;
  return true;
}

/** Unpacks batches into parse outputs (the receiving thread's side), in the order they were packed. */
export class RecordUnpacker {
  private tags = new Uint8Array(0);
  private t = 0;
  private numbers = new Float64Array(0);
  private n = 0;
  private strings: string[] = [];
  private side: unknown[] = [];
  private s = 0;
  private readonly root = FieldSchema.root(Number.MAX_SAFE_INTEGER);
  private readonly layouts: { readonly names: readonly string[]; readonly schema: FieldSchema }[] = [];
  private readonly headers = new SentObjects<LogHeader>();
  private readonly identities = new SentObjects<RecordIdentity>();
  private readonly texts = new TextCells();
  private readonly values: number[] = [];
  private readonly extras: (Cell | undefined)[] = [];
  private readonly plainCells: ColumnCells = { values: this.values, extras: null };
  private readonly extraCells: ColumnCells = { values: this.values, extras: this.extras };

  /** The batch's parse outputs, one by one (each unpacked when it is asked for). */
  *outputs(batch: PackedBatch): Generator<ParseOutput, void, undefined> {
    for (const names of batch.layouts) {
      let schema = this.root;
      for (const name of names) schema = schema.child(name);
      this.layouts.push({ names, schema });
    }
    this.tags = batch.tags;
    this.numbers = batch.numbers;
    this.strings = batch.strings;
    this.side = batch.side;
    this.t = 0;
    this.n = 0;
    this.s = 0;
    while (this.t < batch.tagCount) yield this.output();
  }

  private tag(): number {
    return this.tags[this.t++] as number;
  }

  /**
   * The next number; an integer as a small integer where it is one (line numbers, stage ids,
   * counts), as the parser makes them: a double read from the array would otherwise be stored
   * boxed in every record, and make the records' fields doubles for the code that reads them.
   */
  private number(): number {
    const v = this.numbers[this.n++] as number;
    const i = v | 0;
    return i === v && (i !== 0 || 1 / v > 0) ? i : v;
  }

  private string(): string {
    return this.strings[this.numbers[this.n++] as number] as string;
  }

  private nullableNumber(): number | null {
    return this.tag() === NULL_VALUE ? null : this.number();
  }

  private nullableString(): string | null {
    return this.tag() === NULL_VALUE ? null : this.string();
  }

  private output(): ParseOutput {
    this.tag(); // OUTPUT
    const debug = this.tag();
    const records: LogRecord[] = [];
    let problems: ParseProblem[] = [];
    for (let tag = this.tag(); tag !== OUTPUT_END; tag = this.tag()) {
      switch (tag) {
        case STAGE_TABLE:
          records.push(this.stageTable());
          break;
        case TRANSFER_TABLE:
          records.push(this.transferTable());
          break;
        case REQUEST_E2E:
          records.push(this.requestE2E());
          break;
        case OMNI_TIMING:
          records.push(this.omniTiming());
          break;
        case OVERALL_SUMMARY:
          records.push(this.overallSummary());
          break;
        case SIDE_RECORD:
          records.push(this.side[this.s++] as LogRecord);
          break;
        case PROBLEMS: {
          const count = this.number();
          problems = this.side.slice(this.s, this.s + count) as ParseProblem[];
          this.s += count;
          break;
        }
        default:
          throw new Error(`packed parse output: unknown tag ${tag}`);
      }
    }
    return debug === DEBUG_ABSENT ? { records, problems } : { records, problems, debugLines: debug === DEBUG_TRUE };
  }

  private header(): LogHeader | null {
    const how = this.tag();
    if (how === NULL_OBJECT) return null;
    if (how === SENT_OBJECT) return this.headers.objects[this.number()] as LogHeader;
    const header: LogHeader = Object.freeze({
      level: this.string(),
      timestamp: this.string(),
      file: this.string(),
      fileLine: this.number(),
      process: this.nullableString(),
      stagePrefix: this.nullableNumber(),
    });
    this.headers.add(header);
    return header;
  }

  private identity(): RecordIdentity {
    if (this.tag() === SENT_OBJECT) return this.identities.objects[this.number()] as RecordIdentity;
    const identity = this.strings2();
    this.identities.add(identity);
    return identity;
  }

  private strings2(): Record<string, string> {
    const out: Record<string, string> = {};
    for (let count = this.number(); count > 0; count--) {
      const key = this.string();
      out[key] = this.string();
    }
    return out;
  }

  private fields(): FieldMap {
    if (this.tag() === SIDE_FIELDS) return this.side[this.s++] as FieldMap;
    const layout = this.layouts[this.number()] as { readonly names: readonly string[]; readonly schema: FieldSchema };
    const count = layout.names.length;
    const values = this.values;
    const extras = this.extras;
    let extra = false;
    for (let i = 0; i < count; i++) {
      const kind = this.tag();
      if (kind === CELL_NUMBER) {
        // A cell's number as the parser reads it: a double.
        values[i] = this.numbers[this.n++] as number;
        extras[i] = undefined;
        continue;
      }
      extra = true;
      if (kind === CELL_SAMPLED) {
        const value = this.numbers[this.n++] as number;
        extras[i] = measured(value, this.number());
      } else if (kind === CELL_NONE) extras[i] = NOT_MEASURED;
      else if (kind === CELL_BLANK) extras[i] = BLANK;
      else extras[i] = this.texts.cell(this.string());
    }
    return buildFieldMap(layout.schema, extra ? this.extraCells : this.plainCells);
  }

  private stageTable(): StageTableRecord {
    const line = this.number();
    const header = this.header();
    const requestId = this.string();
    const identity = this.identity();
    const columns: StageColumn[] = [];
    for (let count = this.number(); count > 0; count--) {
      const column = this.string();
      const stageId = this.nullableNumber();
      const segment = this.number();
      if (this.tag() === ABSENT) columns.push({ column, stageId, segment, fields: this.fields() });
      else {
        const label = this.string();
        columns.push({ column, stageId, segment, label, fields: this.fields() });
      }
    }
    const rows = (this.layouts[this.number()] as { readonly names: readonly string[] }).names;
    const complete = this.tag() === 1;
    return { kind: 'stageTable', line, header, requestId, identity, columns, rows, complete };
  }

  private transferTable(): TransferTableRecord {
    const line = this.number();
    const header = this.header();
    const requestId = this.string();
    const identity = this.identity();
    const edges: TransferEdge[] = [];
    for (let count = this.number(); count > 0; count--) {
      const edge = this.string();
      const fromStage = this.nullableNumber();
      const toStage = this.nullableNumber();
      edges.push({ edge, fromStage, toStage, fields: this.fields() });
    }
    const complete = this.tag() === 1;
    return { kind: 'transferTable', line, header, requestId, identity, edges, complete };
  }

  private requestE2E(): RequestE2ERecord {
    const line = this.number();
    const header = this.header();
    const requestId = this.string();
    const identity = this.identity();
    const fields = this.fields();
    const complete = this.tag() === 1;
    return { kind: 'requestE2E', line, header, requestId, identity, fields, complete };
  }

  private overallSummary(): OverallSummaryRecord {
    const line = this.number();
    const header = this.header();
    const fields = this.fields();
    const complete = this.tag() === 1;
    return { kind: 'overallSummary', line, header, fields, complete };
  }

  private omniTiming(): OmniTimingRecord {
    const line = this.number();
    const header = this.header();
    const requestId = this.string();
    const identity = this.identity();
    const totalS = this.nullableNumber();
    const preprocessS = this.nullableNumber();
    const engineS = this.nullableNumber();
    const stages: { stageId: number; label: string | null; seconds: number }[] = [];
    for (let count = this.number(); count > 0; count--) {
      const stageId = this.number();
      const label = this.nullableString();
      stages.push({ stageId, label, seconds: this.number() });
    }
    const transfers: { fromStage: number; toStage: number; ms: number }[] = [];
    for (let count = this.number(); count > 0; count--) {
      const fromStage = this.number();
      const toStage = this.number();
      transfers.push({ fromStage, toStage, ms: this.number() });
    }
    const ar2diffusionMs = this.nullableNumber();
    const extra = this.strings2();
    return {
      kind: 'omniTiming',
      line,
      header,
      requestId,
      identity,
      totalS,
      preprocessS,
      engineS,
      stages,
      transfers,
      ar2diffusionMs,
      extra,
    };
  }
}
