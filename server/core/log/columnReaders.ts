// The cells of a table's columns while the table is read (tableBuilder.ts), turned into
// field maps when it ends. Readers and their arrays are reused from table to table: a log
// prints the same few tables thousands of times.
import type { Cell, FieldMap } from '../values';
import { buildFieldMap } from './fieldMaps';
import type { FieldSchema } from './fieldSchema';

/**
 * The cells of one column as they are read: numbers in row order, other cells aside. A
 * column without empty cells has the table's own row schema; the column's own schema is
 * only tracked from its first empty cell on (an empty cell hides the field in this column).
 * Readers are reused from table to table (ColumnReaders), arrays included: values[0, count)
 * and extras[0, count) are this table's.
 */
export class ColumnReader {
  private readonly values: number[] = [];
  private count = 0;
  private extras: (Cell | undefined)[] | null = null;
  private extrasUsed = false;
  /** The column's fields so far once a cell was empty; null while they are the table's rows. */
  private schema: FieldSchema | null = null;

  addNumber(name: string, value: number): void {
    if (this.schema !== null) this.schema = this.schema.child(name);
    if (this.count < this.values.length) this.values[this.count] = value;
    else this.values.push(value);
    this.count++;
  }

  addCell(name: string, cell: Cell): void {
    const i = this.count;
    this.addNumber(name, cell.state === 'measured' ? cell.value : 0);
    if (!this.extrasUsed) {
      this.extrasUsed = true;
      if (this.extras === null) this.extras = [];
      else this.extras.fill(undefined);
    }
    (this.extras as (Cell | undefined)[])[i] = cell;
  }

  /** An empty cell in the current row; `rowsBefore` is the table's row schema without that row. */
  addAbsent(rowsBefore: FieldSchema): void {
    this.schema ??= rowsBefore;
  }

  /** The column's fields; `rows` is the table's row schema. */
  fields(rows: FieldSchema): FieldMap {
    return buildFieldMap(this.schema ?? rows, { values: this.values, extras: this.extrasUsed ? this.extras : null });
  }

  /** Ready for another table. */
  reset(): void {
    this.count = 0;
    this.extrasUsed = false;
    this.schema = null;
  }
}

/** Column readers of finished tables, for the next tables. */
export class ColumnReaders {
  private readonly free: ColumnReader[] = [];

  take(count: number): ColumnReader[] {
    const out: ColumnReader[] = [];
    for (let i = 0; i < count; i++) out.push(this.free.pop() ?? new ColumnReader());
    return out;
  }

  give(readers: ColumnReader[]): void {
    // Bounded: garbage input can make tables of thousands of columns.
    for (const reader of readers) {
      if (this.free.length >= MAX_FREE_READERS) return;
      reader.reset();
      this.free.push(reader);
    }
  }
}

const MAX_FREE_READERS = 64;
