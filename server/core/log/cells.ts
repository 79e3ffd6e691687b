// Table cells as vLLM-Omni's `_format_value` renders them (docs/formats.md#table-cells):
//   ""              absent for that column (an empty list)
//   None            not measured
//   97,920  -154.683  41,299.190   a number (thousands separators, 3 decimals for floats)
//   13.490 (n=51)   mean of a list, with its sample count
//   1.000, 2.500    a list as rendered before June 2026: the mean, with the count
//   nan  inf  -inf  numbers too
//   audio  True     text
// The scanner works on (src, start, end) so table rows are never sliced into substrings.
//
// One grammar, three entry points. A CellScanner (one per parse, ParseContext.cells) reads
// cells and numbers and keeps what the last read found (where it stopped, its number, its
// cell) for the caller to take right after: no object per cell, no double returned boxed.
// Which entry point reads which cell (a cell's spaces and its closing `|` around it):
//
//   cell text                 parseCell (string)     commonCellBytes (ASCII bytes)  plainNumberCellEnd (bytes)
//   97,920  -154.683  0       number                 COMMON_NUMBER                  its `|`
//   1|  (no space before |)   number                 COMMON_NUMBER                  -1
//   13.490 (n=51)             measured(v, 51)        COMMON_CELL measured(v, 51)    -1
//   None                      NOT_MEASURED           COMMON_CELL NOT_MEASURED       -1
//   +1  .5  1e5               number                 NOT_COMMON                     -1
//   16+ digits                number (by Number())   NOT_COMMON                     -1
//   nan  inf  -inf            number                 NOT_COMMON                     -1
//   1.000, 2.500              measured(mean, 2)      NOT_COMMON                     -1
//   audio  True               a shared text cell     NOT_COMMON                     -1
//   (empty)                   undefined              (readCells takes it first: BLANK, not read here)
//
// A number the byte readers take is `-`?, digits with `,` between digits, `.` and digits,
// at most EXACT_DIGITS digits: the string reader reads the same text to the same double
// (log-byte-paths.test.ts); NOT_COMMON and -1 send the cell on to the next entry point
// (tableBuilder.ts readCells: plainNumberCellEnd, then commonCellBytes, then parseCell).
// numberPrefix and exactNumber are the string reader's number, for other records' values.
import { NOT_MEASURED, measured, type Cell, type TextCell } from '../values';
import { ownCopy, occursAt, skipBlanks, trimBlanksEnd } from './strings';

const POW10: readonly number[] = Array.from({ length: 23 }, (_, i) => 10 ** i);
/** Digits a double holds exactly; longer numbers go through Number(). */
const EXACT_DIGITS = 15;

/** commonCellBytes: not one of the common cells (parseCell reads it). */
export const NOT_COMMON = 0;
/** commonCellBytes: a plain number, in `number`. */
export const COMMON_NUMBER = 1;
/** commonCellBytes: another cell, in `cell`. */
export const COMMON_CELL = 2;

/** What one cell holds. `undefined` means absent (an empty cell). */
export type ParsedCell = number | Cell | undefined;

/** Reads cells and numbers (the table above); what a read found is kept here until the next read. */
export class CellScanner {
  /** Where the last read stopped: after a number (numberPrefix), at the cell's closing `|` (commonCellBytes). */
  end = 0;
  /** The cell of the last commonCellBytes that returned COMMON_CELL. */
  cell: Cell = NOT_MEASURED;
  /**
   * The number of the last byte read that found a plain number. Held in a typed array
   * rather than returned: a double returned from a call that is not inlined is boxed in a
   * fresh heap object, one per table cell.
   */
  private readonly found = new Float64Array(1);

  /** The number the last plainNumberCellEnd, or commonCellBytes that returned COMMON_NUMBER, read. */
  get number(): number {
    return this.found[0] as number;
  }

