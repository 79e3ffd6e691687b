// The order a log and its rotations were written in, from their names: logrotate names a
// rotation `name.N[.gz]` (a larger N is older) or `name-YYYYMMDD[HH][.gz]` (dateext). Used where
// several files are read as one log (Import Log... of several files, the CLI's pipe for them).
// Pure: the extension host uses it through server/shared.ts.

/** How old a rotation is by its name (larger: older); null for a name that is no rotation's. */
export function rotationAge(file: string): number | null {
  const numbered = /\.(\d{1,4})(?:\.gz)?$/.exec(file);
  if (numbered !== null) return Number(numbered[1]);
  const dated = /-(\d{8}|\d{10})(?:\.gz)?$/.exec(file);
  if (dated === null) return null;
  // As YYYYMMDDHH (dateext with an hour), negated: older is larger, as for a number.
  const digits = dated[1] as string;
  return -Number(digits.length === 8 ? `${digits}00` : digits);
}

/** The files oldest first: rotations by their number or date, then the others (the current log) in the order given. */
export function oldestFirst(files: readonly string[]): string[] {
  const aged = files.map((file, given) => ({ file, given, age: rotationAge(file) }));
  return aged
    .sort((a, b) => {
      if (a.age !== null && b.age !== null) return b.age - a.age || a.given - b.given;
      if (a.age !== null) return -1;
      if (b.age !== null) return 1;
      return a.given - b.given;
    })
    .map((a) => a.file);
}
