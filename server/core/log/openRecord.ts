// What the multi-line readers (tables, legacy dicts, the vllm-omni#3069 summary block) share with
// the stream parser: where finished records go, the shared interning state, and the
// contract of a record that is still being read.
import type { LogHeader, LogRecord } from '../records';
import type { CellScanner, TextCells } from './cells';
import type { ColumnReaders } from './columnReaders';
import type { FieldSchema } from './fieldSchema';
import type { Interner } from './strings';
import type { IdentityCache } from './title';

export interface RecordSink {
  record(record: LogRecord): void;
  problem(line: number, message: string): void;
}

/**
 * The decoded piece being read, and its bytes when it is ASCII (lines.ts, LineSink.asciiBytes).
 * A reader may read a line's bytes instead of its string only when the line lies in this
 * piece: bytesOf and viewOf answer that (strings are compared as objects, never by content).
 */
export class AsciiPiece {
  private text = '';
  private bytes: Uint8Array | null = null;
  /** A view over `bytes` (asciiWords.ts), null with them. */
  private view: DataView | null = null;

  /** The piece now read: `bytes` when `text` was decoded from ASCII bytes (byte i is character i), else null. */
  set(text: string, bytes: Uint8Array | null): void {
    this.text = text;
    this.bytes = bytes;
    this.view = bytes === null ? null : new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** The bytes of `src` when it is this piece and the piece is ASCII; else null (read the string). */
  bytesOf(src: string): Uint8Array | null {
    return src === this.text ? this.bytes : null;
  }

  /** A view over the bytes of `src` when it is this piece and the piece is ASCII; else null. */
  viewOf(src: string): DataView | null {
    return src === this.text ? this.view : null;
  }
}

export interface ParseContext {
  readonly sink: RecordSink;
  /** Field names, column headers. */
  readonly names: Interner;
  readonly texts: TextCells;
  /** Reads cells and numbers; what a read found stays on it until the next read (cells.ts). */
  readonly cells: CellScanner;
  /** Column readers of finished tables (tableBuilder.ts). */
  readonly columnReaders: ColumnReaders;
  readonly schemaRoot: FieldSchema;
  readonly identities: IdentityCache;
  /** The piece being read: readers ask it for a line's bytes (AsciiPiece.bytesOf, viewOf). */
  readonly ascii: AsciiPiece;
}

/** The message was not part of this record; the caller closes the record and reads the message anew. */
export const REJECTED = 0;
/** The message was read; the record goes on. */
export const CONSUMED = 1;
/** The message was read and completed the record, which has been emitted. */
export const FINISHED = 2;
export type FeedResult = typeof REJECTED | typeof CONSUMED | typeof FINISHED;

/**
 * A record spanning several lines, read from the lines of one log prefix (one process,
 * level, timestamp and call site; '' for lines without a prefix).
 */
export interface OpenRecord {
  /** The prefix text the lines share ('' for lines without a prefix). */
  readonly key: string;
  /** Process identity (`process|stage`) of the prefix; null for lines without a prefix. */
  readonly processKey: string | null;
  readonly header: LogHeader | null;
  /** The exact raw text before the message on this record's lines, once known: the fast path. */
  rawPrefix: string | null;
  /** Reads the message src[a, b) of line `lineNo`. */
  feed(src: string, a: number, b: number, lineNo: number): FeedResult;
  /** Emits what was read. `supersededAt` is the line that started something else, or null at end of input. */
  close(supersededAt: number | null): void;
}
