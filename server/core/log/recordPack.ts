// The parser's outputs packed for another thread (`analyze` parses a large file in a worker
// thread, server/cli/parseWorker.ts). A structured clone of the records (postMessage, or
// v8.serialize) costs more on the receiving thread than parsing saved it (~4.6 µs a record
// to read back): the records the parser makes on every request are packed by hand instead,
// numbers into a Float64Array (transferred, not copied), strings into one array per batch,
// each field map as its layout's number and its cells. Any other record, and every problem,
// goes as it is (structured clone) in a side array, its place in the order kept.
//
// Unpacked records equal the parser's, key order included (the JSON writer iterates field
// maps): field maps are built by fieldMaps.ts from the same cells, so small integers and
// None share their cells as the parser's do. A header or identity object the parser shares
// between records is shared again by the unpacked ones (a short list of those sent last).
//
// This file: the batch's format, shared by both sides (recordPacker.ts, recordUnpacker.ts).

/** One batch of parse outputs, as posted between threads. */
export interface PackedBatch {
  /** Tags: what comes next, and small values (booleans, cell kinds). */
  readonly tags: Uint8Array<ArrayBuffer>;
  readonly tagCount: number;
  /** Numbers, and indexes into `strings` and into the layouts. */
  readonly numbers: Float64Array<ArrayBuffer>;
  readonly numberCount: number;
  readonly strings: string[];
  /** Records of other kinds and problems, in the order their tags name them. */
  readonly side: unknown[];
  /** Field map layouts first used in this batch (their names, in order), numbered on from the last batch's. */
  readonly layouts: string[][];
}

// Tags.
export const OUTPUT = 1;
export const OUTPUT_END = 2;
export const SIDE_RECORD = 3;
export const PROBLEMS = 4;
export const STAGE_TABLE = 5;
export const TRANSFER_TABLE = 6;
export const REQUEST_E2E = 7;
export const OMNI_TIMING = 8;
export const OVERALL_SUMMARY = 9;

// Field maps: by their layout, or (a layout with a name that would set a prototype) as they are.
export const LAYOUT_FIELDS = 0;
export const SIDE_FIELDS = 1;

// ParseOutput.debugLines
export const DEBUG_ABSENT = 0;
export const DEBUG_FALSE = 1;
export const DEBUG_TRUE = 2;

// Shared objects (headers, identities): sent whole, or as their place in the list of those sent last.
export const NULL_OBJECT = 0;
export const NEW_OBJECT = 1;
export const SENT_OBJECT = 2;
/** Headers and identities remembered: the parser shares each among a few records close together. */
export const SHARED_KEPT = 16;

// Cells.
export const CELL_NUMBER = 0;
export const CELL_SAMPLED = 1;
export const CELL_NONE = 2;
export const CELL_BLANK = 3;
export const CELL_TEXT = 4;

// Nullable numbers and strings.
export const NULL_VALUE = 0;
export const SOME_VALUE = 1;

// An optional key (a column's label): absent or present.
export const ABSENT = 0;
export const PRESENT = 1;

/** Objects sent last, each with its number: a ring both sides keep alike. */
export class SentObjects<T> {
  readonly objects: (T | undefined)[] = new Array<T | undefined>(SHARED_KEPT).fill(undefined);
  next = 0;

  indexOf(object: T): number {
    // The one sent last first: most records share the previous one's.
    const objects = this.objects;
    for (let k = 0, i = (this.next + SHARED_KEPT - 1) % SHARED_KEPT; k < SHARED_KEPT; k++) {
      if (objects[i] === object) return i;
      i = i === 0 ? SHARED_KEPT - 1 : i - 1;
    }
    return -1;
  }

  add(object: T): void {
    this.objects[this.next] = object;
    this.next = (this.next + 1) % SHARED_KEPT;
  }
}
