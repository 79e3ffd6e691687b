// One stats table, read line by line (docs/formats.md#tables):
//   [Title [k=v]]            (after an optional empty "\n%s" lead-in line)
//   +-------+-----+          top border
//   | Field | 0   |          header: `Field | Value`, `Field | 0 | 1 | 1_2`, `Field | 0->1`
//   +-------+-----+
//   | name  | 1.0 |          body rows, fields found by name
//   +-------+-----+          bottom border: the table is complete
// Also read: the maintainers' markdown transcription (`#### Title`, `|---|` separator,
// no borders) and borderless, headerless rows right after a title (real-logs 15).
// Table rows are the bulk of a log, so rows are scanned in place with indexOf/charCodeAt.
import { mapPacked } from '../arrays';
import type { LogHeader, RecordIdentity, StageColumn, TransferEdge, UnreadRows } from '../records';
import { BLANK, type FieldMap } from '../values';
import { COMMON_CELL, COMMON_NUMBER, NOT_COMMON } from './cells';
import { AsciiWords } from './asciiWords';
import type { ColumnReader } from './columnReaders';
import type { FieldSchema } from './fieldSchema';
import { CONSUMED, FINISHED, REJECTED, type FeedResult, type OpenRecord, type ParseContext } from './openRecord';
import { ownCopy, isSafeKey, occursAt, skipBlanks, smallInt, snippet, trimBlanksEnd } from './strings';
import { parseTitle, type TableTitle } from './title';
import { STAGE_WALL_TIMES_ROW, withStageWallTimes } from './stageWallTimes';

const AWAIT_TITLE = 0;
const TITLED = 1;
const TOP_BORDER = 2;
const HEADER_READ = 3;
const BODY = 4;

export const UNTITLED_REQUEST_ID = '(untitled)';
/** Rows after which repeats are looked up in a set rather than along the schema. */
const LONG_TABLE = 64;

/**
 * `N` -> stage N segment 1; `N_k` -> stage N segment k; `N:name` (vllm-omni#3069's branch, whose
 * name may hold `_`: `1:stage_1`) -> stage N segment 1 named name; anything else -> no stage id.
 */
function stageOfColumn(header: string): { stageId: number | null; segment: number; label?: string } {
  const underscore = header.indexOf('_');
  if (underscore === -1) {
    const stageId = smallInt(header, 0, header.length);
    return stageId === null ? labelledStage(header) : { stageId, segment: 1 };
  }
  const stageId = smallInt(header, 0, underscore);
  const segment = smallInt(header, underscore + 1, header.length);
  return stageId === null || segment === null ? labelledStage(header) : { stageId, segment };
}

/** `N:name`, read only where the header is no `N` or `N_k`. */
function labelledStage(header: string): { stageId: number | null; segment: number; label?: string } {
  const colon = header.indexOf(':');
  const stageId = colon === -1 ? null : smallInt(header, 0, colon);
  return stageId === null || colon === header.length - 1
    ? { stageId: null, segment: 1 }
    : { stageId, segment: 1, label: header.slice(colon + 1) };
}

/** `a->b`. */
function stagesOfEdge(header: string): { fromStage: number | null; toStage: number | null } {
  const arrow = header.indexOf('->');
  const fromStage = arrow === -1 ? null : smallInt(header, 0, arrow);
  const toStage = arrow === -1 ? null : smallInt(header, arrow + 2, header.length);
  return fromStage === null || toStage === null ? { fromStage: null, toStage: null } : { fromStage, toStage };
}

/** Longest name cell (`| name<padding> |`) kept on a schema node. */
const MAX_ROW_CELL = 256;

/**
 * Where the `|` after the name is when the row at src[a] (its first `|`) names `predicted`;
 * -1 otherwise. PrettyTable pads the name column to one width, so the whole name cell,
 * padding included, repeats from table to table and is compared in one go once known.
 */
