// One request printed twice from one computation (two JSON records, or a dict and its tables)
// holds some values twice. The first record's value is kept; the other's fills in where the
// first has none or an unmeasured one, so a None never replaces a number.

/**
 * `first`, with `second`'s value for each key where `first` has none, or has an unmeasured one
 * and `second`'s is measured; `first` itself when `second` fills nothing. A key `keepFirst`
 * names stays as `first` has it.
 */
export function filledFrom<T>(
  first: Readonly<Record<string, T>>,
  second: Readonly<Record<string, T>>,
  isMeasured: (value: T) => boolean,
  keepFirst?: (key: string) => boolean,
): Readonly<Record<string, T>> {
  let filled: Record<string, T> | null = null;
  for (const key in second) {
    const theirs = second[key] as T;
    const ours = first[key];
    if (ours !== undefined && (isMeasured(ours) || !isMeasured(theirs))) continue;
    if (keepFirst?.(key) === true) continue;
    filled ??= { ...first };
    filled[key] = theirs;
  }
  return filled ?? first;
}
