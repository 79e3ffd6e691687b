// FieldMaps as the parser hands them out: an ordinary object of Cell objects. Records are
// short-lived: the analysis packs what it keeps (analysis/requestStore.ts).
//
// Building them is a large part of parsing (one map per stage column per table), and the
// obvious ways are slow: a store per key with the key in a variable goes through V8's
// megamorphic property cache (~10 ns a key), and an object grown key by key past ~16 keys
// falls back to dictionary mode. A schema that has built a few maps therefore gets its
// own builder, an object literal compiled once with `new Function`, as validators and
// serialisers do (ajv, protobufjs): V8 creates such an object from a boilerplate with its
// final layout. The literal only reads the column's cells from an array that one shared
// loop fills (cellsInto): each layout's builder is then a small function for V8 to
// optimize, not one with a cell's code inlined per field (in a cold run of the bench log,
// V8 spends 34-47 ms optimizing the builders so, 155-220 ms the other way). Field names
// enter that source only as JSON string literals, which are exact JavaScript string
// literals for any string; `__proto__` (a prototype setter in a literal) never gets a
// compiled builder. Where code generation is disallowed
// (--disallow-code-generation-from-strings), the template clone below is used.
import { measured, type Cell, type FieldMap, type MeasuredCell } from '../values';
import type { FieldSchema } from './fieldSchema';
import { isSafeKey } from './strings';

/**
 * The cells of one column, in schema order. values[i] is the number of a measured cell;
 * extras[i], when set, is the cell itself (None, text, a mean with its count).
 */
export interface ColumnCells {
  readonly values: readonly number[];
  readonly extras: readonly (Cell | undefined)[] | null;
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

/** A layout's object literal over the column's cells, in schema order. */
type CompiledBuilder = (cells: readonly Cell[]) => FieldMap;

/**
 * The cells a compiled builder reads: refilled for each map (the builder copies them into
 * the literal before anything else runs), so no array is made per map.
 */
const columnCells: Cell[] = [];

function cellsInto(count: number, cells: ColumnCells): readonly Cell[] {
  const { values, extras } = cells;
  for (let i = 0; i < count; i++)
    columnCells[i] = (extras === null ? undefined : extras[i]) ?? measuredCell(values[i] as number);
  return columnCells;
}

/** Maps a schema builds the generic way before it gets a compiled builder (rare layouts never do). */
export const MAPS_BEFORE_COMPILING = 8;
/** At most this many compiled builders per parser (garbage input can make many layouts). */
export const MAX_COMPILED_BUILDERS = 256;

/** The state fieldMaps.ts keeps on a FieldSchema node (FieldSchema.fieldMapBuilder). */
interface FieldMapBuilderSlot {
  /** Maps built so far the generic way; -1 once the schema has a compiled builder or never will. */
  mapsBuilt: number;
  builder: CompiledBuilder | null;
  /** Template for the generic way (object spread keeps V8's fast mode). */
  template: object | null;
}

let codeGenerationAllowed = true;

/**
 * Builders by layout, shared by every parser of the process: a builder depends on the
 * names alone, and V8 optimizes a function only after it has run a while, so a parser
 * that reused none would run each layout's builder unoptimized again (a new parser is
 * made per file read, per live session, per bench run).
 */
const sharedBuilders = new Map<string, CompiledBuilder>();
/** Layouts kept in `sharedBuilders`; garbage input beyond that still compiles, per parser. */
export const MAX_SHARED_BUILDERS = 1024;

function compileBuilder(names: readonly string[]): CompiledBuilder | null {
  if (!codeGenerationAllowed || !names.every(isSafeKey)) return null;
  const entries = names.map((name, i) => `${JSON.stringify(name)}: c[${i}]`);
  try {
    return new Function('c', `'use strict';\nreturn {\n${entries.join(',\n')}\n};`) as CompiledBuilder;
  } catch {
    codeGenerationAllowed = false;
    return null;
  }
}

/** The shared builder of the layout, compiled if this parser may still compile one; null if not. */
function builderFor(schema: FieldSchema, names: readonly string[]): CompiledBuilder | null {
  const key = JSON.stringify(names);
  const shared = sharedBuilders.get(key);
  if (shared !== undefined) return shared;
  if (!claimCompiledBuilder(schema)) return null;
  const builder = compileBuilder(names);
  if (builder !== null && sharedBuilders.size < MAX_SHARED_BUILDERS) sharedBuilders.set(key, builder);
  return builder;
}

/** The compiled builder maps of this layout are built by now, if any (tests: whether parsers share it). */
export function compiledBuilderOf(schema: FieldSchema): unknown {
  return (schema.fieldMapBuilder as FieldMapBuilderSlot | null)?.builder ?? null;
}

function genericBuild(slot: FieldMapBuilderSlot, names: readonly string[], column: readonly Cell[]): FieldMap {
  slot.template ??= Object.fromEntries(names.map((name) => [name, null]));
  const out = { ...slot.template } as FieldMap;
  for (let i = 0; i < names.length; i++) out[names[i] as string] = column[i] as Cell;
  return out;
}

function slotOf(schema: FieldSchema): FieldMapBuilderSlot {
  let slot = schema.fieldMapBuilder as FieldMapBuilderSlot | null;
  if (slot === null) schema.fieldMapBuilder = slot = { mapsBuilt: 0, builder: null, template: null };
  return slot;
}

/** Compiled builders made per parser, by the root of its schemas. */
const compiledByRoot = new WeakMap<FieldSchema, number>();

/** Takes one of the parser's MAX_COMPILED_BUILDERS; false when none are left. */
function claimCompiledBuilder(schema: FieldSchema): boolean {
  let root = schema;
  while (root.parent !== null) root = root.parent;
  const made = compiledByRoot.get(root) ?? 0;
  if (made >= MAX_COMPILED_BUILDERS) return false;
  compiledByRoot.set(root, made + 1);
  return true;
}

export function buildFieldMap(schema: FieldSchema, cells: ColumnCells): FieldMap {
  const names = schema.names;
  if (names.length === 0) return {};
  const slot = slotOf(schema);
  const column = cellsInto(names.length, cells);
  if (slot.builder !== null) return slot.builder(column);
  if (slot.mapsBuilt >= 0 && ++slot.mapsBuilt >= MAPS_BEFORE_COMPILING) {
    slot.mapsBuilt = -1;
    slot.builder = builderFor(schema, names);
    if (slot.builder !== null) {
      slot.template = null;
      return slot.builder(column);
    }
  }
  return genericBuild(slot, names, column);
}
