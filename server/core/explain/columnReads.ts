// Column values over one set of rows, read once for all the questions of a report. The
// arena keeps a request's values together, so reading one column over every request walks
// all of them; a report asks for each part's values over the same requests once per target
// (tail medians), again for the part distributions and the cost model. Held by one report
// and dropped with it.
import type { Column } from './rowArena';

export class ColumnReads {
  private rows: Int32Array | null = null;
  /** The last rows array checked against `rows`, and whether it held the same row numbers. */
  private lastChecked: Int32Array | null = null;
  private lastSame = false;
  private readonly values = new Map<Column, Float64Array>();

  /** The column's values at `rows` (NaN: no value). Shared: the caller must not write to it. */
  read(column: Column, rows: Int32Array): Float64Array {
    if (!this.holds(rows)) {
      this.values.clear();
      this.rows = rows.slice();
      this.lastChecked = rows;
      this.lastSame = true;
    }
    let values = this.values.get(column);
    if (values === undefined) {
      values = new Float64Array(rows.length);
      column.read(rows, values);
      this.values.set(column, values);
    }
    return values;
  }

  private holds(rows: Int32Array): boolean {
    if (rows === this.lastChecked) return this.lastSame;
    this.lastChecked = rows;
    this.lastSame = this.rows !== null && sameRows(this.rows, rows);
    return this.lastSame;
  }
}

function sameRows(a: Int32Array, b: Int32Array): boolean {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
  return true;
}
