// UTF-8 bytes written straight into fixed-size chunks, for the trace, JSON and CSV exports: a
// 100k-request export is millions of small pieces of text, and concatenating them as JS strings
// (or building objects for JSON.stringify) spends most of the time in allocation and GC.
// Constant pieces are encoded once (`constant`); numbers and ASCII text are copied byte by
// byte; other text goes through TextEncoder.

const encoder = new TextEncoder();
// Thousandths below 1e15: the value has at most 15 significant digits, so its 3-decimal text is
// the shortest that reads back as it (as in shortestNumberText); past it, String() is.
const MAX_FIXED = 1e15 - 1;

// The decimals of each number of thousandths 0-999 as written: "" for 0, ".5" for 500, ".125"
// for 125. Made at the first number with decimals, not when the module loads (~2 ms that a
// command writing no JSON, CSV or trace would pay at start).
let fractions: readonly Uint8Array[] | null = null;
function makeFractions(): readonly Uint8Array[] {
  return Array.from({ length: 1000 }, (_, k) => {
    let digits = String(k).padStart(3, '0');
    while (digits.endsWith('0')) digits = digits.slice(0, -1);
    return encoder.encode(digits === '' ? '' : `.${digits}`);
  });
}

/** Writes the digits of a whole number at bytes[pos] (room made by the caller); returns the position after them. */
function wholeDigits(bytes: Uint8Array, pos: number, whole: number): number {
  let digits = 1;
  if (whole <= 0x7fffffff) {
    // Int32 division: V8 turns it into a multiply, where a float division is not.
    for (let t = whole; t >= 10; t = (t / 10) | 0) digits++;
    for (let i = digits - 1, t = whole; i >= 0; i--, t = (t / 10) | 0) bytes[pos + i] = 0x30 + (t % 10);
  } else {
    for (let t = whole; t >= 10; t = Math.floor(t / 10)) digits++;
    for (let i = digits - 1, t = whole; i >= 0; i--, t = Math.floor(t / 10)) bytes[pos + i] = 0x30 + (t % 10);
  }
  return pos + digits;
}

/**
 * Receives a chunk of output and calls `written` once its bytes are out (then the chunk's memory
 * takes the next chunk); a receiver that keeps its chunks never calls it.
 */
export type ChunkSink = (chunk: Uint8Array, written: () => void) => void;

export class ByteChunks {
  private bytes: Uint8Array;
  private pos = 0;
  /** A chunk handed out and written: used for the next one instead of new memory. */
  private spare: Uint8Array | null = null;

  constructor(private readonly chunkBytes: number) {
    this.bytes = new Uint8Array(chunkBytes);
  }

  get length(): number {
    return this.pos;
  }

  /** Encodes text once, for pieces written many times. */
  static constant(text: string): Uint8Array {
    return encoder.encode(text);
  }

  private room(n: number): void {
    if (this.pos + n <= this.bytes.length) return;
    // A chunk only grows for a single piece larger than what is left (a huge request id).
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.pos + n));
    grown.set(this.bytes.subarray(0, this.pos));
    this.bytes = grown;
  }

  /** One ASCII character. */
  byte(c: number): void {
    this.room(1);
    this.bytes[this.pos++] = c;
  }

  raw(piece: Uint8Array): void {
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
   * A number as JSON (non-finite: null). Values with at most 3 decimals (all logged ms, and µs rounded
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
    const frac = abs - whole * 1000;
    pos = wholeDigits(bytes, pos, whole);
    fractions ??= makeFractions();
    const decimals = fractions[frac] as Uint8Array;
    for (let i = 0; i < decimals.length; i++) bytes[pos++] = decimals[i];
    this.pos = pos;
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
    this.bytes = this.spare ?? new Uint8Array(this.chunkBytes);
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
