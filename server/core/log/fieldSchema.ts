// Sequences of field names, shared. Every request prints the same rows in the same order,
// so a trie of names gives each table's row list (and each column's list of present
// fields) as one shared node: the row-name check is a compare against the predicted next
// name instead of a substring + hash lookup, and compact field maps share their layout.

import type { AsciiWords } from './asciiWords';

export class FieldSchema {
  private children: Map<string, FieldSchema> | null = null;
  /** The child taken last; the next table most likely takes it again. */
  lastChild: FieldSchema | null = null;
  private namesCache: readonly string[] | null = null;
  /** This row's name cell as last printed, `| name<padding> |` (tableBuilder.ts). */
  rowCell: string | null = null;
  /** `rowCell` as words to compare with an ASCII piece's bytes; null when it cannot be. */
  rowCellWords: AsciiWords | null = null;
  /** How field maps of this layout are built: fieldMaps.ts's state, opaque here. */
  fieldMapBuilder: unknown = null;

  private constructor(
    readonly name: string,
    readonly parent: FieldSchema | null,
    readonly size: number,
    private readonly budget: { nodes: number },
  ) {}

  static root(maxNodes = 50_000): FieldSchema {
    return new FieldSchema('', null, 0, { nodes: maxNodes });
  }

  /** The schema with `name` appended. `name` should be interned (compared by identity first). */
  child(name: string): FieldSchema {
    const last = this.lastChild;
    if (last !== null && last.name === name) return last;
    let next = this.children?.get(name);
    if (next === undefined) {
      next = new FieldSchema(name, this, this.size + 1, this.budget);
      // Past the budget (garbage input) nodes still work but are not shared.
      if (this.budget.nodes > 0) {
        this.budget.nodes--;
        (this.children ??= new Map()).set(name, next);
      }
    }
    this.lastChild = next;
    return next;
  }

  /** Whether `name` is already one of this schema's names. */
  contains(name: string): boolean {
    for (let s: FieldSchema | null = this; s !== null && s.size > 0; s = s.parent) if (s.name === name) return true;
    return false;
  }

  /** The names, first to last; one shared frozen array per schema. */
  get names(): readonly string[] {
    if (this.namesCache === null) {
      const out = new Array<string>(this.size);
      let s: FieldSchema | null = this;
      for (let i = this.size - 1; i >= 0 && s !== null; i--, s = s.parent) out[i] = s.name;
      this.namesCache = Object.freeze(out);
    }
    return this.namesCache;
  }
}