function predictedNameCellEnd(
  src: string,
  a: number,
  b: number,
  view: DataView | null,
  predicted: FieldSchema,
): number {
  const known = predicted.rowCell;
  if (known !== null) {
    const words = predicted.rowCellWords;
    if (view !== null && words !== null ? a + words.length <= b && words.occursAt(view, a) : occursAt(src, a, known))
      return a + known.length - 1;
  }
  if (src.charCodeAt(a + 1) !== 32 /* space */ || !occursAt(src, a + 2, predicted.name)) return -1;
  let i = a + 2 + predicted.name.length;
  while (src.charCodeAt(i) === 32 /* space */) i++;
  if (src.charCodeAt(i) !== 124 /* | */) return -1;
  if (i - a < MAX_ROW_CELL) {
    predicted.rowCell = ownCopy(src.slice(a, i + 1));
    predicted.rowCellWords = AsciiWords.of(predicted.rowCell);
  }
  return i;
}

function isSeparatorStart(src: string, i: number): boolean {
  const c = src.charCodeAt(i);
  return c === 45 /* - */ || c === 58; /* : */
}

interface LostLine {
  readonly line: number;
  readonly after: string;
  before: string | null;
  /** A row cut short whose values before the cut were read. */
  readonly keptOf: string | null;
}

export class TableBuilder implements OpenRecord {
  rawPrefix: string | null;
  private state = AWAIT_TITLE;
  private title: TableTitle | null = null;
  private startLine = 0;
  private bordered = false;
  /** Column headers after `Field`, as printed. */
  private columnNames: string[] = [];
  private columns: ColumnReader[] = [];
  private rowSchema: FieldSchema;
  private rowCount = 0;
  private partialRowLine = 0;
  private cellCountReported = false;
  private duplicateReported = false;
  private rowNames: Set<string> | null = null;
  /** Lines of the table that were lost (cut short, or cut inside their prefix), with the rows they may have held. */
  private lost: LostLine[] | null = null;
  /** The last lost line's rows run on to the next row read. */
  private gapOpen = false;
  /** The row being read was cut short: its missing cells are expected, not a problem of their own. */
  private readingCutRow = false;
  /** The elements of an [Overall Summary]'s `stage_wall_time_ms` list (stageWallTimes.ts); null before one. */
  private stageWallTimes: number[] | null = null;

  constructor(
    private readonly ctx: ParseContext,
    readonly key: string,
    readonly processKey: string | null,
    readonly header: LogHeader | null,
    rawPrefix: string | null,
  ) {
    this.rawPrefix = rawPrefix;
    this.rowSchema = ctx.schemaRoot;
  }

  /** Starts at a title line. Returns FINISHED for `[title] <empty>`, which is emitted at once. */
  startTitle(title: TableTitle, lineNo: number): FeedResult {
    this.title = title;
    this.startLine = lineNo;
    this.state = TITLED;
    if (title.empty) {
      this.emit(true);
      return FINISHED;
    }
    return CONSUMED;
  }

  /** Starts at the empty lead-in line of `logger.info("\n%s", table)`. */
  startLeadIn(lineNo: number): void {
    this.startLine = lineNo;
    this.state = AWAIT_TITLE;
  }

  feed(src: string, a: number, b: number, lineNo: number): FeedResult {
    a = skipBlanks(src, a, b);
    if (a === b) return this.emptyLine();
    const c = src.charCodeAt(a);
    if (c === 124 /* | */) {
      return this.row(src, a, trimBlanksEnd(src, a, b), lineNo);
    }
    if (c === 43 /* + */) return this.border(lineNo);
    if (this.state === AWAIT_TITLE) {
      const title = parseTitle(src.slice(a, b), this.ctx.identities);
      return title === null ? REJECTED : this.startTitle(title, lineNo);
    }
    return REJECTED;
  }

  /**
   * Whether this table, once finished, may add to a request: a request table (E2E, stage,
   * transfer) or one whose title has not been read yet. Live capture does not finalize a
   * request while such a table is open (its rest may belong to that request).
   */
  get mayAddToRequest(): boolean {
    const kind = this.title?.kind;
    return kind === undefined || kind === 'e2e' || kind === 'stage' || kind === 'transfer';
  }

  /**
   * A line of this table that could not be read (a write cut short): the rows it may have held,
   * from after the last row read to the next one read, are unknown, not hidden.
   */
  lostLine(lineNo: number): void {
    this.openGap(lineNo, this.rowSchema.name, null);
  }