  /**
   * Reads the number at the start of src[a, b): sign, digits with thousands separators,
   * decimals, exponent. Returns NaN when there is none; `end` is where it stopped.
   */
  numberPrefix(src: string, a: number, b: number): number {
    let i = a;
    let negative = false;
    let c = src.charCodeAt(i);
    if (c === 45 /* - */ || c === 43 /* + */) {
      negative = c === 45; /* - */
      i++;
    }
    let mantissa = 0;
    let digits = 0;
    let fractionDigits = 0;
    let sawDigit = false;
    let slow = false;
    for (; i < b; i++) {
      c = src.charCodeAt(i);
      if (c >= 48 /* 0 */ && c <= 57 /* 9 */) {
        mantissa = mantissa * 10 + (c - 48); /* 0 */
        digits++;
        sawDigit = true;
      } else if (c === 44 /* , */) {
        // A thousands separator sits between digits.
        if (!sawDigit || i + 1 >= b) break;
        const next = src.charCodeAt(i + 1);
        if (next < 48 /* 0 */ || next > 57 /* 9 */) break;
      } else break;
    }
    if (i < b && src.charCodeAt(i) === 46 /* . */) {
      i++;
      for (; i < b; i++) {
        c = src.charCodeAt(i);
        if (c < 48 /* 0 */ || c > 57 /* 9 */) break;
        mantissa = mantissa * 10 + (c - 48); /* 0 */
        digits++;
        fractionDigits++;
        sawDigit = true;
      }
    }
    this.end = i;
    if (!sawDigit) return NaN;
    if (i < b) {
      c = src.charCodeAt(i);
      if (c === 101 /* e */ || c === 69 /* E */) {
        // e/E: only when a whole exponent follows.
        let j = i + 1;
        c = src.charCodeAt(j);
        if (c === 45 /* - */ || c === 43 /* + */) j++;
        const expStart = j;
        while (j < b && src.charCodeAt(j) >= 48 /* 0 */ && src.charCodeAt(j) <= 57 /* 9 */) j++;
        if (j > expStart) {
          slow = true;
          i = j;
          this.end = j;
        }
      }
    }
    if (slow || digits > EXACT_DIGITS || fractionDigits >= POW10.length) {
      return Number(src.slice(a, i).replace(/,/g, ''));
    }
    // Both operands are exact doubles, so the quotient is the correctly rounded value.
    const value = fractionDigits === 0 ? mantissa : mantissa / (POW10[fractionDigits] as number);
    return negative ? -value : value;
  }

  /**
   * The number printed in src[a, b) (already trimmed), or NaN when src[a, b) is not exactly
   * a number. `nan` and `inf` are not handled here; see `parseCell`.
   */
  exactNumber(src: string, a: number, b: number): number {
    const v = this.numberPrefix(src, a, b);
    return this.end === b ? v : NaN;
  }

