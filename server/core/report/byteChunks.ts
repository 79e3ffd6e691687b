// UTF-8 bytes written straight into fixed-size chunks, for the trace, JSON and CSV exports: a
// 100k-request export is millions of small pieces of text, and concatenating them as JS strings
// (or building objects for JSON.stringify) spends most of the time in allocation and GC.
// Constant pieces are encoded once (`constant`); numbers and ASCII text are copied byte by
// byte; other text goes through TextEncoder.
import { isAscii } from 'node:buffer';
import { WORD } from '../log/asciiWords';

const encoder = new TextEncoder();
// Thousandths below 1e15: the value has at most 15 significant digits, so its 3-decimal text is
// the shortest that reads back as it (as in shortestNumberText); past it, String() is.
const MAX_FIXED = 1e15 - 1;

// "00".."99" as pairs of ASCII digits: whole numbers are written two digits per Int32
// division, and a number's decimals from one pair and a digit (about half the time of a
// digit per division and a table of encoded decimals, in a warmed-up loop over a log's values).
const DIGIT_PAIRS = new Uint8Array(200);
for (let i = 0; i < 100; i++) {
  DIGIT_PAIRS[2 * i] = 0x30 + ((i / 10) | 0);
  DIGIT_PAIRS[2 * i + 1] = 0x30 + (i % 10);
}

/** Decimal digits of 0 <= n <= 2^31. */
function digitCount(n: number): number {
  if (n < 10) return 1;
  if (n < 100) return 2;
  if (n < 1000) return 3;
  if (n < 10000) return 4;
  if (n < 100000) return 5;
  if (n < 1000000) return 6;
  if (n < 10000000) return 7;
  if (n < 100000000) return 8;
  return n < 1000000000 ? 9 : 10;
}

/** Writes the digits of a whole number at bytes[pos] (room made by the caller); returns the position after them. */
function wholeDigits(bytes: Uint8Array, pos: number, whole: number): number {
  if (whole > 0x80000000) {
    let digits = 1;
    for (let t = whole; t >= 10; t = Math.floor(t / 10)) digits++;
    for (let i = digits - 1, t = whole; i >= 0; i--, t = Math.floor(t / 10)) bytes[pos + i] = 0x30 + (t % 10);
    return pos + digits;
  }
  const end = pos + digitCount(whole);
  // Int32 division: V8 turns it into a multiply, where a float division is not.
  let i = end;
  let t = whole;
  while (t >= 100) {
    const q = (t / 100) | 0;
    const pair = 2 * (t - q * 100);
    bytes[--i] = DIGIT_PAIRS[pair + 1] as number;
    bytes[--i] = DIGIT_PAIRS[pair] as number;
    t = q;
  }
  // The one or two leading digits, at pos.
  if (t >= 10) {
    bytes[pos + 1] = DIGIT_PAIRS[2 * t + 1] as number;
    bytes[pos] = DIGIT_PAIRS[2 * t] as number;
  } else bytes[pos] = 0x30 + t;
  return end;
}

/** Writes `.ddd` for 1-999 thousandths without its trailing zeros (nothing for 0); returns the position after it. */
function decimals(bytes: Uint8Array, pos: number, thousandths: number): number {
  if (thousandths === 0) return pos;
  const hundredths = (thousandths / 10) | 0;
  const last = thousandths - hundredths * 10;
  const second = DIGIT_PAIRS[2 * hundredths + 1] as number;
  bytes[pos++] = 0x2e;
  bytes[pos++] = DIGIT_PAIRS[2 * hundredths] as number;
  if (last !== 0) {
    bytes[pos++] = second;
    bytes[pos++] = 0x30 + last;
  } else if (second !== 0x30) bytes[pos++] = second;
  return pos;
}

