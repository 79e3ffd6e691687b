// FieldMaps as the parser hands them out. Two implementations of the same contract
// (`Record<string, Cell>`, see values.ts):
//
//  plain    (default) an ordinary object of Cell objects. It is cloned from a per-schema
//           template: an object grown key by key past ~16 keys falls back to V8's
//           dictionary mode, which is slower and takes several times the memory.
//  compact  an ordinary object (prototype Object.prototype) whose fields are own
//           enumerable accessors over one array of doubles: a log holds ~60 cells per
//           request, and a double takes 8 bytes where a Cell object takes ~56. About 30%
//           less heap for the records of a log, but slower to build (one defineProperty
//           per field). Object.keys/entries, JSON.stringify, spread, structuredClone and
//           assert.deepStrictEqual see the same fields and cells as with `plain`. What
//           differs: each read returns a fresh Cell object (compare cells by value, not
//           identity), and assigning a field turns it into a plain data property.
import { measured, type Cell, type FieldMap, type MeasuredCell } from '../values';
import type { FieldSchema } from './fieldSchema';

export type FieldMapStyle = 'compact' | 'plain';

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

const VALUES: unique symbol = Symbol('stageLens.fieldValues');
const EXTRAS: unique symbol = Symbol('stageLens.fieldExtras');
const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/** Extras as flat pairs (position, cell): exact size, usually a handful of entries. */
type ExtraPairs = ReadonlyArray<number | Cell>;

interface CompactFields {
  readonly [VALUES]: readonly number[];
  readonly [EXTRAS]?: ExtraPairs;
}

function compactCell(self: CompactFields, i: number): Cell {
  const extras = self[EXTRAS];
  if (extras !== undefined) {
    for (let k = 0; k < extras.length; k += 2) if (extras[k] === i) return extras[k + 1] as Cell;
  }
  return measuredCell(self[VALUES][i] as number);
}

function extraPairs(extras: ReadonlyArray<Cell | undefined>): ExtraPairs {
  const pairs: Array<number | Cell> = [];
  extras.forEach((cell, i) => {
    if (cell !== undefined) pairs.push(i, cell);
  });
  return pairs.slice();
}

// One getter per position and one setter per name, shared by every map with the same
// layout, so V8 gives all those maps one hidden class.
const getters: Array<(this: CompactFields) => Cell> = [];
function getterAt(i: number): (this: CompactFields) => Cell {
  let g = getters[i];
  if (g === undefined) {
    g = function (this: CompactFields): Cell {
      return compactCell(this, i);
    };
    getters[i] = g;
  }
  return g;
}

const setters = new Map<string, (this: object, cell: Cell) => void>();
function setterFor(name: string): (this: object, cell: Cell) => void {
  let s = setters.get(name);
  if (s === undefined) {
    s = function (this: object, cell: Cell): void {
      Object.defineProperty(this, name, { value: cell, writable: true, enumerable: true, configurable: true });
    };
    if (setters.size < 20_000) setters.set(name, s);
  }
  return s;
}

/** util.inspect shows the cells instead of `[Getter/Setter]`. */
function inspectFields(this: FieldMap): FieldMap {
  return { ...this };
}

function compactLayout(schema: FieldSchema): PropertyDescriptorMap {
  const known = schema.compactLayout as PropertyDescriptorMap | null;
  if (known !== null) return known;
  const layout: PropertyDescriptorMap = {};
  schema.names.forEach((name, i) => {
    layout[name] = { get: getterAt(i), set: setterFor(name), enumerable: true, configurable: true };
  });
  layout[INSPECT] = { value: inspectFields, enumerable: false, writable: true, configurable: true };
  schema.compactLayout = layout;
  return layout;
}

/** An object with the schema's keys in order, in V8's fast mode; cloned for each map. */
function plainTemplate(schema: FieldSchema): object {
  const known = schema.plainTemplate as object | null;
  if (known !== null) return known;
  const template = Object.fromEntries(schema.names.map((name) => [name, null]));
  schema.plainTemplate = template;
  return template;
}

// Reused descriptors for the hidden slots (their `value` is set just before each use).
const valuesSlot: PropertyDescriptor = { value: undefined, enumerable: false, writable: false, configurable: false };
const extrasSlot: PropertyDescriptor = { value: undefined, enumerable: false, writable: false, configurable: false };

export function buildFieldMap(style: FieldMapStyle, schema: FieldSchema, cells: ColumnCells): FieldMap {
  const names = schema.names;
  if (names.length === 0) return {};
  if (style === 'plain') {
    const out = { ...plainTemplate(schema) } as FieldMap;
    const extras = cells.extras;
    for (let i = 0; i < names.length; i++) {
      out[names[i] as string] = (extras === null ? undefined : extras[i]) ?? measuredCell(cells.values[i] as number);
    }
    return out;
  }
  const out = {};
  // Exact-size copies: the arrays grown while reading keep spare capacity.
  valuesSlot.value = cells.values.slice();
  Object.defineProperty(out, VALUES, valuesSlot);
  valuesSlot.value = undefined;
  if (cells.extras !== null) {
    extrasSlot.value = extraPairs(cells.extras);
    Object.defineProperty(out, EXTRAS, extrasSlot);
    extrasSlot.value = undefined;
  }
  Object.defineProperties(out, compactLayout(schema));
  return out as FieldMap;
}
