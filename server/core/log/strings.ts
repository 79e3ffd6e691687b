// String helpers for a parser that keeps its output for a long time.
// V8 represents a slice of 13+ characters as a view into its parent string, so a request
// id sliced out of a 1 MB decoded chunk would keep the whole chunk alive. Everything a
// record keeps goes through `ownCopy` (or an `Interner`, which copies once per value).
//
// Character codes are written one way in server/core/log: the number, then the character
// in a comment (`c === 124 /* | */`, `32 /* space */`), never a named constant or a
// `charCodeAt` of a literal: the hot loops stay free of imported bindings, and every
// comparison reads the same.

const MIN_SLICE_VIEW = 13;

/** A copy of `s` that owns its characters: it does not keep alive the string it was sliced from. */
export function ownCopy(s: string): string {
  // Concatenation + re-slice forces V8 to flatten into a fresh string of our own.
  return s.length < MIN_SLICE_VIEW ? s : (' ' + s).slice(1);
}

/** Deduplicates the strings a record keeps (field names, text cells, columns). Bounded. */
export class Interner {
  private readonly map = new Map<string, string>();

  constructor(private readonly capacity = 20_000) {}

  get(s: string): string {
    const known = this.map.get(s);
    if (known !== undefined) return known;
    const own = ownCopy(s);
    // Past the capacity (garbage input), values are still copied, just not shared.
    if (this.map.size < this.capacity) this.map.set(own, own);
    return own;
  }
}

/** At most `max` characters of `s` for a problem message, an own copy, with an ellipsis when cut. */
export function snippet(s: string, max = 80): string {
  return ownCopy(s.length <= max ? s : s.slice(0, max) + '…');
}

/**
 * Whether `s` occurs in `src` at `pos`. Same as src.startsWith(s, pos), which V8 runs
 * several times slower in the hot loops here than a substring compare.
 */
export function occursAt(src: string, pos: number, s: string): boolean {
  return src.substring(pos, pos + s.length) === s;
}

/** First index in [a, b) that is not a space or tab; b if none. */
export function skipBlanks(src: string, a: number, b: number): number {
  while (a < b) {
    const c = src.charCodeAt(a);
    if (c !== 32 /* space */ && c !== 9 /* \t */) break;
    a++;
  }
  return a;
}

/** End of [a, b) without trailing spaces and tabs. */
export function trimBlanksEnd(src: string, a: number, b: number): number {
  while (b > a) {
    const c = src.charCodeAt(b - 1);
    if (c !== 32 /* space */ && c !== 9 /* \t */) break;
    b--;
  }
  return b;
}

/** Whether `key` can be an own property of a plain record (`__proto__` would set the prototype). */
export function isSafeKey(key: string): boolean {
  return key !== '__proto__';
}

/** text[a, b) as an integer when it is digits only, at most 9 of them (stage ids, segments); else null. */
export function smallInt(text: string, a: number, b: number): number | null {
  if (b <= a || b - a > 9) return null;
  let n = 0;
  for (let i = a; i < b; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 /* 0 */ || c > 57 /* 9 */) return null;
    n = n * 10 + (c - 48); /* 0 */
  }
  return n;
}