  /**
   * Reads the cell that starts at bytes[i] (its leading spaces skipped) in a table row of an
   * ASCII piece (bytes[k] is the k-th character code) whose last `|` is before b, when it is
   * one of what vLLM-Omni prints in nearly every cell: `-`, digits with thousands separators,
   * `.` and decimals (at most EXACT_DIGITS digits), optionally ` (n=N)` with N plain digits,
   * or `None`; then spaces and the closing `|`, which is then at `end`. Anything else is
   * NOT_COMMON, for parseCell, which reads it as it reads any cell.
   */
  commonCellBytes(bytes: Uint8Array, i: number, b: number): number {
    let c = bytes[i] as number;
    let kind: number;
    let j = i;
    if ((c >= 48 /* 0 */ && c <= 57) /* 9 */ || c === 45 /* - */) {
      const negative = c === 45; /* - */
      if (negative) c = bytes[++j] as number;
      let mantissa = 0;
      let digits = 0;
      let fractionDigits = 0;
      for (; j < b; c = bytes[++j] as number) {
        if (c >= 48 /* 0 */ && c <= 57 /* 9 */) {
          mantissa = mantissa * 10 + (c - 48); /* 0 */
          digits++;
        } else if (
          c !== 44 /* , */ ||
          digits === 0 ||
          j + 1 >= b ||
          (bytes[j + 1] as number) < 48 /* 0 */ ||
          (bytes[j + 1] as number) > 57 /* 9 */
        ) {
          break;
        }
      }
      if (c === 46 /* . */ && j < b) {
        for (c = bytes[++j] as number; j < b && c >= 48 /* 0 */ && c <= 57 /* 9 */; c = bytes[++j] as number) {
          mantissa = mantissa * 10 + (c - 48); /* 0 */
          digits++;
          fractionDigits++;
        }
      }
      if (digits === 0 || digits > EXACT_DIGITS) return NOT_COMMON;
      const value = fractionDigits === 0 ? mantissa : mantissa / (POW10[fractionDigits] as number);
      if (c === 32 /* space */ && bytes[j + 1] === 40 /* ( */) {
        // ` (n=N)`
        if (bytes[j + 2] !== 110 /* n */ || bytes[j + 3] !== 61 /* = */) return NOT_COMMON;
        let n = 0;
        let k = j + 4;
        for (
          c = bytes[k] as number;
          k < b && c >= 48 /* 0 */ && c <= 57 /* 9 */ && k - j < 4 + EXACT_DIGITS;
          c = bytes[++k] as number
        )
          n = n * 10 + (c - 48); /* 0 */
        if (k === j + 4 || c !== 41 /* ) */) return NOT_COMMON;
        this.cell = measured(negative ? -value : value, n);
        kind = COMMON_CELL;
        j = k + 1;
      } else {
        this.found[0] = negative ? -value : value;
        kind = COMMON_NUMBER;
      }
    } else if (
      c === 78 /* N */ &&
      bytes[i + 1] === 111 /* o */ &&
      bytes[i + 2] === 110 /* n */ &&
      bytes[i + 3] === 101 /* e */
    ) {
      this.cell = NOT_MEASURED; // None
      kind = COMMON_CELL;
      j = i + 4;
    } else {
      return NOT_COMMON;
    }
    while (bytes[j] === 32 /* space */) j++;
    if (bytes[j] !== 124 /* | */ || j >= b) return NOT_COMMON;
    this.end = j;
    return kind;
  }

  /**
   * The cell at bytes[i] (its leading spaces skipped) when it is a plain number, the cell in
   * three of four in a log: `-`, digits with thousands separators, `.` and decimals, at most
   * EXACT_DIGITS digits, then one or more spaces and the `|` (before b). Returns where that
   * `|` is, the number in `number`; -1 for anything else, which commonCellBytes then reads
   * from the start (it reads these too: this is its first case, cut small enough for V8 to
   * inline into the row loop, where it saves about a third of a cell's time).
   */
  plainNumberCellEnd(bytes: Uint8Array, i: number, b: number): number {
    let j = i;
    let c = bytes[j] as number;
    const negative = c === 45; /* - */
    if (negative) c = bytes[++j] as number;
    if (c < 48 /* 0 */ || c > 57 /* 9 */) return -1;
    let mantissa = 0;
    let digits = 0;
    let fractionDigits = 0;
    // The row ends with `|` at b - 1, which stops every loop here before b.
    for (;;) {
      if (c >= 48 /* 0 */ && c <= 57 /* 9 */) {
        mantissa = mantissa * 10 + (c - 48); /* 0 */
        digits++;
      } else if (c !== 44 /* , */) {
        break;
      } else {
        // A thousands separator sits between digits (one was read before it).
        const next = bytes[j + 1] as number;
        if (next < 48 /* 0 */ || next > 57 /* 9 */) break;
      }
      c = bytes[++j] as number;
    }
    if (c === 46 /* . */) {
      for (c = bytes[++j] as number; c >= 48 /* 0 */ && c <= 57 /* 9 */; c = bytes[++j] as number) {
        mantissa = mantissa * 10 + (c - 48); /* 0 */
        digits++;
        fractionDigits++;
      }
    }
    if (c !== 32 /* space */ || digits > EXACT_DIGITS) return -1;
    for (c = bytes[++j] as number; c === 32 /* space */; c = bytes[++j] as number);
    if (c !== 124 /* | */ || j >= b) return -1;
    const value = fractionDigits === 0 ? mantissa : mantissa / (POW10[fractionDigits] as number);
    this.found[0] = negative ? -value : value;
    return j;
  }