  /** A lost line from after row `after`; its range of unknown rows runs on to the next row read. */
  private openGap(line: number, after: string, keptOf: string | null): void {
    if (this.gapOpen) return;
    (this.lost ??= []).push({ line, after, before: null, keptOf });
    this.gapOpen = true;
  }

  /**
   * A row cut short (the log was truncated, or another writer interrupted it): its last value
   * may be missing digits, so it is not read; the values before it, each closed by its `|`, are.
   * The row's other columns and the rows up to the next one read are unknown.
   */
  private cutRow(src: string, a: number, b: number, lineNo: number): void {
    this.partialRowLine = lineNo;
    const after = this.rowSchema.name;
    const lastBar = src.lastIndexOf('|', b - 1);
    const firstEnd = src.indexOf('|', a + 1);
    if (this.state === BODY && firstEnd !== -1 && firstEnd < lastBar) {
      const nameStart = skipBlanks(src, a + 1, firstEnd);
      const nameEnd = trimBlanksEnd(src, nameStart, firstEnd);
      this.readingCutRow = true;
      this.bodyRow(src, nameStart, nameEnd, firstEnd, lastBar + 1, lineNo);
      this.readingCutRow = false;
    }
    this.openGap(lineNo, after, this.rowSchema.name === after ? null : this.rowSchema.name);
  }

  private closeGap(next: string): void {
    const lost = this.lost as LostLine[];
    (lost[lost.length - 1] as LostLine).before = next;
    this.gapOpen = false;
  }

  /** Reading body rows (past the header). */
  get inBody(): boolean {
    return this.state === BODY;
  }

  close(supersededAt: number | null): void {
    if (this.state === AWAIT_TITLE) return; // a lead-in without a table: nothing was printed
    if (this.isUnknown()) return this.reportUnknown();
    // A table without borders (markdown, real-logs 15) has no end marker: it ends where
    // something else starts, and is whole if it has rows.
    const complete = !this.bordered && this.rowCount > 0;
    if (!complete) {
      const where = supersededAt === null ? 'the end of the input' : `line ${supersededAt}`;
      const partial = this.partialRowLine > 0 ? `; the row at line ${this.partialRowLine} was cut and not read` : '';
      this.ctx.sink.problem(
        this.startLine,
        `${this.describe()} starting at line ${this.startLine} was cut off by ${where} (${this.rowCount} complete rows kept${partial})`,
      );
    }
    this.emit(complete);
  }

  private isUnknown(): boolean {
    return this.title === null || this.title.kind === 'unknown';
  }

  /** A table this parser has no record for: said once, with its size, if it had rows. */
  private reportUnknown(): void {
    this.releaseColumns();
    if (this.rowCount === 0) return;
    const what = this.title === null ? 'a table without a title' : `unrecognised table [${this.title.name}]`;
    this.ctx.sink.problem(this.startLine, `${what} (${this.rowCount} rows) was not read`);
  }

  private describe(): string {
    const t = this.title;
    if (t === null) return 'table';
    const id = t.identity?.['request_id'];
    return id === undefined ? `[${t.name}] table` : `[${t.name} request_id=${id}] table`;
  }

  private emptyLine(): FeedResult {
    // Markdown puts a blank line between the heading and the table.
    if (this.state === TITLED && this.title?.markdown === true) return CONSUMED;
    return REJECTED;
  }

  private border(lineNo: number): FeedResult {
    switch (this.state) {
      case AWAIT_TITLE:
        this.startUntitled(lineNo);
        this.bordered = true;
        this.state = TOP_BORDER;
        return CONSUMED;
      case TITLED:
        this.bordered = true;
        this.state = TOP_BORDER;
        return CONSUMED;
      case TOP_BORDER:
        return CONSUMED;
      case HEADER_READ:
        this.state = BODY;
        return CONSUMED;
      default:
        // The bottom border ends the table.
        this.bordered = true;
        if (this.isUnknown()) this.reportUnknown();
        else this.emit(true);
        return FINISHED;
    }
  }

