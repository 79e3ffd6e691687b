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