function viewOf(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * Text encoded once and written many times (a member name, a separator). An ASCII piece is
 * also kept as float64 words, 8 bytes each, the last one padded with zeros: written with one
 * store per word, about 3x faster than byte by byte for the 5-35 byte names of a request's
 * JSON. Exact for ASCII (see log/asciiWords.ts): 8 bytes below 0x80 never read as NaN, which
 * V8 could change when storing it. (Unlike log/asciiWords.ts, whose last word overlaps the one
 * before so that a compare never reads past a line, a piece's last word is padded: pieces of
 * 1-7 bytes take one store, and whole-JSON runs measured 2.5% faster than with the overlap.)
 */
export class Piece {
  readonly length: number;
  readonly words: Float64Array | null;

  constructor(readonly bytes: Uint8Array) {
    this.length = bytes.length;
    this.words = isAscii(bytes) ? wordsOf(bytes) : null;
  }
}

function wordsOf(bytes: Uint8Array): Float64Array {
  const count = Math.ceil(bytes.length / WORD);
  const padded = new Uint8Array(count * WORD);
  padded.set(bytes);
  const view = viewOf(padded);
  const words = new Float64Array(count);
  for (let i = 0; i < count; i++) words[i] = view.getFloat64(i * WORD, true);
  return words;
}

/**
 * Receives a chunk of output and calls `written` once its bytes are out (then the chunk's memory
 * takes the next chunk); a receiver that keeps its chunks never calls it.
 */
export type ChunkSink = (chunk: Uint8Array, written: () => void) => void;

export class ByteChunks {
  private bytes: Uint8Array;
  /** Over `bytes`, for copying ASCII pieces a word at a time. */
  private view: DataView;
  private pos = 0;
  /** A chunk handed out and written: used for the next one instead of new memory. */
  private spare: Uint8Array | null = null;

  constructor(private readonly chunkBytes: number) {
    this.bytes = new Uint8Array(chunkBytes);
    this.view = viewOf(this.bytes);
  }

  get length(): number {
    return this.pos;
  }

  /** Encodes text once, for pieces written many times. */
  static constant(text: string): Piece {
    return new Piece(encoder.encode(text));
  }

  private room(n: number): void {
    if (this.pos + n <= this.bytes.length) return;
    // A chunk only grows for a single piece larger than what is left (a huge request id).
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.pos + n));
    grown.set(this.bytes.subarray(0, this.pos));
    this.setBytes(grown);
  }

  private setBytes(bytes: Uint8Array): void {
    this.bytes = bytes;
    this.view = viewOf(bytes);
  }

  /** One ASCII character. */
  byte(c: number): void {
    this.room(1);
    this.bytes[this.pos++] = c;
  }

  /** A constant piece (ByteChunks.constant). */
  raw(piece: Piece): void {
    const n = piece.length;
    const words = piece.words;
    if (words !== null && this.pos + n + WORD <= this.bytes.length) {
      // Whole words: the last one may write up to 7 bytes past the piece, where the next write
      // goes (they are never handed out: a chunk ends at pos).
      const view = this.view;
      let at = this.pos;
      for (let i = 0; i < words.length; i++, at += WORD) view.setFloat64(at, words[i] as number, true);
      this.pos += n;
      return;
    }
    this.copyBytes(piece.bytes);
  }

  private copyBytes(piece: Uint8Array): void {
    const n = piece.length;
    this.room(n);
    // A loop beats TypedArray.set for short pieces; set beats the loop past ~16 bytes.
    if (n > 16) {
      this.bytes.set(piece, this.pos);
      this.pos += n;
      return;
    }
    const bytes = this.bytes;
    let pos = this.pos;
    for (let i = 0; i < n; i++) bytes[pos++] = piece[i];
    this.pos = pos;
  }

  /** Any text, as UTF-8. */
  text(s: string): void {
    const n = s.length;
    this.room(n * 3);
    const bytes = this.bytes;
    let pos = this.pos;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) {
        pos += encoder.encodeInto(s.slice(i), bytes.subarray(pos)).written;
        break;
      }
      bytes[pos++] = c;
    }
    this.pos = pos;
  }

  /**
   * A number as JSON (non-finite: null). Values with at most 3 decimals (all logged ms, and microseconds rounded
   * to ns) are written digit by digit, without making a string.
   */
  number(v: number): void {
    if ((v | 0) === v) {
      // An Int32 (counts, ids, lines; -0 is written 0, as JSON.stringify does).
      this.room(12);
      let pos = this.pos;
      if (v < 0) this.bytes[pos++] = 0x2d;
      this.pos = wholeDigits(this.bytes, pos, v < 0 ? -v : v);
      return;
    }
    if (!Number.isFinite(v)) {
      // JSON has no NaN/Infinity; callers keep them out, this keeps the document valid regardless.
      this.text('null');
      return;
    }
    const k = Math.round(v * 1000);
    if (k / 1000 !== v || k > MAX_FIXED || k < -MAX_FIXED) {
      this.text(String(v));
      return;
    }
    this.room(24);
    const bytes = this.bytes;
    let pos = this.pos;
    let abs = k;
    if (abs < 0) {
      bytes[pos++] = 0x2d;
      abs = -abs;
    }
    // Int32 division where it fits (see wholeDigits).
    const whole = abs <= 0x7fffffff ? (abs / 1000) | 0 : Math.floor(abs / 1000);
    pos = wholeDigits(bytes, pos, whole);
    this.pos = decimals(bytes, pos, abs - whole * 1000);
  }

  /** A JSON string literal of s (plain ASCII without quotes or escapes is copied as is). */
  string(s: string): void {
    const n = s.length;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c < 0x20 || c === 0x22 || c === 0x5c || c >= 0x7f) {
        this.text(JSON.stringify(s));
        return;
      }
    }
    this.room(n + 2);
    const bytes = this.bytes;
    let pos = this.pos;
    bytes[pos++] = 0x22;
    for (let i = 0; i < n; i++) bytes[pos++] = s.charCodeAt(i);
    bytes[pos++] = 0x22;
    this.pos = pos;
  }

  /** A non-negative integer in lowercase hex. */
  hex(v: number): void {
    this.room(14);
    const bytes = this.bytes;
    let digits = 1;
    for (let t = v; t >= 16; t = Math.floor(t / 16)) digits++;
    for (let i = digits - 1, t = v; i >= 0; i--, t = Math.floor(t / 16)) {
      const d = t % 16;
      bytes[this.pos + i] = d < 10 ? 0x30 + d : 0x57 + d;
    }
    this.pos += digits;
  }

  /** The bytes so far, and a fresh chunk for what follows (a recycled one when there is one). */
  take(): Uint8Array {
    const out = this.bytes.subarray(0, this.pos);
    this.setBytes(this.spare ?? new Uint8Array(this.chunkBytes));
    this.spare = null;
    this.pos = 0;
    return out;
  }

  /** The bytes so far, to `sink`; their memory is used again once the sink says they are written. */
  takeTo(sink: ChunkSink): void {
    const chunk = this.take();
    sink(chunk, () => this.recycle(chunk));
  }

  /**
   * A chunk from take() whose bytes have been written out: its memory takes the next chunk.
   * Fresh memory costs a page fault per 4 KB as it is first written: reusing one chunk took
   * 0.1-0.2 s off a cold `analyze --format json|csv` of the 200 MB bench log.
   */
  recycle(chunk: Uint8Array): void {
    if (this.spare === null && chunk.buffer !== this.bytes.buffer && chunk.buffer.byteLength === this.chunkBytes)
      this.spare = new Uint8Array(chunk.buffer);
  }
}
