// The explain index's per-request numbers, packed: each request stores only the values it
// has (a stage it did not run, a part it did not measure cost nothing), 4 bytes each, in
// one arena; which value is where is a layout shared by every request of the same shape
// (nearly all requests of a deployment have one of a few). Durations are whole thousandths
// of a ms (the log prints 3 decimals; sums and differences of printed values stay whole
// thousandths), kept exactly in an int32; anything else goes to a side map.
import { ChunkedInt32 } from '../analysis/chunkedArrays';

const MISSING = -0x80000000;
const WIDE = MISSING + 1;
const SCALED_MIN = WIDE + 1;

interface Layout {
  /** The value names (ordinals) in this layout, in slot order. */
  readonly ordinals: Int32Array;
  /** ordinal -> slot, -1 when absent; ordinals registered after the layout are absent. */
  readonly slotOf: Int32Array;
}

/** A growable Int32Array. */
class IntList {
  private data = new Int32Array(1024);
  length = 0;

  push(v: number): void {
    if (this.length === this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = v;
  }

  at(i: number): number {
    return this.data[i];
  }

  /** The backing array (valid up to length; replaced when it grows). */
  get raw(): Int32Array {
    return this.data;
  }

  get bytes(): number {
    return this.data.byteLength;
  }
}

export class RowArena {
  private readonly ordinals = new Map<string, number>();
  private readonly names: string[] = [];
  private readonly layouts: Layout[] = [];
  /** Layout ids by a hash of their ordinals. */
  private readonly layoutsByHash = new Map<number, number[]>();
  private readonly rowLayout = new IntList();
  private readonly rowOffset = new IntList();
  private readonly arena = new ChunkedInt32();
  private readonly wide = new Map<number, number>();
  private lastLayout = -1;

  /** The ordinal of a value name, registered on first use. */
  ordinal(name: string): number {
    let o = this.ordinals.get(name);
    if (o === undefined) {
      o = this.names.length;
      this.names.push(name);
      this.ordinals.set(name, o);
    }
    return o;
  }

  /** The ordinal of a name already registered, or -1. */
  find(name: string): number {
    return this.ordinals.get(name) ?? -1;
  }

  get rows(): number {
    return this.rowLayout.length;
  }

  /**
   * Appends a row: the values valueOf[ordinals[k]] for k < count, ordinals distinct (rows of
   * one shape name them in one order: the order is the layout's), values finite. Read from the caller's buffers; nothing is allocated for a
   * row of the same shape as the row before.
   */
  addRow(ordinals: ArrayLike<number>, count: number, valueOf: Float64Array): void {
    const id = this.layoutFor(ordinals, count);
    const start = count === 0 ? 0 : this.arena.reserve(count);
    if (count > 0) {
      const chunk = this.arena.chunkOf(start);
      const base = ChunkedInt32.offsetIn(start);
      for (let slot = 0; slot < count; slot++) {
        const v = valueOf[ordinals[slot]];
        const scaled = Math.round(v * 1000);
        if (scaled >= SCALED_MIN && scaled <= 0x7fffffff && Math.abs(scaled / 1000 - v) < 1e-6) {
          chunk[base + slot] = scaled;
        } else {
          chunk[base + slot] = WIDE;
          this.wide.set(start + slot, v);
        }
      }
    }
    this.rowLayout.push(id);
    this.rowOffset.push(start);
  }

  private layoutFor(ordinals: ArrayLike<number>, count: number): number {
    // Most rows have the shape of the row before; the rest one of a few seen before, found by a hash of their ordinals.
    if (this.sameLayout(this.lastLayout, ordinals, count)) return this.lastLayout;
    let hash = count;
    for (let i = 0; i < count; i++) hash = Math.imul(hash ^ ordinals[i], 0x9e3779b1) >>> 0;
    let ids = this.layoutsByHash.get(hash);
    if (ids !== undefined) {
      for (const id of ids) {
        if (this.sameLayout(id, ordinals, count)) return (this.lastLayout = id);
      }
    } else this.layoutsByHash.set(hash, (ids = []));
    const own = Int32Array.from({ length: count }, (_, i) => ordinals[i]);
    const slotOf = new Int32Array(this.names.length).fill(-1);
    own.forEach((o, slot) => (slotOf[o] = slot));
    const id = this.layouts.length;
    this.layouts.push({ ordinals: own, slotOf });
    ids.push(id);
    return (this.lastLayout = id);
  }

