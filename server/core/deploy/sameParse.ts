// Structural equality of parse results, locations included: how the incremental parser
// checks that a piece with problems parses alone as it does in its surroundings.
import type { ConfigEntry, ConfigValue } from './configTree';
import type { YamlProblem } from './parsedFile';
import type { SourceLocation } from './sourceRange';

export function sameLocation(a: SourceLocation, b: SourceLocation): boolean {
  return (
    a.startOffset === b.startOffset &&
    a.endOffset === b.endOffset &&
    a.file === b.file &&
    a.range.start.line === b.range.start.line &&
    a.range.start.character === b.range.start.character &&
    a.range.end.line === b.range.end.line &&
    a.range.end.character === b.range.end.character
  );
}

/** Pairs compared before giving up (then: not the same, which only costs a whole parse). */
const MAX_PAIRS = 1_000_000;

/**
 * Whether two trees are equal, locations included. Iterative, and a pair of shared nodes
 * (aliases) is compared once, so trees that stand for far more nodes than they hold (an
 * alias bomb) compare in the time of the nodes they hold.
 */
export function sameValue(a: ConfigValue | null, b: ConfigValue | null): boolean {
  if (a === null || b === null) return a === b;
  // The partner each node was last compared with: a shared pair comes up again and again.
  const compared = new Map<ConfigValue, ConfigValue>();
  const todo: Array<[ConfigValue, ConfigValue]> = [[a, b]];
  let pairs = 0;
  while (todo.length > 0) {
    const [x, y] = todo.pop() as [ConfigValue, ConfigValue];
    if (compared.get(x) === y) continue;
    compared.set(x, y);
    if (++pairs > MAX_PAIRS) return false;
    if (x.kind !== y.kind || !sameLocation(x.location, y.location)) return false;
    if (x.kind === 'scalar' && y.kind === 'scalar') {
      if (!(Object.is(x.value, y.value) && x.text === y.text && x.quoted === y.quoted && x.integer === y.integer))
        return false;
    } else if (x.kind === 'list' && y.kind === 'list') {
      if (x.items.length !== y.items.length) return false;
      for (let i = 0; i < x.items.length; i++) todo.push([x.items[i], y.items[i]]);
    } else if (x.kind === 'map' && y.kind === 'map') {
      if (x.entries.size !== y.entries.size) return false;
      const others = [...y.entries.values()];
      let i = 0;
      for (const entry of x.entries.values()) {
        const other = others[i++];
        if (!sameEntryHead(entry, other)) return false;
        todo.push([entry.value, other.value]);
      }
    }
  }
  return true;
}

function sameEntryHead(a: ConfigEntry, b: ConfigEntry): boolean {
  return (
    a.key === b.key &&
    a.anchored === b.anchored &&
    sameLocation(a.keyLocation, b.keyLocation) &&
    sameLocation(a.span, b.span)
  );
}

export function sameProblems(a: readonly YamlProblem[], b: readonly YamlProblem[]): boolean {
  return (
    a.length === b.length &&
    a.every(
      (p, i) =>
        p.code === b[i].code &&
        p.severity === b[i].severity &&
        p.message === b[i].message &&
        sameLocation(p.location, b[i].location),
    )
  );
}