  /**
   * Parses the cell src[a, b). A plain measured number is returned as a bare number (the
   * common case, kept unboxed); everything else as a Cell; an empty cell as undefined.
   */
  parseCell(src: string, a: number, b: number, texts: TextCells): ParsedCell {
    a = skipBlanks(src, a, b);
    b = trimBlanksEnd(src, a, b);
    if (a === b) return undefined;
    const c = src.charCodeAt(a);
    if ((c >= 48 /* 0 */ && c <= 57) /* 9 */ || c === 45 /* - */ || c === 43 /* + */ || c === 46 /* . */) {
      const v = this.numberPrefix(src, a, b);
      const end = this.end;
      if (end === b) return v;
      if (!Number.isNaN(v) && src.charCodeAt(end) === 32 /* space */) {
        const n = this.sampleCountSuffix(src, end, b);
        if (n >= 0) return measured(v, n);
      }
    } else if (c === 78 /* N */ && b - a === 4 && occursAt(src, a, 'None')) {
      return NOT_MEASURED;
    }
    const text = src.slice(a, b);
    const special = specialNumber(text);
    if (special !== undefined) return special;
    if (text.indexOf(', ') !== -1) {
      const list = this.listMean(text);
      if (list !== undefined) return measured(list.mean, list.count);
    }
    return texts.cell(text);
  }

  /** ` (n=51)` from src[a] to b: the sample count, or -1. */
  private sampleCountSuffix(src: string, a: number, b: number): number {
    if (
      b - a < 6 ||
      src.charCodeAt(a) !== 32 /* space */ ||
      !occursAt(src, a + 1, '(n=') ||
      src.charCodeAt(b - 1) !== 41 /* ) */
    )
      return -1;
    const n = this.exactNumber(src, a + 4, b - 1);
    return Number.isInteger(n) && n >= 0 ? n : -1;
  }

  /** A list cell's elements (`1,404.027, 5,215.880`) in order; null when one is not a number. */
  listElements(src: string, a: number, b: number): number[] | null {
    const parts = src.slice(skipBlanks(src, a, b), trimBlanksEnd(src, a, b)).split(', ');
    const out: number[] = [];
    for (const part of parts) {
      const v = this.exactNumber(part, 0, part.length);
      if (Number.isNaN(v)) return null;
      out.push(v);
    }
    return out;
  }

  /** The pre-June-2026 list rendering: every element `{:,.3f}`, joined by ", ". */
  private listMean(text: string): { mean: number; count: number } | undefined {
    const parts = text.split(', ');
    let sum = 0;
    for (const part of parts) {
      const v = this.exactNumber(part, 0, part.length);
      if (Number.isNaN(v)) return undefined;
      sum += v;
    }
    return { mean: sum / parts.length, count: parts.length };
  }
}

/** `nan`, `inf`, `-inf` as Python prints them. */
function specialNumber(text: string): number | undefined {
  switch (text) {
    case 'nan':
    case '-nan':
      return NaN;
    case 'inf':
      return Infinity;
    case '-inf':
      return -Infinity;
    default:
      return undefined;
  }
}

/** Shared text cells (`audio`, `latent`, `True` repeat on every request). Bounded. */
export class TextCells {
  private readonly map = new Map<string, TextCell>();

  constructor(private readonly capacity = 10_000) {}

  cell(text: string): TextCell {
    const known = this.map.get(text);
    if (known !== undefined) return known;
    const value = ownCopy(text);
    const cell: TextCell = Object.freeze({ state: 'text', value });
    if (this.map.size < this.capacity) this.map.set(value, cell);
    return cell;
  }
}
