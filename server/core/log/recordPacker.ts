// Packs the parser's outputs into batches for another thread (the parsing thread's side of
// recordPack.ts, which says why and how).
import type {
  LogHeader,
  LogRecord,
  OmniTimingRecord,
  ParseOutput,
  RecordIdentity,
  StageColumn,
  StageTableRecord,
  TransferEdge,
} from '../records';
import type { Cell, FieldMap } from '../values';
import { isSafeKey } from './strings';
import {
  OUTPUT,
  OUTPUT_END,
  SIDE_RECORD,
  PROBLEMS,
  STAGE_TABLE,
  TRANSFER_TABLE,
  REQUEST_E2E,
  OMNI_TIMING,
  OVERALL_SUMMARY,
  LAYOUT_FIELDS,
  SIDE_FIELDS,
  DEBUG_ABSENT,
  DEBUG_FALSE,
  DEBUG_TRUE,
  NULL_OBJECT,
  NEW_OBJECT,
  SENT_OBJECT,
  CELL_NUMBER,
  CELL_SAMPLED,
  CELL_NONE,
  CELL_BLANK,
  CELL_TEXT,
  NULL_VALUE,
  SOME_VALUE,
  ABSENT,
  PRESENT,
  SentObjects,
  type PackedBatch,
} from './recordPack';

// Where a field map is packed from (RecordPacker.hints): a table's columns by their place.
const FIELDS_PLACES = 8;
const FIELDS_COLUMN = 0;
const FIELDS_EDGE = FIELDS_PLACES;
const FIELDS_E2E = 2 * FIELDS_PLACES;
const FIELDS_SUMMARY = FIELDS_E2E + 1;

/** Strings of a batch looked for among those added last before one is added. */
const RECENT_STRINGS = 8;

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
    this.nullableString(output.firstLogTime ?? null);
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

/**
 * A header as the parser makes it (prefix.ts): these keys, in this order. A merged log's header
 * (its `source` too) is not packed: its record is sent as it is.
 */
function isHeaderShape(header: LogHeader): boolean {
  return Object.keys(header).length === HEADER_KEYS;
}

/** Whether every value of `values` is a string and no key would set a prototype. */
function stringValues(values: Readonly<Record<string, string>>): boolean {
  for (const key in values) if (typeof values[key] !== 'string' || !isSafeKey(key)) return false;
  return true;
}