  private startUntitled(lineNo: number): void {
    this.title = null;
    this.startLine = lineNo;
  }

  /** A `|` line: src[a] is `|`, b is the end without trailing blanks. */
  private row(src: string, a: number, b: number, lineNo: number): FeedResult {
    if (this.state === BODY && src.charCodeAt(b - 1) === 124 /* | */) {
      // Fast path: the row most likely is the one that followed the previous row last time.
      const predicted = this.rowSchema.lastChild;
      if (predicted !== null) {
        const nameEnd = predictedNameCellEnd(src, a, b, this.ctx.ascii.viewOf(src), predicted);
        if (nameEnd !== -1) {
          this.rowSchema = predicted;
          this.rowCount++;
          if (this.rowNames !== null) this.rowNames.add(predicted.name);
          if (this.gapOpen) this.closeGap(predicted.name);
          this.readCells(src, predicted.name, nameEnd, b, lineNo);
          return CONSUMED;
        }
      }
    }
    if (this.state === AWAIT_TITLE) {
      this.startUntitled(lineNo);
      this.state = TITLED;
    }
    if (b - a < 2 || src.charCodeAt(b - 1) !== 124 /* | */) {
      this.cutRow(src, a, b, lineNo);
      return CONSUMED;
    }
    const firstEnd = src.indexOf('|', a + 1);
    const nameStart = skipBlanks(src, a + 1, firstEnd);
    const nameEnd = trimBlanksEnd(src, nameStart, firstEnd);
    if (nameStart < nameEnd && isSeparatorStart(src, nameStart)) {
      // Markdown `|---|---|` under the header.
      if (this.state === HEADER_READ) this.state = BODY;
      return CONSUMED;
    }
    if (this.state === TITLED || this.state === TOP_BORDER) {
      if (this.state === TOP_BORDER || src.slice(nameStart, nameEnd).toLowerCase() === 'field') {
        this.readHeader(src, firstEnd, b);
        this.state = HEADER_READ;
        return CONSUMED;
      }
      this.startHeaderless(src, firstEnd, b, lineNo);
    }
    this.state = BODY;
    this.bodyRow(src, nameStart, nameEnd, firstEnd, b, lineNo);
    return CONSUMED;
  }

  private readHeader(src: string, p: number, b: number): void {
    const names: string[] = [];
    while (p < b - 1) {
      const q = src.indexOf('|', p + 1);
      const s = skipBlanks(src, p + 1, q);
      names.push(this.ctx.names.get(src.slice(s, trimBlanksEnd(src, s, q))));
      p = q;
    }
    this.setColumns(names);
  }

  private startHeaderless(src: string, p: number, b: number, lineNo: number): void {
    let count = 0;
    for (let q = p; q < b - 1; q = src.indexOf('|', q + 1)) count++;
    const names = Array.from({ length: count }, (_, i) => this.ctx.names.get(String(i)));
    this.setColumns(names);
    if (this.isUnknown()) return; // reported as a whole when it ends
    this.ctx.sink.problem(
      lineNo,
      `${this.describe()} at line ${this.startLine} has no header row; its ${count} value columns were taken as stages 0..${count - 1}`,
    );
  }

  private setColumns(names: string[]): void {
    const single = this.title?.kind === 'overall' || this.title?.kind === 'e2e';
    // Single-value tables read only the `Value` column.
    this.columnNames = single ? names.slice(0, 1) : names;
    this.releaseColumns();
    this.columns = this.ctx.columnReaders.take(this.columnNames.length);
  }

  private bodyRow(src: string, nameStart: number, nameEnd: number, p: number, b: number, lineNo: number): void {
    if (nameStart === nameEnd) {
      this.ctx.sink.problem(lineNo, 'table row without a field name was not read');
      return;
    }
    // The row name most likely is the one that followed the previous row last time.
    let name: string;
    const predicted = this.rowSchema.lastChild;
    if (
      predicted !== null &&
      predicted.name.length === nameEnd - nameStart &&
      occursAt(src, nameStart, predicted.name)
    ) {
      name = predicted.name;
      this.rowSchema = predicted;
    } else {
      const text = src.slice(nameStart, nameEnd);
      if (!isSafeKey(text)) return;
      name = this.ctx.names.get(text);
      if (this.isRepeat(name)) {
        if (!this.duplicateReported) {
          this.duplicateReported = true;
          this.ctx.sink.problem(lineNo, `${this.describe()} repeats the row ${snippet(name)}; the repeat was not read`);
        }
        return;
      }
      this.rowSchema = this.rowSchema.child(name);
    }
    this.rowCount++;
    if (this.gapOpen) this.closeGap(name);
    this.readCells(src, name, p, b, lineNo);
  }

