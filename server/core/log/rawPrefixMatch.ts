// The per-line test of the record reader's fast path: does this line start with the raw
// prefix of the record read last? Asked of nearly every line of a log. Within an ASCII
// piece the matcher remembers where the prefix last occurred and compares the line's
// bytes with the bytes there (asciiWords.ts); elsewhere, and to confirm a new prefix or
// piece, it compares strings.
import { WORD, sameBytes } from './asciiWords';

export class RawPrefixMatcher {
  /** The prefix last confirmed by a string compare, the piece it was seen in, and where. */
  private refRaw: string | null = null;
  private refView: DataView | null = null;
  private refStart = 0;

  /**
   * Whether src[start, end) begins with `raw`. `view` is over the bytes `src` was decoded
   * from when they are ASCII (byte i is character i), else null.
   */
  matches(raw: string, src: string, start: number, end: number, view: DataView | null): boolean {
    const n = raw.length;
    // Views are compared as objects, never as strings: pieces are all the same length,
    // and two different strings of one length would be compared character by character.
    if (view !== null && view === this.refView && n >= WORD && raw === this.refRaw) {
      return end - start >= n && sameBytes(view, start, this.refStart, n);
    }
    if (src.substring(start, start + n) !== raw) return false;
    if (view !== null) {
      this.refRaw = raw;
      this.refView = view;
      this.refStart = start;
    }
    return true;
  }

  /** Lets go of the piece (its view holds the caller's buffer): called when a push is done. */
  release(): void {
    this.refRaw = null;
    this.refView = null;
  }
}
