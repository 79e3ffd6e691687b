// A log kept by a container runtime or a log shipper wraps each line the server printed in a JSON
// object: Docker's json-file driver, Fluentd and Fluent Bit keep it in `log` (with its newline),
// journalctl -o json in `MESSAGE`, Loki's logcli --output jsonl in `line`, Google Cloud Logging's
// exports in `textPayload`, JSON log formatters in `message` or `msg` (OpenTelemetry's in `body`).
// Read as text, such a file's stats tables are lost: every row is inside an escaped JSON string.
// Told from the input's first non-blank line (a JSON object with one of those fields a string),
// each line is replaced by its field's text. A value of several lines (a JSON formatter logs a whole table as one message)
// gives them all, and the line numbers of records and problems are mapped back to the file's lines.
// A formatter's message gets back the prefix vLLM's text formatter prints (jsonFormatterPrefix.ts).
import { TextDecoder } from 'node:util';
import type { ParseProblem } from '../records';
import { formatterPrefixOf } from './jsonFormatterPrefix';

/** Fields that hold the wrapped log line, in the order they are looked for. */
export const WRAPPER_FIELDS = ['log', 'MESSAGE', 'message', 'msg', 'body', 'textPayload', 'line'] as const;
export type WrapperField = (typeof WRAPPER_FIELDS)[number];

/** Fields a log formatter writes the bare message in: the printed line's prefix is in other fields. */
const MESSAGE_FIELDS: ReadonlySet<WrapperField> = new Set(['message', 'msg', 'body']);
/** Input looked at for a first line before it is read as plain text. */
export const JSON_PROBE_MAX_CHARS = 1 << 16;
/** Breakpoints of the line map kept (three numbers each): a record is never open across more. */
const MAX_LINE_RUNS = 1 << 16;

type Piece = Uint8Array | string;

/** The wrapper field of a JSON-lines log whose first line is `line`, or null: not one. */
export function wrapperFieldOf(line: string): WrapperField | null {
  const entry = jsonObject(line);
  return entry === null ? null : wrappedField(entry, null);
}