  /** Whether the table already has a row `name` (a set once tables get long: linear time on garbage). */
  private isRepeat(name: string): boolean {
    if (this.rowCount < LONG_TABLE) return this.rowSchema.contains(name);
    if (this.rowNames === null) this.rowNames = new Set(this.rowSchema.names);
    if (this.rowNames.has(name)) return true;
    this.rowNames.add(name);
    return false;
  }

  /** The value cells of a row: src[p] is the `|` after the name, src[b - 1] the last `|`. */
  private readCells(src: string, name: string, p: number, b: number, lineNo: number): void {
    const columns = this.columns;
    const n = columns.length;
    let k = 0;
    const cells = this.ctx.cells;
    const bytes = this.ctx.ascii.bytesOf(src);
    while (p < b - 1) {
      let i = p + 1;
      if (bytes !== null) while (bytes[i] === 32 /* space */) i++;
      else while (src.charCodeAt(i) === 32 /* space */) i++;
      let q: number;
      const column = k < n ? (columns[k] as ColumnReader) : null;
      if (bytes !== null && column !== null) {
        q = cells.plainNumberCellEnd(bytes, i, b);
        if (q !== -1) {
          column.addNumber(name, cells.number);
          k++;
          p = q;
          continue;
        }
      }
      if (src.charCodeAt(i) === 124 /* | */) {
        // A blank cell: printed, with nothing in it (not a hidden row, not None).
        q = i;
        column?.addCell(name, BLANK);
      } else {
        // Plain numbers, (n=N) and None of ASCII pieces from the bytes; anything else (and
        // every cell of a piece that is not ASCII) through parseCell.
        const kind = bytes === null ? NOT_COMMON : cells.commonCellBytes(bytes, i, b);
        if (kind === COMMON_NUMBER) {
          q = cells.end;
          column?.addNumber(name, cells.number);
        } else if (kind === COMMON_CELL) {
          q = cells.end;
          column?.addCell(name, cells.cell);
        } else {
          q = src.indexOf('|', i);
          const cell = cells.parseCell(src, p + 1, q, this.ctx.texts);
          // Only a cell that is no plain number gets here: the list of stageWallTimes.ts.
          if (name === STAGE_WALL_TIMES_ROW && this.title?.kind === 'overall' && typeof cell === 'object')
            this.stageWallTimes = cells.listElements(src, p + 1, q);
          if (column !== null) {
            if (cell === undefined) column.addCell(name, BLANK);
            else if (typeof cell === 'number') column.addNumber(name, cell);
            else column.addCell(name, cell);
          }
        }
      }
      k++;
      p = q;
    }
    // A row short of cells (not what PrettyTable prints): the missing ones were not printed, so they are absent.
    for (let m = k; m < n; m++) (columns[m] as ColumnReader).addAbsent(this.rowSchema.parent ?? this.rowSchema);
    if (
      k !== n &&
      !this.readingCutRow &&
      this.title?.kind !== 'overall' &&
      this.title?.kind !== 'e2e' &&
      !this.cellCountReported
    ) {
      this.cellCountReported = true;
      this.ctx.sink.problem(lineNo, `${this.describe()}: row ${snippet(name)} has ${k} values for ${n} columns`);
    }
  }

  /** `reachedEnd`: the table ended as printed (its bottom border, or the end of a borderless one). */
  private emit(reachedEnd: boolean): void {
    if (this.lost !== null) this.reportLost(reachedEnd);
    this.emitRecord(reachedEnd && this.lost === null, this.unreadRows(reachedEnd));
    this.releaseColumns();
  }