  private sameLayout(id: number, ordinals: ArrayLike<number>, count: number): boolean {
    const layout = this.layouts[id];
    if (layout === undefined || layout.ordinals.length !== count) return false;
    const own = layout.ordinals;
    for (let i = 0; i < count; i++) if (own[i] !== ordinals[i]) return false;
    return true;
  }

  /** The value `ordinal` of `row`, or NaN when the row does not have it. */
  get(row: number, ordinal: number): number {
    const layout = this.layouts[this.rowLayout.at(row)];
    const slot = ordinal < layout.slotOf.length ? layout.slotOf[ordinal] : -1;
    if (slot < 0) return Number.NaN;
    const at = this.rowOffset.at(row) + slot;
    const cell = this.arena.chunkOf(at)[ChunkedInt32.offsetIn(at)];
    if (cell >= SCALED_MIN) return cell / 1000;
    return cell === WIDE ? (this.wide.get(at) ?? Number.NaN) : Number.NaN;
  }

  /**
   * Reads the value `ordinal` of each of `rows` into out[0..rows.length) (NaN where a row
   * does not have it): one slot lookup per layout, not per row; the loop a query spends
   * its time in.
   */
  readColumn(ordinal: number, rows: Int32Array, out: Float64Array): void {
    const slots = new Int32Array(this.layouts.length);
    for (let l = 0; l < this.layouts.length; l++) {
      const slotOf = this.layouts[l].slotOf;
      slots[l] = ordinal >= 0 && ordinal < slotOf.length ? slotOf[ordinal] : -1;
    }
    const layoutOf = this.rowLayout.raw;
    const offsetOf = this.rowOffset.raw;
    const arena = this.arena;
    for (let k = 0; k < rows.length; k++) {
      const row = rows[k];
      const slot = slots[layoutOf[row]];
      if (slot < 0) {
        out[k] = Number.NaN;
        continue;
      }
      const at = offsetOf[row] + slot;
      const cell = arena.chunkOf(at)[ChunkedInt32.offsetIn(at)];
      out[k] = cell >= SCALED_MIN ? cell / 1000 : this.unscaled(cell, at);
    }
  }

  /** A cell that holds no scaled value: a wide one (from the side map) or a missing one. Out of the loop: rare. */
  private unscaled(cell: number, at: number): number {
    return cell === WIDE ? (this.wide.get(at) ?? Number.NaN) : Number.NaN;
  }

  get bytes(): number {
    return this.arena.externalBytes + this.rowLayout.bytes + this.rowOffset.bytes + this.wide.size * 40;
  }
}

/** One named value of every row, read as a column. */
export interface Column {
  get(row: number): number;
  /** out[k] = get(rows[k]), for many rows at once. */
  read(rows: Int32Array, out: Float64Array): void;
}

// Columns are class instances, not objects of closures: a query calls `read` on many
// columns from one place, and one method for all of them keeps that call compiled.

/** The column of a value name; a name no row has yet reads NaN until one does. */
class NamedColumn implements Column {
  private ordinal: number;

  constructor(
    private readonly arena: RowArena,
    private readonly name: string,
  ) {
    this.ordinal = arena.find(name);
  }

  private resolved(): boolean {
    return this.ordinal >= 0 || (this.ordinal = this.arena.find(this.name)) >= 0;
  }

  get(row: number): number {
    return this.resolved() ? this.arena.get(row, this.ordinal) : Number.NaN;
  }

  read(rows: Int32Array, out: Float64Array): void {
    if (this.resolved()) this.arena.readColumn(this.ordinal, rows, out);
    else out.fill(Number.NaN, 0, rows.length);
  }
}

/** A column computed row by row from others (its bulk read falls back to get). */
class DerivedColumn implements Column {
  constructor(readonly get: (row: number) => number) {}

  read(rows: Int32Array, out: Float64Array): void {
    const get = this.get;
    for (let k = 0; k < rows.length; k++) out[k] = get(rows[k]);
  }
}

export function namedColumn(arena: RowArena, name: string): Column {
  return new NamedColumn(arena, name);
}

export function derivedColumn(get: (row: number) => number): Column {
  return new DerivedColumn(get);
}
