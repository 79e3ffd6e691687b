// FieldMaps as the parser hands them out: an ordinary object of Cell objects, cloned from
// a per-schema template (an object grown key by key past ~16 keys falls back to V8's
// dictionary mode, which is slower and takes several times the memory). Records are
// short-lived: the analysis packs what it keeps (analysis/requestStore.ts).
import { measured, type Cell, type FieldMap, type MeasuredCell } from '../values';
import type { FieldSchema } from './fieldSchema';

/**
 * The cells of one column, in schema order. values[i] is the number of a measured cell;
 * extras[i], when set, is the cell itself (None, text, a mean with its count).
 */
export interface ColumnCells {
  readonly values: number[];
  readonly extras: (Cell | undefined)[] | null;
}

// Small integer counts (batch_size 1, token counts, 0) repeat on every request: one
// shared cell each instead of one object per table cell.
const SMALL_INTS = 4096;
const smallIntCells: MeasuredCell[] = [];

/** A measured cell; shared (frozen) for small non-negative integers. */
export function measuredCell(value: number): MeasuredCell {
  if (value >= 0 && value < SMALL_INTS && Number.isInteger(value) && !Object.is(value, -0)) {
    let cell = smallIntCells[value];
    if (cell === undefined) {
      cell = Object.freeze(measured(value));
      smallIntCells[value] = cell;
    }
    return cell;
  }
  return measured(value);
}

/** An object with the schema's keys in order, in V8's fast mode; cloned for each map. */
function plainTemplate(schema: FieldSchema): object {
  const known = schema.plainTemplate as object | null;
  if (known !== null) return known;
  const template = Object.fromEntries(schema.names.map((name) => [name, null]));
  schema.plainTemplate = template;
  return template;
}

export function buildFieldMap(schema: FieldSchema, cells: ColumnCells): FieldMap {
  const names = schema.names;
  if (names.length === 0) return {};
  const out = { ...plainTemplate(schema) } as FieldMap;
  const extras = cells.extras;
  for (let i = 0; i < names.length; i++) {
    out[names[i] as string] = (extras === null ? undefined : extras[i]) ?? measuredCell(cells.values[i] as number);
  }
  return out;
}
