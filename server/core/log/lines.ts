// Bytes in arbitrary chunks -> physical lines. The only state kept between chunks is the
// decoder's partial UTF-8 sequence and the current partial line, so chunks may split
// anywhere (inside a multi-byte character, inside `\r\n`, inside an ANSI escape).
//
// To avoid allocating a string per line, a line is handed on as (src, start, end) over
// the decoded chunk, with flags saying whether it needs cleaning. The flags come from
// one forward-moving search per character of interest, so a chunk without any ESC costs
// a single indexOf for the whole chunk.

import { Buffer, isAscii } from 'node:buffer';
import { TextDecoder } from 'node:util';
import { groupedNumber } from '../numberText';

/** The line contains an ESC (ANSI colour codes). */
export const LINE_HAS_ESC = 1;
/** The line contains a `\r` that is not the `\r` of its `\r\n` ending. */
export const LINE_HAS_CR = 2;
/** The line contains `^[[`, ANSI escapes pasted in caret notation (real-logs 09). */
export const LINE_HAS_CARET = 4;

export const DEFAULT_MAX_LINE_LENGTH = 1 << 20;
/** Bytes decoded into one string at a time (see LineSplitter.push). */
export const DECODE_PIECE_BYTES = 1 << 16;
/** Parts a piece that is not all ASCII is decoded in (see LineSplitter.push). */
export const MIXED_PART_BYTES = 1 << 12;

/** Calls `onPiece` with `bytes` cut into DECODE_PIECE_BYTES pieces, in order (`bytes` itself when it is one piece). */
export function eachDecodePiece(bytes: Uint8Array, onPiece: (piece: Uint8Array) => void): void {
  if (bytes.length <= DECODE_PIECE_BYTES) return onPiece(bytes);
  for (let i = 0; i < bytes.length; i += DECODE_PIECE_BYTES)
    onPiece(bytes.subarray(i, Math.min(bytes.length, i + DECODE_PIECE_BYTES)));
}

/**
 * Decodes a stream of UTF-8 chunks. A chunk of ASCII bytes only (nearly every chunk of a
 * server log) is copied as Latin-1, several times cheaper than the UTF-8 decoder and the
 * same text; that is only right when the decoder holds no partial sequence, i.e. the
 * chunk it decoded last ended on an ASCII byte.
 */
export class ChunkDecoder {
  private decoder: TextDecoder | null = null;
  /** Some bytes were decoded already (a byte-order mark after that is text, not a BOM). */
  private started = false;
  /** The UTF-8 decoder may hold bytes of a partial sequence. */
  private pending = false;
  /** The last decode copied ASCII bytes: its text has one character per byte, the same codes. */
  lastWasAscii = false;

  /** `ascii`: whether the chunk is all ASCII, when the caller has checked already. */
  decode(chunk: Uint8Array, ascii?: boolean): string {
    this.lastWasAscii = false;
    if (chunk.length === 0) return '';
    if (!this.pending && (ascii ?? isAscii(chunk))) {
      this.started = true;
      this.lastWasAscii = true;
      return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('latin1');
    }
    // A BOM is not ASCII, so only this decoder sees one; it drops it only at the very start of the stream.
    this.decoder ??= new TextDecoder('utf-8', { ignoreBOM: this.started });
    this.started = true;
    const text = this.decoder.decode(chunk, { stream: true });
    this.pending = (chunk[chunk.length - 1] as number) >= 0x80;
    return text;
  }

  /** Flushes a partial sequence (as U+FFFD); '' when there is none. */
  end(): string {
    if (!this.pending || this.decoder === null) return '';
    this.pending = false;
    return this.decoder.decode();
  }
}

export interface LineSink {
  /** One physical line: src[start, end) without its `\n` and without the `\r` of a `\r\n`. */
  line(src: string, start: number, end: number, lineNo: number, flags: number): void;
  problem(lineNo: number, message: string): void;
  /**
   * Before the lines of each decoded piece: `bytes` when `text` was decoded from ASCII
   * bytes (bytes[i] === text.charCodeAt(i)), else null; ('', null) once a push is done, so
   * the caller's buffer is not held. V8 reads a Uint8Array faster than a string's codes.
   */
  asciiBytes?(text: string, bytes: Uint8Array | null): void;
}

/**
 * Beyond any index: a JS string is shorter than 2^29 characters. The largest small integer
 * (2^30 - 1) rather than a double, so the positions compared per line stay integers in
 * optimized code (a double here deoptimized the line loop once per process).
 */
const NOT_FOUND = 0x3fffffff;

function find(src: string, needle: string, from: number): number {
  const i = src.indexOf(needle, from);
  return i === -1 ? NOT_FOUND : i;
}

export class LineSplitter {
  private readonly decoder = new ChunkDecoder();
  /** Kept text of the current partial line (at most maxLineLength + 1 characters). */
  private pending = '';
  /** Full length of the current partial line, including characters not kept. */
  private pendingRawLength = 0;
  private pendingLastChar = 0;
  private lineNo = 0;

