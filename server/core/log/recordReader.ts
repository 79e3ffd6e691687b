// Lines -> records. Each line is either routed to the multi-line record open on its log
// prefix, or read as the start of a record (a lead-in, a title, an [OmniTiming] line, an
// engine-stats line, a boot marker, the deploy config loaded, a legacy dict), or ignored.
//
// Grouping (docs/formats.md#records-how-lines-group): vLLM writes one log record at once, every line with
// the same prefix (process, level, timestamp, call site), and a process's records never
// interleave with each other, only with other processes' lines. So:
//  - at most one record is open per process; a line of that process with another prefix,
//    an empty message (the "\n%s" lead-in) or a new title ends it;
//  - lines of other processes and lines without a prefix pass by without touching it;
//  - two partial writes are read as such: a line that is only the start of an open record's
//    prefix is that record's line cut short (cutInsidePrefix), and an engine-stats line of the
//    process between two rows of a table is its own record (the table goes on after it).
// Lines without a prefix (pasted tables, markdown) form their own group. So do lines in
// Python's default format (`INFO:vllm_omni.metrics.stats:<message>`): it prints no time
// and no call site, and the lines after the first of a multi-line message carry no prefix,
// so the message is read as a line without one, and its next lines continue it.
// A CI runner's timestamp before the whole line is not part of the prefix: records group
// by the prefix after it, and the raw prefix the fast path compares includes it.
//
// Fast path: a line that starts with the exact raw prefix of the record read last (ANSI
// codes included) is a continuation of it; only the message part is looked at. A plain
// line of an ASCII piece that does not continue it has its prefix read against the shapes
// of earlier prefixes (prefixTemplates.ts) before the scanner is asked.
import type { LogHeader, LogRecord, ParseProblem } from '../records';
import { CellScanner, TextCells } from './cells';
import { bootMarkerOf } from './bootMarkers';
import { deployConfigLineOf, servedModelOf } from './deployConfigLine';
import { parseEngineStats } from './engineStats';
import { FieldSchema } from './fieldSchema';
import { LegacyDictCollector, legacyStartOf } from './legacyDict';
import { LINE_HAS_CARET, LINE_HAS_CR, LINE_HAS_ESC, type LineSink } from './lines';
import { MetricsSummaryCollector, isMetricsSummaryStart } from './metricsSummary';
import { OMNI_TIMING_TAG, parseOmniTiming } from './omniTiming';
import { AsciiPiece, CONSUMED, FINISHED, type OpenRecord, type ParseContext, type RecordSink } from './openRecord';
import { outerPrefixEnd, pythonDefaultPrefix, scanPrefix, searchPrefix, stripAnsi, type ParsedPrefix } from './prefix';
import { PrefixTemplates } from './prefixTemplates';
import { Interner, ownCopy, skipBlanks, snippet } from './strings';
import { ColumnReaders } from './columnReaders';
import { OpenRecords } from './openRecords';
import { sourceTagOf } from './sourceTag';
import { RawPrefixMatcher } from './rawPrefixMatch';
import { TableBuilder, UNTITLED_REQUEST_ID } from './tableBuilder';
import { IdentityCache, parseMarkdownTitle, parseTitle } from './title';

/** Where a message came from. */
interface Origin {
  /** The prefix text, '' for a line without one. */
  readonly key: string;
  /** `process|stage` (the process naming its server in a merged log), or null for a line without a prefix. */
  readonly processKey: string | null;
  readonly header: LogHeader | null;
  readonly rawPrefix: string | null;
}

interface PrefixInfo {
  readonly header: LogHeader;
  readonly processKey: string;
  /** The process prefix's name as printed (the header's process also names the server in a merged log). */
  readonly process: string | null;
  /** The merged log's tag of the server (ParsedPrefix.sourceTag), or null. */
  readonly source: string | null;
}

const BARE: Origin = { key: '', processKey: null, header: null, rawPrefix: null };
/** The slot of the open record of lines without a prefix. */
const BARE_SLOT = '\u0000bare';
const MAX_OPEN_RECORDS = 256;
const RECENT_HEADERS = 8;
const MAX_MARKER_TEXT = 500;
/** Shortest text read as a prefix cut short: past `(APIServer pid=`, so a stray `(` or word is not. */
const MIN_CUT_PREFIX = 16;

