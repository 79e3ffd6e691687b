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

export function sameValue(a: ConfigValue | null, b: ConfigValue | null): boolean {
  if (a === null || b === null) return a === b;
  if (a.kind !== b.kind || !sameLocation(a.location, b.location)) return false;
  if (a.kind === 'scalar' && b.kind === 'scalar') {
    return Object.is(a.value, b.value) && a.text === b.text && a.quoted === b.quoted && a.integer === b.integer;
  }
  if (a.kind === 'list' && b.kind === 'list') return a.items.length === b.items.length && a.items.every((item, i) => sameValue(item, b.items[i]));
  if (a.kind === 'map' && b.kind === 'map') {
    if (a.entries.size !== b.entries.size) return false;
    const others = [...b.entries.values()];
    return [...a.entries.values()].every((entry, i) => sameEntry(entry, others[i]));
  }
  return false;
}

function sameEntry(a: ConfigEntry, b: ConfigEntry): boolean {
  return a.key === b.key && a.anchored === b.anchored && sameLocation(a.keyLocation, b.keyLocation) && sameLocation(a.span, b.span) && sameValue(a.value, b.value);
}

export function sameProblems(a: readonly YamlProblem[], b: readonly YamlProblem[]): boolean {
  return a.length === b.length && a.every((p, i) => p.code === b[i].code && p.severity === b[i].severity && p.message === b[i].message && sameLocation(p.location, b[i].location));
}