  constructor(
    private readonly sink: LineSink,
    private readonly maxLineLength = DEFAULT_MAX_LINE_LENGTH,
  ) {}

  push(chunk: Uint8Array | string): void {
    if (typeof chunk === 'string') {
      // A switch from bytes to text ends whatever byte sequence was pending.
      this.feed(this.decoder.end());
      this.feed(chunk);
    } else {
      // Decoded and split 64 KB at a time. Measured: pieces of 16-64 KB parse at the same
      // speed, 128 KB and 1 MB pieces ~20% slower; strings from 128 KB up are V8 large
      // objects, allocated and collected apart from the young generation.
      eachDecodePiece(chunk, (piece) => {
        const ascii = isAscii(piece);
        if (ascii || piece.length <= MIXED_PART_BYTES) return this.decodeAndFeed(piece, ascii);
        // A piece with a few bytes that are not ASCII (a tqdm bar, a name) would decode
        // whole into a two-byte string and be read without the byte fast path, at about
        // half the speed: decoded in small parts, only the parts with such bytes are.
        for (let i = 0; i < piece.length; i += MIXED_PART_BYTES)
          this.decodeAndFeed(piece.subarray(i, Math.min(piece.length, i + MIXED_PART_BYTES)));
      });
      this.sink.asciiBytes?.('', null);
    }
  }

  private decodeAndFeed(bytes: Uint8Array, ascii?: boolean): void {
    const text = this.decoder.decode(bytes, ascii);
    this.sink.asciiBytes?.(text, this.decoder.lastWasAscii ? bytes : null);
    this.feed(text);
  }

  /** Flushes the decoder and the last line (one without a final newline). */
  end(): void {
    this.feed(this.decoder.end());
    if (this.pendingRawLength > 0) this.finishPending();
  }

  /** Number of the last line handed on (0 before the first). */
  get currentLine(): number {
    return this.lineNo;
  }

  private feed(text: string): void {
    const len = text.length;
    let pos = 0;
    // Per piece: skip the per-line searches for characters the piece does not contain. A
    // `\r` is searched line by line (the `\r` of each `\r\n` ends one search): a piece
    // without any costs one search, a `\r\n` piece one per line.
    let nextEsc = text.indexOf('\x1b') === -1 ? NOT_FOUND : -1;
    let nextCr = -1;
    // `^` first: one character is searched several times faster than two.
    let nextCaret = text.indexOf('^') === -1 || text.indexOf('^[') === -1 ? NOT_FOUND : -1;
    while (pos < len) {
      const nl = text.indexOf('\n', pos);
      if (nl === -1) {
        this.appendPending(text, pos, len);
        return;
      }
      if (this.pendingRawLength > 0) {
        this.appendPending(text, pos, nl);
        this.finishPending();
        pos = nl + 1;
        continue;
      }
      this.lineNo++;
      let end = nl;
      if (end > pos && text.charCodeAt(end - 1) === 13 /* \r */) end--;
      if (end - pos > this.maxLineLength) {
        this.reportLong(end - pos);
        end = pos + this.maxLineLength;
      }
      let flags = 0;
      if (nextEsc < pos) nextEsc = find(text, '\x1b', pos);
      if (nextEsc < end) flags |= LINE_HAS_ESC;
      if (nextCr < pos) nextCr = find(text, '\r', pos);
      if (nextCr < end) flags |= LINE_HAS_CR;
      if (nextCaret < pos) nextCaret = find(text, '^[', pos);
      if (nextCaret < end) flags |= LINE_HAS_CARET;
      this.sink.line(text, pos, end, this.lineNo, flags);
      pos = nl + 1;
    }
  }

  private appendPending(text: string, a: number, b: number): void {
    if (b <= a) return;
    const room = this.maxLineLength + 1 - this.pending.length;
    if (room > 0) this.pending += text.slice(a, Math.min(b, a + room));
    this.pendingRawLength += b - a;
    this.pendingLastChar = text.charCodeAt(b - 1);
  }

  private finishPending(): void {
    this.lineNo++;
    const contentLength = this.pendingRawLength - (this.pendingLastChar === 13 /* \r */ ? 1 : 0);
    let line = this.pending;
    if (contentLength > this.maxLineLength) {
      this.reportLong(contentLength);
      line = line.slice(0, this.maxLineLength);
    } else if (contentLength < line.length) {
      line = line.slice(0, contentLength);
    }
    this.pending = '';
    this.pendingRawLength = 0;
    this.pendingLastChar = 0;
    let flags = 0;
    if (line.indexOf('\x1b') !== -1) flags |= LINE_HAS_ESC;
    if (line.indexOf('\r') !== -1) flags |= LINE_HAS_CR;
    if (line.indexOf('^[') !== -1) flags |= LINE_HAS_CARET;
    this.sink.line(line, 0, line.length, this.lineNo, flags);
  }

  private reportLong(length: number): void {
    this.sink.problem(
      this.lineNo,
      `line is ${groupedNumber(length, 0, 0)} characters long; only the first ${groupedNumber(this.maxLineLength, 0, 0)} were read`,
    );
  }
}
