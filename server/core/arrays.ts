// Array helpers for input-sized arrays. A spread into a call (`push(...rows)`,
// `Math.max(...widths)`) passes every element as an argument on the stack, and a few
// hundred thousand of them (stage columns of one table, series of one scrape) overflow
// it: "Maximum call stack size exceeded". These loop instead.

/** Appends every item of `items` to `target`; returns `target`. */
export function pushAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item);
  return target;
}

/** The largest of `values` and `floor`. */
export function maxOf(floor: number, values: Iterable<number>): number {
  let max = floor;
  for (const value of values) if (value > max) max = value;
  return max;
}

/** The smallest of `values` and `ceiling`. */
export function minOf(ceiling: number, values: Iterable<number>): number {
  let min = ceiling;
  for (const value of values) if (value < min) min = value;
  return min;
}

/**
 * `items.map(fn)`, always as the same kind of array. `Array.prototype.map` makes a holey
 * array when the interpreter runs it and a packed one once the optimizing compiler has
 * inlined it; hot code that iterates both kinds (a request's stages) is thrown away at the
 * first one of the other kind ("wrong map") and compiled again. Pushing makes one kind.
 */
export function mapPacked<T, U>(items: readonly T[], fn: (item: T, index: number) => U): U[] {
  const out: U[] = [];
  for (let i = 0; i < items.length; i++) out.push(fn(items[i] as T, i));
  return out;
}
