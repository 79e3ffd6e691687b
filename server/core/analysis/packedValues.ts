// The 4-byte encoding of one cell in a request store's arena. The log prints durations
// with at most three decimals, so almost every number v is k / 1000 for an integer k
// that fits in 32 bits; k / 1000 is then exactly the double the parser produced (IEEE
// division is correctly rounded, as is the parse of the decimal). What does not fit
// (more decimals, huge values, -0, NaN) goes to a side arena of doubles. The lowest part
// of the int32 range is reserved for markers: `None`, text cells, wide numbers.
import { ChunkedFloat64 } from './chunkedArrays';

/** Lowest int32: the cell is an explicit `None`. */
export const SLOT_NONE = -0x80000000;
/** Text cells: SLOT_TEXT + index into the store's text table. */
const SLOT_TEXT = SLOT_NONE + 1;
const TEXT_CAPACITY = 1 << 20;
/** Wide numbers: SLOT_WIDE + index into the side arena of doubles. */
const SLOT_WIDE = SLOT_TEXT + TEXT_CAPACITY;
const WIDE_CAPACITY = (1 << 30) - TEXT_CAPACITY - 1;
/** Smallest scaled value stored in place. */
const SCALED_MIN = SLOT_WIDE + WIDE_CAPACITY;
const SCALED_MAX = 0x7fffffff;

export type SlotKind = 'number' | 'none' | 'text';

/** Encodes numbers, `None` and text cells into int32 slots; decodes them back exactly. */
export class SlotCodec {
  private readonly wide = new ChunkedFloat64();
  private readonly texts: string[] = [];
  private readonly textIndex = new Map<string, number>();

  /** The slot of an explicit `None`. */
  get none(): number {
    return SLOT_NONE;
  }

  /** The slot for a number: scaled in place when exact, otherwise wide. */
  number(v: number): number {
    const k = Math.round(v * 1000);
    if (k >= SCALED_MIN && k <= SCALED_MAX && k / 1000 === v && !Object.is(v, -0)) return k;
    const index = this.wide.push(v);
    return index < WIDE_CAPACITY ? SLOT_WIDE + index : SLOT_WIDE + WIDE_CAPACITY - 1;
  }

  /** The slot for a text cell, or null when the text table is full (the caller keeps it aside). */
  text(s: string): number | null {
    let index = this.textIndex.get(s);
    if (index === undefined) {
      if (this.texts.length >= TEXT_CAPACITY) return null;
      index = this.texts.length;
      this.texts.push(s);
      this.textIndex.set(s, index);
    }
    return SLOT_TEXT + index;
  }

  kindOf(slot: number): SlotKind {
    if (slot === SLOT_NONE) return 'none';
    if (slot < SLOT_WIDE) return 'text';
    return 'number';
  }

  /** The number of a 'number' slot. */
  valueOf(slot: number): number {
    return slot >= SCALED_MIN ? slot / 1000 : this.wide.get(slot - SLOT_WIDE);
  }

  /** The string of a 'text' slot. */
  textOf(slot: number): string {
    return this.texts[slot - SLOT_TEXT] ?? '';
  }

  /** Bytes held outside the V8 heap (typed-array backing stores). */
  get externalBytes(): number {
    return this.wide.externalBytes;
  }
}
