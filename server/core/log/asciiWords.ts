// Comparing text in an ASCII piece by its bytes, 8 at a time.
//
// In V8, `src.substring(a, b) === s` for 13+ characters makes a slice object whose compare
// leaves the fast builtin path (a runtime call, about 30 ns against 9 ns for 12 characters).
// The parser asks such questions of nearly every line (is this the record's prefix? is
// this the predicted row's name cell?). Where the line lies in a piece decoded from ASCII
// bytes (byte i is character i), the bytes are read as float64 through a DataView instead.
// That is exact for ASCII: a top byte below 0x80 can set neither the sign bit nor an
// all-ones exponent, so 8 ASCII bytes never read as NaN or -0, and equal doubles mean
// equal bytes.

export const WORD = 8;

/** Whether bytes [a, a + n) and [b, b + n) of `view` are equal; n >= WORD, both ranges inside the view. */
export function sameBytes(view: DataView, a: number, b: number, n: number): boolean {
  for (let k = 0; k < n - WORD; k += WORD)
    if (view.getFloat64(a + k, true) !== view.getFloat64(b + k, true)) return false;
  return view.getFloat64(a + n - WORD, true) === view.getFloat64(b + n - WORD, true);
}

const scratch = new DataView(new ArrayBuffer(WORD));

function wordOf(text: string, at: number): number {
  for (let i = 0; i < WORD; i++) scratch.setUint8(i, text.charCodeAt(at + i));
  return scratch.getFloat64(0, true);
}

/** A fixed ASCII string of WORD+ characters as float64 words: at 0, 8, 16, …, and last the word ending at its end. */
export class AsciiWords {
  private readonly words: Float64Array;

  private constructor(
    readonly length: number,
    text: string,
  ) {
    const whole = Math.floor(length / WORD);
    this.words = new Float64Array(whole + 1);
    for (let w = 0; w < whole; w++) this.words[w] = wordOf(text, w * WORD);
    this.words[whole] = wordOf(text, length - WORD);
  }

  /** The words of `text`, or null when it is shorter than WORD or not ASCII (compare it as a string). */
  static of(text: string): AsciiWords | null {
    if (text.length < WORD) return null;
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) >= 0x80) return null;
    return new AsciiWords(text.length, text);
  }

  /** Whether the view's bytes at `at` are the string; at + length must lie inside the view. */
  occursAt(view: DataView, at: number): boolean {
    const words = this.words;
    const last = words.length - 1;
    for (let w = 0; w < last; w++) if (view.getFloat64(at + w * WORD, true) !== words[w]) return false;
    return view.getFloat64(at + this.length - WORD, true) === words[last];
  }
}
