// One target's value in every request, in a dense array kept as requests arrive (NaN: not
// measured): what the tail and the load at arrival read for every request, one array
// read instead of a lookup in the packed rows per request. Made on the first query about
// the target, then fed by the index.
import type { Column, ExplainIndex, IndexFollower } from './explainIndex';
import type { TargetName } from './types';

const kept = new WeakMap<ExplainIndex, Map<TargetName, TargetValues>>();

class TargetValues implements IndexFollower {
  private data = new Float64Array(1024);
  private size = 0;

  constructor(private readonly column: Column) {}

  add(row: number): void {
    this.grow(row + 1);
    this.data[row] = this.column.get(row);
    this.size = row + 1;
  }

  /** Reads rows [size, n) at once. */
  catchUp(n: number): void {
    if (n <= this.size) return;
    this.grow(n);
    const rows = new Int32Array(n - this.size);
    for (let k = 0; k < rows.length; k++) rows[k] = this.size + k;
    this.column.read(rows, this.data.subarray(this.size, n));
    this.size = n;
  }

  private grow(n: number): void {
    if (n <= this.data.length) return;
    const grown = new Float64Array(Math.max(n, this.data.length * 2));
    grown.set(this.data.subarray(0, this.size));
    this.data = grown;
  }

  get values(): Float64Array {
    return this.data.subarray(0, this.size);
  }

  get bytes(): number {
    return this.data.byteLength;
  }
}

/** The target's value per row of the index (a view valid until the next request arrives); null when no request has the target. */
export function targetValuesOf(index: ExplainIndex, name: TargetName): Float64Array | null {
  let byName = kept.get(index);
  if (byName === undefined) kept.set(index, (byName = new Map<TargetName, TargetValues>()));
  let values = byName.get(name);
  if (values === undefined) {
    const column = index.target(name);
    if (column === undefined) return null;
    values = new TargetValues(column);
    values.catchUp(index.length);
    byName.set(name, values);
    index.follow(values);
  }
  return values.values;
}