export class RecordReader implements LineSink, RecordSink {
  records: LogRecord[] = [];
  problems: ParseProblem[] = [];
  /** A line at DEBUG was read (ParseOutput.debugLines). */
  debugLines = false;
  /** The log time of the first prefixed line (ParseOutput.firstLogTime); null until one is read. */
  firstLogTime: string | null = null;
  private readonly ctx: ParseContext;
  /** Open records by process key (BARE_SLOT for lines without a prefix). */
  private readonly open = new OpenRecords(MAX_OPEN_RECORDS);
  private current: OpenRecord | null = null;
  private readonly recentHeaders: PrefixInfo[] = [];
  private nextHeader = 0;
  private readonly prefixMatch = new RawPrefixMatcher();
  private readonly templates = new PrefixTemplates();

  constructor() {
    this.ctx = {
      sink: this,
      names: new Interner(),
      texts: new TextCells(),
      cells: new CellScanner(),
      columnReaders: new ColumnReaders(),
      schemaRoot: FieldSchema.root(),
      identities: new IdentityCache(),
      ascii: new AsciiPiece(),
    };
  }

  // RecordSink
  record(record: LogRecord): void {
    this.records.push(record);
  }

  problem(line: number, message: string): void {
    this.problems.push({ line, message });
  }

  // LineSink
  asciiBytes(text: string, bytes: Uint8Array | null): void {
    this.ctx.ascii.set(text, bytes);
    if (bytes === null) this.prefixMatch.release();
  }

  line(src: string, start: number, end: number, lineNo: number, flags: number): void {
    const current = this.current;
    if (current !== null) {
      const raw = current.rawPrefix;
      if (
        raw !== null &&
        (flags & (LINE_HAS_CR | LINE_HAS_CARET)) === 0 &&
        this.prefixMatch.matches(raw, src, start, end, this.ctx.ascii.viewOf(src))
      ) {
        const bodyStart = start + raw.length;
        if ((flags & LINE_HAS_ESC) === 0 || !hasEsc(src, bodyStart, end)) {
          const result = current.feed(src, bodyStart, end, lineNo);
          if (result === CONSUMED) return;
          if (result === FINISHED) return this.forget(current);
          this.closeRecord(current, lineNo);
          return this.dispatch(current, src.slice(bodyStart, end), lineNo);
        }
      }
    }
    const view = flags === 0 ? this.ctx.ascii.viewOf(src) : null;
    if (view !== null) {
      const prefix = this.templates.read(src, view, start, end);
      if (prefix !== null) {
        const key = src.slice(start, start + prefix.messageStart);
        const info = this.prefixInfo(prefix);
        this.templates.confirm(info.header);
        return this.prefixedLine(key, src.slice(start + prefix.messageStart, end), info, key, lineNo);
      }
    }
    this.slowLine(src.slice(start, end), lineNo, flags);
  }

  /** A table that may add to a request is still being read (see TableBuilder.mayAddToRequest). */
  get holdsRequestTable(): boolean {
    return this.open.some((record) => record instanceof TableBuilder && record.mayAddToRequest);
  }

  /** Ends the input: every open record is emitted as it stands. */
  finish(): void {
    for (const record of this.open.inOpeningOrder()) this.closeRecord(record, null);
    this.current = null;
  }

