// Members written together and alike for many objects (a breakdown part's key, stage and
// phase; a stage's id, segment, replica and kind): rendered once per depth and position, then
// one copy of bytes per object instead of a write per name and per value.
import { ByteChunks, type Piece } from './byteChunks';

/** Runs kept per writer at most (a hostile log can name a million stages). */
export const MAX_KEPT_RUNS = 4096;

/** Strings, numbers or null: their text is JSON.stringify's, which is what JsonBytes writes for them too. */
export type RunValue = string | number | null;

export class MemberRun {
  private readonly pieces: Piece[] = [];

  constructor(
    private readonly names: readonly { readonly name: string }[],
    private readonly values: readonly RunValue[],
  ) {}

  piece(indented: boolean, depth: number, first: boolean): Piece {
    const at = (indented ? depth * 2 + 2 : 0) + (first ? 0 : 1);
    let piece = this.pieces[at];
    if (piece === undefined) {
      const text = this.names
        .map((name, i) => {
          const value = JSON.stringify(this.values[i]);
          const lead = i === 0 && first ? '' : ',';
          const key = JSON.stringify(name.name);
          return indented ? `${lead}\n${'  '.repeat(depth)}${key}: ${value}` : `${lead}${key}:${value}`;
        })
        .join('');
      piece = ByteChunks.constant(text);
      this.pieces[at] = piece;
    }
    return piece;
  }
}

/**
 * Runs kept by a key, each with the identity (`identity`: the fields its members say, not the
 * whole item) it was made from: an item gets the run of a kept identity that is `same`, or a new
 * one from `make`. At most MAX_KEPT_RUNS are kept: past that, each item's run is made for it alone.
 */
export class KeptRuns<T, I> {
  private readonly runs = new Map<string, { readonly identity: I; readonly run: MemberRun }[]>();
  private kept = 0;

  constructor(
    private readonly identity: (item: T) => I,
    private readonly same: (kept: I, item: T) => boolean,
    private readonly make: (item: T) => MemberRun,
  ) {}

  of(key: string, item: T): MemberRun {
    let list = this.runs.get(key);
    if (list !== undefined) for (const k of list) if (this.same(k.identity, item)) return k.run;
    const run = this.make(item);
    if (this.kept >= MAX_KEPT_RUNS) return run;
    if (list === undefined) this.runs.set(key, (list = []));
    list.push({ identity: this.identity(item), run });
    this.kept += 1;
    return run;
  }
}
