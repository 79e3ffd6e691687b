// The streaming log parser: feed the server's output in chunks as it arrives, get each
// record as soon as it is complete. Keeps only the current partial line and the records
// still open (at most one per process), so memory does not grow with the input.
// Never throws on input; time is linear in the input.
import type { ParseOutput } from '../records';
import { DEFAULT_MAX_LINE_LENGTH, LineSplitter } from './lines';
import { RecordReader } from './recordReader';
import { compressedFormatOf, decompressWith } from './compressedInput';
import { BINARY_HEAD_BYTES, looksBinary } from './binaryInput';
import { looksLikeDeployConfig } from './deployConfigInput';
import { TextDecoder } from 'node:util';
import { countOf } from '../numberText';
import { UTF16_HEAD_BYTES, utf16EncodingOf } from './utf16Input';
import { JsonLinesProbe, JsonLinesUnwrapper, type WrapperField } from './jsonLinesInput';

export interface LogStreamParserOptions {
  /** Longest line kept, in UTF-16 code units; longer lines are cut and reported. Default 1 MiB. */
  readonly maxLineLength?: number;
}

export class LogStreamParser {
  private readonly reader: RecordReader;
  private readonly splitter: LineSplitter;
  private ended = false;
  /** The input's first bytes, until it is known whether they are a compressed file's or binary data. */
  private head: Uint8Array | null = new Uint8Array(BINARY_HEAD_BYTES);
  private headLength = 0;
  /** Bytes held back until there are enough to tell UTF-16 from UTF-8; null once told. */
  private encodingHead: Uint8Array | null = new Uint8Array(0);
  /** Set when the input is UTF-16: its bytes are decoded to text before the line splitter. */
  private utf16: TextDecoder | null = null;
  /** Bytes read while every one was NUL; -1 once one was not (nearly always at the first byte). */
  private nulBytes = 0;
  /** Input held until its first line tells whether it is a JSON-lines log (jsonLinesInput.ts); null once told. */
  private jsonProbe: JsonLinesProbe | null = new JsonLinesProbe();
  /** Set when the input is a JSON-lines log: the lines it wraps go to the line splitter. */
  private jsonLines: JsonLinesUnwrapper | null = null;
  private readonly maxLineLength: number;

  constructor(options: LogStreamParserOptions = {}) {
    this.maxLineLength = options.maxLineLength ?? DEFAULT_MAX_LINE_LENGTH;
    this.reader = new RecordReader();
    this.splitter = new LineSplitter(this.reader, this.maxLineLength);
  }

  /** Reads one chunk (bytes, split anywhere, or text). Returns the records it completed. */
  push(chunk: Uint8Array | string): ParseOutput {
    if (this.ended) return this.afterEnd();
    if (this.head !== null) this.lookAtHead(chunk);
    if (this.nulBytes !== -1) this.countNulHead(chunk);
    const input = this.encodingHead === null && this.utf16 === null ? chunk : this.decodeInput(chunk);
    if (input !== '') this.guard(() => this.feed(input));
    return this.take();
  }

  /** Text or bytes on their way to the line splitter, through the JSON-lines probe and unwrapper. */
  private feed(input: Uint8Array | string): void {
    if (this.jsonLines !== null) {
      this.splitter.push(this.jsonLines.push(input));
      return;
    }
    const probe = this.jsonProbe;
    if (probe === null) {
      this.splitter.push(input);
      return;
    }
    const field = probe.take(input);
    if (field !== undefined) this.release(probe, field);
  }

  /** The probe told (`field`: the log is JSON lines, null: it is not): what it held goes on. */
  private release(probe: JsonLinesProbe, field: WrapperField | null): void {
    this.jsonProbe = null;
    if (field !== null) this.jsonLines = new JsonLinesUnwrapper(field, this.maxLineLength);
    for (const piece of probe.held) this.feed(piece);
  }

  /** The chunk as the line splitter takes it: UTF-16 input as text; '' while the encoding is not yet told. */
  private decodeInput(chunk: Uint8Array | string, end = false): Uint8Array | string {
    if (typeof chunk === 'string') {
      this.encodingHead = null;
      return chunk;
    }
    let bytes = chunk;
    const held = this.encodingHead;
    if (held !== null) {
      if (held.length > 0) {
        bytes = new Uint8Array(held.length + chunk.length);
        bytes.set(held);
        bytes.set(chunk, held.length);
      }
      const encoding = utf16EncodingOf(bytes);
      if (encoding === null && bytes.length < UTF16_HEAD_BYTES && !end) {
        this.encodingHead = bytes;
        return '';
      }
      this.encodingHead = null;
      // The decoder drops a leading byte-order mark.
      if (encoding !== null) this.utf16 = new TextDecoder(encoding);
    }
    if (this.utf16 === null) return bytes;
    return this.utf16.decode(bytes, { stream: !end });
  }

  /** Counts the input's leading NUL bytes until another byte comes: a file of zeros only is said as such at the end. */
  private countNulHead(chunk: Uint8Array | string): void {
    let i = 0;
    if (typeof chunk === 'string') while (i < chunk.length && chunk.charCodeAt(i) === 0) i++;
    else while (i < chunk.length && chunk[i] === 0) i++;
    this.nulBytes = i < chunk.length ? -1 : this.nulBytes + i;
  }