  private slowLine(raw: string, lineNo: number, flags: number): void {
    let line = raw;
    if ((flags & LINE_HAS_CR) !== 0) line = line.replace(/\r/g, '');
    if ((flags & (LINE_HAS_ESC | LINE_HAS_CARET)) !== 0) line = stripAnsi(line, (flags & LINE_HAS_CARET) !== 0);
    const scanned = scanPrefix(line);
    const prefix = scanned ?? searchPrefix(line);
    if (prefix === null) {
      // After a merged log's source tag, if any (the servers' bare lines share one record slot).
      const tag = sourceTagOf(line);
      const rest = tag === null ? line : line.slice(tag.end);
      if (this.cutInsidePrefix(rest, lineNo)) return;
      // A line without a prefix, after a CI timestamp or Python's `LEVEL:logger:`: read bare.
      const python = pythonDefaultPrefix(rest);
      if (python !== null && python.level === 'DEBUG') this.debugLines = true;
      return this.bareLine(rest.slice(python === null ? outerPrefixEnd(rest, 0) : python.messageStart), lineNo);
    }
    const key = line.slice(prefix.headerStart, prefix.messageStart);
    const message = line.slice(prefix.messageStart);
    const info = this.prefixInfo(prefix);
    let rawPrefix: string | null = null;
    // The scanner reads a prefix at the start of the line or right after a CI timestamp: the
    // raw prefix then includes the timestamp (the lines of one record usually share it).
    if (prefix.headerStart === 0 || scanned !== null) {
      if ((flags & (LINE_HAS_ESC | LINE_HAS_CARET | LINE_HAS_CR)) === 0) {
        rawPrefix = prefix.headerStart === 0 ? key : line.slice(0, prefix.messageStart);
        if (scanned !== null && scanned.headerStart === 0) this.templates.learn(line, scanned, info.header);
      } else if (flags === LINE_HAS_ESC && raw.endsWith(message)) {
        rawPrefix = raw.slice(0, raw.length - message.length);
      }
    }
    this.prefixedLine(key, message, info, rawPrefix, lineNo);
  }

  /** A line with a prefix that the open record's fast path did not take: its process's open record reads it, or it starts a record. */
  private prefixedLine(key: string, message: string, info: PrefixInfo, rawPrefix: string | null, lineNo: number): void {
    const { header, processKey } = info;
    const open = this.open.get(processKey);
    if (open !== undefined) {
      if (open.key === key) {
        if (rawPrefix !== null) open.rawPrefix = rawPrefix;
        const result = open.feed(message, 0, message.length, lineNo);
        if (result === CONSUMED) {
          this.current = open;
          return;
        }
        if (result === FINISHED) return this.forget(open);
      } else if (open instanceof TableBuilder && open.inBody) {
        // vLLM's stats logger writes from its own task, and stdout and stderr reach one file through
        // their own buffers: its line can land between two rows of a table, which goes on after it.
        const stats = parseEngineStats(message);
        if (stats !== null) return this.record({ kind: 'engineStats', line: lineNo, header, ...stats });
      }
      this.closeRecord(open, lineNo);
    }
    this.dispatch({ key, processKey, header, rawPrefix }, message, lineNo);
  }

  /**
   * A line that is the start of an open record's prefix and nothing more: a write cut short
   * inside the prefix (a partial write). The record's line is lost, not a line without a prefix:
   * a table marks the rows it may have held unread; any other record is cut off there.
   */
  private cutInsidePrefix(line: string, lineNo: number): boolean {
    const text = line.trimEnd();
    if (text.length < MIN_CUT_PREFIX) return false;
    let owner: OpenRecord | null = null;
    const current = this.current;
    if (current !== null && isCutPrefix(text, current.key)) owner = current;
    else
      this.open.some((record) => {
        if (!isCutPrefix(text, record.key)) return false;
        owner = record;
        return true;
      });
    if (owner === null) return false;
    if (owner instanceof TableBuilder) owner.lostLine(lineNo);
    else this.closeRecord(owner, lineNo);
    return true;
  }

  private bareLine(line: string, lineNo: number): void {
    const open = this.open.get(BARE_SLOT);
    if (open !== undefined) {
      const result = open.feed(line, 0, line.length, lineNo);
      if (result === CONSUMED) return;
      if (result === FINISHED) return this.forget(open);
      this.closeRecord(open, lineNo);
    }
    this.dispatch(BARE, line, lineNo);
  }