function jsonObject(line: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/**
 * The text of `entry[field]`: a string, or the byte array journalctl -o json writes for a message
 * that is not printable UTF-8 (a colour code's ESC); null for anything else.
 */
function wrappedText(entry: Record<string, unknown>, field: WrapperField): string | null {
  const value = entry[field];
  if (typeof value === 'string') return value;
  if (field !== 'MESSAGE' || !Array.isArray(value)) return null;
  const bytes = value as unknown[];
  for (const b of bytes) if (typeof b !== 'number' || !Number.isInteger(b) || b < 0 || b > 255) return null;
  return textDecoder.decode(Uint8Array.from(bytes as number[]));
}

const textDecoder = new TextDecoder('utf-8');

/** `preferred` when `entry` holds its text, else the first wrapper field it holds. */
function wrappedField(entry: Record<string, unknown>, preferred: WrapperField | null): WrapperField | null {
  if (preferred !== null && wrappedText(entry, preferred) !== null) return preferred;
  for (const f of WRAPPER_FIELDS) if (wrappedText(entry, f) !== null) return f;
  return null;
}

function isBlank(code: number): boolean {
  // Space, tab, CR, LF; a byte-order mark, as text or as its UTF-8 bytes.
  return (
    code === 32 ||
    code === 9 ||
    code === 13 ||
    code === 10 ||
    code === 0xfeff ||
    code === 0xef ||
    code === 0xbb ||
    code === 0xbf
  );
}

function codeAt(piece: Piece, i: number): number {
  return typeof piece === 'string' ? piece.charCodeAt(i) : (piece[i] as number);
}

function newlineAt(piece: Piece, from: number): number {
  return typeof piece === 'string' ? piece.indexOf('\n', from) : piece.indexOf(10, from);
}

/** The pieces as one text (bytes decoded as UTF-8). */
function textOf(pieces: readonly Piece[]): string {
  const decoder = new TextDecoder('utf-8');
  let text = '';
  for (const p of pieces) text += typeof p === 'string' ? p : decoder.decode(p, { stream: true });
  return text + decoder.decode();
}

/**
 * Holds the input's first pieces until its first non-blank line tells whether it is a JSON-lines
 * log. Each piece is scanned once, so tiny pieces (a live tail) cost no more than large ones.
 */
export class JsonLinesProbe {
  readonly held: Piece[] = [];
  private heldLength = 0;
  /** The first non-blank character was a `{`. */
  private opened = false;

  /** Takes the next piece: the wrapper field, null (not a JSON-lines log), or undefined (not told yet). */
  take(piece: Piece): WrapperField | null | undefined {
    this.held.push(piece);
    let i = 0;
    if (!this.opened) {
      while (i < piece.length && isBlank(codeAt(piece, i))) i++;
      if (i < piece.length) {
        if (codeAt(piece, i) !== 123) return null;
        this.opened = true;
      }
    }
    const newline = this.opened ? newlineAt(piece, i) : -1;
    if (newline !== -1) return this.verdict(newline);
    this.heldLength += piece.length;
    return this.heldLength > JSON_PROBE_MAX_CHARS ? null : undefined;
  }

  /** The input ended: told from what is held. */
  end(): WrapperField | null {
    return this.opened ? this.verdict(-1) : null;
  }

  /** Judged on the held text up to `newline` in the last piece (-1: all of it). */
  private verdict(newline: number): WrapperField | null {
    const last = this.held.length - 1;
    const pieces = newline === -1 ? this.held : [...this.held.slice(0, last), this.held[last]!.slice(0, newline)];
    return wrapperFieldOf(textOf(pieces).trim());
  }
}

/**
 * A JSON-lines log's pieces in, the log lines they wrap out. Keeps the current partial line and
 * the line map's recent breakpoints only.
 */
export class JsonLinesUnwrapper {
  private readonly decoder = new TextDecoder('utf-8');
  private partial = '';
  /** The current line passed its limit: the rest of it is given as it is. */
  private overlong = false;
  /** Lines of the input read, and of the text given. */
  private fileLine = 0;
  private textLine = 0;
  /** The line map: for each input line that gave other than one line, its first text line, its count and its line. */
  private runs: number[] = [];
  /** Lines that were not wrapped log lines, and the last of them. */
  private unwrapped = 0;
  private lastUnwrapped = 0;
  problems: ParseProblem[] = [];

  constructor(
    readonly field: WrapperField,
    /** The longest line kept by the line splitter; a wrapped line is escaped, so its limit is larger. */
    private readonly maxLineLength: number,
  ) {}

  /** The text of the log lines the piece completes. */
  push(piece: Piece): string {
    const text = typeof piece === 'string' ? piece : this.decoder.decode(piece, { stream: true });
    const out: string[] = [];
    let start = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
      const rest = text.slice(start, nl);
      if (this.overlong) {
        out.push(rest, '\n');
        this.given(1);
        this.overlong = false;
      } else this.line(this.partial === '' ? rest : this.partial + rest, out);
      this.partial = '';
      start = nl + 1;
    }
    this.keepPartial(text.slice(start), out);
    return out.join('');
  }

  /** The input ended: its last line, without a newline. */
  end(): string {
    const out: string[] = [];
    this.keepPartial(this.decoder.decode(), out);
    if (this.overlong) this.overlong = false;
    else if (this.partial !== '') this.line(this.partial, out);
    this.partial = '';
    if (this.unwrapped > 1)
      this.problems.push({
        line: this.lastUnwrapped,
        message: `${this.unwrapped} lines of this JSON-lines log (the last at line ${this.lastUnwrapped}) were not JSON objects with a string "${this.field}" field: they were read as plain text`,
      });
    return out.join('');
  }

  private keepPartial(rest: string, out: string[]): void {
    if (rest === '') return;
    if (this.overlong) {
      out.push(rest);
      return;
    }
    this.partial += rest;
    if (this.partial.length > 4 * this.maxLineLength) {
      // Given as it is: the line splitter cuts it and says so.
      out.push(this.partial);
      this.partial = '';
      this.overlong = true;
    }
  }

  private line(raw: string, out: string[]): void {
    // A byte-order mark before the first line (text input keeps it: only a decoder drops it).
    const start = this.fileLine === 0 && raw.charCodeAt(0) === 0xfeff ? 1 : 0;
    const line = raw.slice(start, raw.endsWith('\r') ? -1 : raw.length);
    if (line.trim() === '') {
      out.push('\n');
      return this.given(1);
    }
    const entry = jsonObject(line);
    const field = entry === null ? null : wrappedField(entry, this.field);
    if (entry === null || field === null) {
      this.lastUnwrapped = this.fileLine + 1;
      if (this.unwrapped++ === 0)
        this.problems.push({
          line: this.fileLine + 1,
          message: `line ${this.fileLine + 1} is not a JSON object with a string "${this.field}" field, as this JSON-lines log's first line is: read as plain text`,
        });
      out.push(line, '\n');
      return this.given(1);
    }
    const printed = wrappedText(entry, field) as string;
    const prefix = MESSAGE_FIELDS.has(field) ? formatterPrefixOf(entry) : null;
    // vLLM's text formatter prefixes every line of a message.
    const value = prefix === null ? printed : prefix + printed.replace(/\n(?!$)/g, `\n${prefix}`);
    // A CRI log's partial line (logtag P) goes on in the next entry.
    const partial = entry['logtag'] === 'P';
    const ended = partial || value.endsWith('\n');
    out.push(value);
    if (!ended) out.push('\n');
    this.given(newlines(value) + (ended ? 0 : 1));
  }

  /** One input line gave `count` lines of text. */
  private given(count: number): void {
    this.fileLine++;
    if (count !== 1) {
      // The older half let go, three numbers a breakpoint.
      if (this.runs.length >= 3 * MAX_LINE_RUNS) this.runs = this.runs.slice(3 * (MAX_LINE_RUNS >> 1));
      this.runs.push(this.textLine + 1, count, this.fileLine);
    }
    this.textLine += count;
  }

  /** Whether a text line's number can differ from its input line's. */
  get mapsLines(): boolean {
    return this.runs.length > 0;
  }

  /** The input line (1-based) that gave text line `line`. */
  fileLineOf(line: number): number {
    const runs = this.runs;
    let lo = 0;
    let hi = runs.length / 3 - 1;
    let at = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if ((runs[3 * mid] as number) <= line) {
        at = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (at === -1) {
      // Before the first breakpoint kept: lines one for one up to it.
      return runs.length === 0 ? line : Math.max(1, (runs[2] as number) - ((runs[0] as number) - line));
    }
    const textStart = runs[3 * at] as number;
    const count = runs[3 * at + 1] as number;
    const fileLine = runs[3 * at + 2] as number;
    return line < textStart + count ? fileLine : fileLine + 1 + (line - textStart - count);
  }
}

function newlines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