  /** Collects the first bytes of a byte input and says once if they are a compressed file's or binary data. */
  private lookAtHead(chunk: Uint8Array | string): void {
    const head = this.head as Uint8Array;
    if (typeof chunk === 'string') {
      this.head = null;
      return;
    }
    const taken = Math.min(chunk.length, head.length - this.headLength);
    head.set(chunk.subarray(0, taken), this.headLength);
    this.headLength += taken;
    if (this.headLength >= head.length) this.judgeHead();
  }

  private judgeHead(): void {
    if (this.head === null) return;
    const head = this.head.subarray(0, this.headLength);
    this.head = null;
    const format = compressedFormatOf(head);
    if (format !== null) {
      this.reader.problems.push({
        line: 1,
        message: `the input is ${format}-compressed, not a text log: decompress it first (${decompressWith(format).cat})`,
        compressed: format,
      });
    } else if (looksBinary(head)) {
      this.reader.problems.push({ line: 1, message: 'the input is binary data, not a text log', binary: true });
    } else if (looksLikeDeployConfig(head)) {
      this.reader.problems.push({
        line: 1,
        message: 'the input is a vLLM-Omni deploy config (YAML), not a server log',
        deployConfig: true,
      });
    }
  }

  /**
   * A table that may still add to a request is open (being printed, or cut by a pause):
   * the request it belongs to is not final yet, whatever the time since the last byte.
   */
  get holdsRequestTable(): boolean {
    return !this.ended && this.reader.holdsRequestTable;
  }

  /** The line being read (1-based): where a problem of the input's end (gzip data that broke off) is placed. */
  get lastLine(): number {
    return this.fileLine(Math.max(1, this.splitter.currentLine));
  }

  /** The input's line of a line the splitter read: the same but in a JSON-lines log of multi-line messages. */
  private fileLine(line: number): number {
    return this.jsonLines === null || !this.jsonLines.mapsLines ? line : this.jsonLines.fileLineOf(line);
  }

  /** Ends the input: the last line and every record still open (cut off) are emitted. */
  end(): ParseOutput {
    if (this.ended) return this.afterEnd();
    this.ended = true;
    this.judgeHead();
    if (this.encodingHead !== null || this.utf16 !== null) {
      const rest = this.decodeInput(new Uint8Array(0), true);
      if (rest.length > 0) this.guard(() => this.feed(rest));
    }
    const probe = this.jsonProbe;
    if (probe !== null) this.guard(() => this.release(probe, probe.end()));
    const unwrapper = this.jsonLines;
    if (unwrapper !== null) this.guard(() => this.splitter.push(unwrapper.end()));
    this.guard(() => this.splitter.end());
    this.guard(() => this.reader.finish());
    if (this.nulBytes > 0) {
      this.reader.problems.push({
        line: 1,
        message: `the input is ${countOf(this.nulBytes, 'NUL byte')} and nothing else (a zero-filled file), not a text log`,
        zeroFilledBytes: this.nulBytes,
      });
    }
    return this.take();
  }

  private afterEnd(): ParseOutput {
    const line = Math.max(1, this.splitter.currentLine);
    return { records: [], problems: [{ line, message: 'input received after end() was ignored' }] };
  }

  /**
   * Last line of defence: a bug must cost a problem entry (the fuzz test checks there are
   * none), not the caller's stream. Reading goes on with the next line.
   */
  private guard(step: () => void): void {
    try {
      step();
    } catch (e) {
      const line = Math.max(1, this.splitter.currentLine);
      this.reader.problem(line, `internal parser error at line ${line}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private take(): ParseOutput {
    const unwrapper = this.jsonLines;
    if (unwrapper !== null) this.mapLines(unwrapper);
    const out: ParseOutput = {
      records: this.reader.records,
      problems: this.reader.problems,
      debugLines: this.reader.debugLines,
      ...(this.reader.firstLogTime === null ? {} : { firstLogTime: this.reader.firstLogTime }),
    };
    this.reader.records = [];
    this.reader.problems = [];
    return out;
  }

  /** A JSON-lines log's records and problems get the input's line numbers; the unwrapper's problems join them. */
  private mapLines(unwrapper: JsonLinesUnwrapper): void {
    if (unwrapper.mapsLines) {
      for (const r of this.reader.records) (r as { line: number }).line = unwrapper.fileLineOf(r.line);
      this.reader.problems = this.reader.problems.map((p) => ({ ...p, line: unwrapper.fileLineOf(p.line) }));
    }
    if (unwrapper.problems.length > 0) {
      this.reader.problems.push(...unwrapper.problems);
      unwrapper.problems = [];
    }
  }
}

/** Parses a whole log text at once. */
export function parseLogText(text: string, options?: LogStreamParserOptions): ParseOutput {
  const parser = new LogStreamParser(options);
  const first = parser.push(text);
  const last = parser.end();
  return {
    records: [...first.records, ...last.records],
    problems: [...first.problems, ...last.problems],
    debugLines: last.debugLines === true,
    ...(last.firstLogTime === undefined ? {} : { firstLogTime: last.firstLogTime }),
  };
}