  /** Reads a message that is not part of an open record. */
  private dispatch(origin: Origin, message: string, lineNo: number): void {
    const first = skipBlanks(message, 0, message.length);
    if (first === message.length) {
      // The "\n%s" lead-in of a table. Lines without a prefix use blank lines freely.
      if (origin.processKey !== null) this.startTable(origin, lineNo).startLeadIn(lineNo);
      return;
    }
    const c = message.charCodeAt(first);
    if (c === 124 /* | */ || c === 43 /* + */) {
      const table = this.startTable(origin, lineNo);
      if (table.feed(message, 0, message.length, lineNo) === FINISHED) this.forget(table);
      return;
    }
    if (c === 91 /* [ */ && first === 0) {
      if (message.startsWith(OMNI_TIMING_TAG)) return this.omniTiming(origin, message, lineNo);
      const title = parseTitle(message, this.ctx.identities);
      if (title !== null) {
        const table = this.startTable(origin, lineNo);
        if (table.startTitle(title, lineNo) === FINISHED) this.forget(table);
        return;
      }
    }
    const legacy = legacyStartOf(message, origin.header?.file ?? null);
    if (legacy !== null) {
      const collector = new LegacyDictCollector(
        this.ctx,
        origin.key,
        origin.processKey,
        origin.header,
        origin.rawPrefix,
        legacy,
        lineNo,
      );
      this.register(origin, collector, lineNo);
      if (collector.begin(message) === FINISHED) this.forget(collector);
      return;
    }
    if (c === 35 /* # */) {
      const title = parseMarkdownTitle(message);
      if (title !== null) {
        this.startTable(origin, lineNo).startTitle(title, lineNo);
        return;
      }
    }
    if (c === 61 /* = */ && isMetricsSummaryStart(message)) {
      this.register(
        origin,
        new MetricsSummaryCollector(this.ctx, origin.key, origin.processKey, origin.header, origin.rawPrefix, lineNo),
        lineNo,
      );
      return;
    }
    const marker = bootMarkerOf(message);
    if (marker !== null) {
      this.record({
        kind: 'bootMarker',
        line: lineNo,
        header: origin.header,
        marker,
        text: ownCopy(message.slice(0, MAX_MARKER_TEXT)),
      });
      return;
    }
    const model = servedModelOf(message);
    if (model !== null)
      this.record({ kind: 'servedModel', line: lineNo, header: origin.header, model: ownCopy(model) });
    const deploy = deployConfigLineOf(message);
    if (deploy !== null) {
      this.record({
        kind: 'deployConfig',
        line: lineNo,
        header: origin.header,
        path: ownCopy(deploy.path),
        from: deploy.from,
      });
      return;
    }
    if (model !== null) return;
    const stats = parseEngineStats(message);
    if (stats !== null) this.record({ kind: 'engineStats', line: lineNo, header: origin.header, ...stats });
  }

  private omniTiming(origin: Origin, message: string, lineNo: number): void {
    const t = parseOmniTiming(message, this.ctx.cells, this.ctx.identities.lastRequestId);
    let id = t.requestId;
    if (t.idMayGoOnWith !== null && id !== null)
      this.problem(
        lineNo,
        `[OmniTiming] line ${lineNo}: its request id ${snippet(id)} may go on with ${snippet(t.idMayGoOnWith)} (the line prints the id as it is, spaces included, and that part names none of its keys); read as ${snippet(id)}`,
      );
    if (id === null || id === '') {
      id = UNTITLED_REQUEST_ID;
      this.problem(
        lineNo,
        `[OmniTiming] line names no req=; its values are reported under the request id ${UNTITLED_REQUEST_ID}`,
      );
    }
    // Shared with the request's other records when it is the same identity.
    const identity = this.ctx.identities.forRequest(id, t.identity);
    this.record({
      kind: 'omniTiming',
      line: lineNo,
      header: origin.header,
      requestId: identity['request_id'] ?? id,
      identity,
      totalS: t.totalS,
      preprocessS: t.preprocessS,
      engineS: t.engineS,
      stages: t.stages,
      transfers: t.transfers,
      ar2diffusionMs: t.ar2diffusionMs,
      extra: t.extra,
    });
  }

  private startTable(origin: Origin, lineNo: number): TableBuilder {
    const table = new TableBuilder(this.ctx, origin.key, origin.processKey, origin.header, origin.rawPrefix);
    table.startLeadIn(lineNo);
    this.register(origin, table, lineNo);
    return table;
  }

