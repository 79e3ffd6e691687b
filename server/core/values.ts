// The three states of a stage field, kept apart end to end (docs/formats.md#values-and-their-states):
//   measured     a number the server printed (a measured 0 stays 0)
//   notMeasured  the literal `None`: not measured on this stage, measured on another
//   hidden       the key is absent: vLLM-Omni hides a row that is 0/None/"" in every
//                column, so absent means "zero or not measured". Represented by the key
//                being missing from a FieldMap, never by a Cell.
// A fourth kind of cell, `text`, holds a non-numeric string (`audio`, `image`, `True`);
// a blank cell (an empty list, or a key this stage's row lacks while another stage's has
// it: diffusion values that are None are dropped from the row) is the text cell "", BLANK:
// printed, but with nothing in it, so never a number.

export interface MeasuredCell {
  readonly state: 'measured';
  readonly value: number;
  /** For list cells rendered `avg (n=N)`: the number of samples behind the mean. */
  readonly sampleCount?: number;
}

export interface NotMeasuredCell {
  readonly state: 'notMeasured';
}

export interface TextCell {
  readonly state: 'text';
  readonly value: string;
}

export type Cell = MeasuredCell | NotMeasuredCell | TextCell;

/** Field name -> cell. A field that is absent is "hidden" (zero or not measured). */
export type FieldMap = Record<string, Cell>;

export const NOT_MEASURED: NotMeasuredCell = Object.freeze({ state: 'notMeasured' });

/** A cell printed empty: no number for this stage (an empty list, or a key absent from this stage's row). */
export const BLANK: TextCell = Object.freeze({ state: 'text', value: '' });

export function isBlank(cell: Cell | undefined): boolean {
  return cell !== undefined && cell.state === 'text' && cell.value === '';
}

export function measured(value: number, sampleCount?: number): MeasuredCell {
  return sampleCount === undefined ? { state: 'measured', value } : { state: 'measured', value, sampleCount };
}

/**
 * A value derived from printed ones (a difference, a mean, an interpolated percentile) at the
 * log's precision, 3 decimals: the difference of two 3-decimal values is a 3-decimal value, and
 * binary floating point adds noise to it (`-941.7080000000005`). Not finite: as it is. From
 * 1e15 on a double has no thousandths to round, and `v * 1000` could overflow to ±Infinity.
 */
export function toLogPrecision(v: number): number {
  if (!Number.isFinite(v) || Math.abs(v) >= 1e15) return v;
  const r = Math.round(v * 1000) / 1000;
  return r === 0 ? 0 : r;
}

/** The numeric value of a field, or undefined when it is not a measured number. */
export function numberOf(fields: FieldMap, name: string): number | undefined {
  const cell = fields[name];
  return cell !== undefined && cell.state === 'measured' ? cell.value : undefined;
}

/** How a field stands: its cell's state, or 'hidden' when the key is absent. */
export type FieldState = Cell['state'] | 'hidden';

export function stateOf(fields: FieldMap, name: string): FieldState {
  const cell = fields[name];
  return cell === undefined ? 'hidden' : cell.state;
}

/** Python's spelling of a number JSON has none for (`nan`, `inf`, `-inf`); null for a finite one. */
export function nonFiniteText(v: number): 'nan' | 'inf' | '-inf' | null {
  if (Number.isNaN(v)) return 'nan';
  if (v === Number.POSITIVE_INFINITY) return 'inf';
  return v === Number.NEGATIVE_INFINITY ? '-inf' : null;
}

/**
 * JSON form of a cell: number, string, or null for an explicit None. A printed nan, inf or -inf
 * is the string the server printed (JSON has no such numbers, and null is None): the parser reads
 * those words as numbers, so no text cell holds them.
 */
export function cellToJson(cell: Cell): number | string | null {
  switch (cell.state) {
    case 'measured':
      return nonFiniteText(cell.value) ?? cell.value;
    case 'notMeasured':
      return null;
    case 'text':
      return cell.value;
  }
}

/** The states of a value with no number, as every surface words them (CLI tables, the views' cells and pickers). */
export type NoNumberState = 'notMeasured' | 'hidden' | 'notRecorded';

export const NO_NUMBER_WORD: Readonly<Record<NoNumberState, string>> = {
  notMeasured: 'not measured',
  hidden: 'hidden',
  notRecorded: 'not recorded',
};

/** Of values none of which is a number, the state that explains most: a detected lie first, then None, else hidden. */
export function noNumberState(counts: { readonly notRecorded: number; readonly notMeasured: number }): NoNumberState {
  return counts.notRecorded > 0 ? 'notRecorded' : counts.notMeasured > 0 ? 'notMeasured' : 'hidden';
}