  /** Each lost line, with the rows it leaves unknown; one that ran to a cut-off end is said by close(). */
  private reportLost(reachedEnd: boolean): void {
    for (const g of this.lost as LostLine[]) {
      if (g.before === null && !reachedEnd) continue;
      const from = g.after === '' ? 'from its first row' : `after ${snippet(g.after)}`;
      const to = g.before === null ? 'to its end' : `before ${snippet(g.before)}`;
      const kept =
        g.keptOf === null ? 'not read' : `read only up to the cut (the values of ${snippet(g.keptOf)} before it)`;
      this.ctx.sink.problem(
        g.line,
        `${this.describe()} at line ${this.startLine}: line ${g.line} was cut short (a partial write) and ${kept}; the values it may have held (rows by name ${from} ${to}) are unknown, not hidden`,
      );
    }
  }

  /** The ranges of rows not read, when a line was lost (records.ts). */
  private unreadRows(reachedEnd: boolean): UnreadRows[] | undefined {
    const lost = this.lost;
    if (lost === null) return undefined;
    const rows: UnreadRows[] = lost.map((g) => ({ after: g.after, before: g.before }));
    if (!reachedEnd && !this.gapOpen) rows.push({ after: this.rowSchema.name, before: null });
    return rows;
  }

  /** Gives the column readers back for the next tables (their cells have been read). */
  private releaseColumns(): void {
    if (this.columns.length === 0) return;
    this.ctx.columnReaders.give(this.columns);
    this.columns = [];
  }

  private emitRecord(complete: boolean, unreadRows: UnreadRows[] | undefined): void {
    const title = this.title;
    if (title === null || title.kind === 'unknown') return;
    const header = this.header;
    const line = this.startLine;
    switch (title.kind) {
      case 'overall':
        this.ctx.sink.record({
          kind: 'overallSummary',
          line,
          header,
          fields: withStageWallTimes(this.singleFields(), this.stageWallTimes),
          complete,
        });
        return;
      case 'e2e': {
        const { requestId, identity } = this.requestIdentity(title);
        this.ctx.sink.record({
          kind: 'requestE2E',
          line,
          header,
          requestId,
          identity,
          fields: this.singleFields(),
          complete,
        });
        return;
      }
      case 'stage': {
        const { requestId, identity } = this.requestIdentity(title);
        const columns: StageColumn[] = mapPacked(this.columns, (reader, i) => {
          const column = this.columnNames[i] as string;
          const { stageId, segment, label } = stageOfColumn(column);
          const fields = reader.fields(this.rowSchema);
          return label === undefined
            ? { column, stageId, segment, fields }
            : { column, stageId, segment, label, fields };
        });
        const rows = this.rowSchema.names;
        this.ctx.sink.record(
          unreadRows === undefined
            ? { kind: 'stageTable', line, header, requestId, identity, columns, rows, complete }
            : { kind: 'stageTable', line, header, requestId, identity, columns, rows, complete, unreadRows },
        );
        return;
      }
      case 'transfer': {
        const { requestId, identity } = this.requestIdentity(title);
        const edges: TransferEdge[] = mapPacked(this.columns, (reader, i) => {
          const edge = this.columnNames[i] as string;
          return { edge, ...stagesOfEdge(edge), fields: reader.fields(this.rowSchema) };
        });
        this.ctx.sink.record({ kind: 'transferTable', line, header, requestId, identity, edges, complete });
        return;
      }
    }
  }

  private singleFields(): FieldMap {
    const reader = this.columns[0];
    return reader === undefined ? {} : reader.fields(this.rowSchema);
  }

  private requestIdentity(title: TableTitle): { requestId: string; identity: RecordIdentity } {
    const identity = title.identity ?? {};
    const requestId = identity['request_id'];
    if (requestId !== undefined && requestId !== '') return { requestId, identity };
    this.ctx.sink.problem(
      this.startLine,
      `[${title.name}] table at line ${this.startLine} names no request_id; its values are reported under the request id ${UNTITLED_REQUEST_ID}`,
    );
    return { requestId: UNTITLED_REQUEST_ID, identity };
  }
}