  /** Makes `record` the open record of its process; beyond MAX_OPEN_RECORDS processes the oldest is closed. */
  private register(origin: Origin, record: OpenRecord, lineNo: number): void {
    // Process keys are interned (prefixInfo), so they are neither copied nor re-hashed here.
    const oldest = this.open.set(origin.processKey ?? BARE_SLOT, record);
    this.current = record;
    if (oldest !== null) this.closeRecord(oldest, lineNo);
  }

  /** Drops a record that has emitted itself. */
  private forget(record: OpenRecord): void {
    this.open.forget(record.processKey ?? BARE_SLOT, record);
    if (this.current === record) this.current = null;
  }

  private closeRecord(record: OpenRecord, supersededAt: number | null): void {
    this.forget(record);
    record.close(supersededAt);
  }

  /**
   * The header of a prefix and its process key. Records of one request come from a few
   * call sites in the same second, so the last few headers are kept and compared field by
   * field (cheaper than hashing the whole prefix).
   */
  private prefixInfo(p: ParsedPrefix): PrefixInfo {
    const recent = this.recentHeaders;
    for (let i = 0; i < recent.length; i++) {
      const known = recent[i] as PrefixInfo;
      const h = known.header;
      if (
        h.fileLine === p.fileLine &&
        h.stagePrefix === p.stagePrefix &&
        h.level === p.level &&
        h.timestamp === p.timestamp &&
        h.file === p.file &&
        known.process === p.process &&
        known.source === p.sourceTag
      ) {
        return known;
      }
    }
    // Checked only for a header not among the recent ones: every prefixed line's header was new once.
    if (p.level === 'DEBUG') this.debugLines = true;
    if (this.firstLogTime === null) this.firstLogTime = ownCopy(p.timestamp);
    const names = this.ctx.names;
    const last = recent[this.nextHeader === 0 ? recent.length - 1 : this.nextHeader - 1];
    // Reuse the strings of the last header where they are equal (no hashing, no copy).
    const lh = last?.header;
    const process = keptName(names, last?.process, p.process);
    const source = keptName(names, last?.source, p.sourceTag);
    // In a merged log two servers print the same process prefix: the header's process names the server too.
    const serverProcess =
      source === null
        ? process
        : last !== undefined && last.process === process && last.source === source && lh !== undefined
          ? lh.process
          : names.get(process === null ? source : `${source}: ${process}`);
    const fields = {
      level: lh !== undefined && lh.level === p.level ? lh.level : names.get(p.level),
      timestamp: lh !== undefined && lh.timestamp === p.timestamp ? lh.timestamp : ownCopy(p.timestamp),
      file: lh !== undefined && lh.file === p.file ? lh.file : names.get(p.file),
      fileLine: p.fileLine,
      process: serverProcess,
      stagePrefix: p.stagePrefix,
    };
    // Shared by every record of the prefix: frozen. A log of one server's headers have no `source`.
    const header: LogHeader = Object.freeze(source === null ? fields : { ...fields, source });
    const processKey =
      last !== undefined && last.header.process === serverProcess && last.header.stagePrefix === p.stagePrefix
        ? last.processKey
        : names.get(`${serverProcess ?? ''}|${p.stagePrefix ?? ''}`);
    const info: PrefixInfo = { header, processKey, process, source };
    if (recent.length < RECENT_HEADERS) recent.push(info);
    else recent[this.nextHeader] = info;
    this.nextHeader = (this.nextHeader + 1) % RECENT_HEADERS;
    return info;
  }
}

/** `text` as the last header had it where equal (no hashing, no copy), else interned; null stays null. */
function keptName(names: Interner, before: string | null | undefined, text: string | null): string | null {
  return text === null ? null : before === text ? before : names.get(text);
}

/** `text` is `key` (a record's prefix) cut short: a proper start of it. */
function isCutPrefix(text: string, key: string): boolean {
  return key.length > text.length && key.startsWith(text);
}

function hasEsc(src: string, a: number, b: number): boolean {
  const i = src.indexOf('\x1b', a);
  return i !== -1 && i < b;
}
