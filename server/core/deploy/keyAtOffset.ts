// Which key a position in a file is on: the innermost entry whose key or value (as
// written in this file) contains the offset, and the path of keys leading to it.
import type { ConfigEntry, ConfigMap, ConfigValue } from './configTree';
import type { KeyPath } from './schema';
import { containsOffset } from './sourceRange';

export interface KeyHit {
  readonly entry: ConfigEntry;
  readonly path: KeyPath;
  /** The map holding the entry (for `stage_id`: the stage). */
  readonly parent: ConfigMap;
}

export function keyAtOffset(root: ConfigValue | null, file: string, offset: number): KeyHit | undefined {
  let hit: KeyHit | undefined;
  let value: ConfigValue | null = root;
  const path: string[] = [];
  // Each round goes one level deeper; it ends when no entry of this level holds the offset.
  for (;;) {
    if (!value) return hit;
    if (value.kind === 'list') {
      const item: ConfigValue | undefined = value.items.find((candidate) => isHere(candidate, file, offset));
      if (!item) return hit;
      path.push('[]');
      value = item;
      continue;
    }
    if (value.kind !== 'map') return hit;
    const map: ConfigMap = value;
    const entry = [...map.entries.values()].find(
      (candidate) => candidate.span.file === file && containsOffset(candidate.span, offset),
    );
    if (!entry) return hit;
    path.push(entry.key);
    hit = { entry, path: [...path], parent: map };
    value = isHere(entry.value, file, offset) && !containsOffset(entry.keyLocation, offset) ? entry.value : null;
  }
}

function isHere(value: ConfigValue, file: string, offset: number): boolean {
  return value.kind !== 'scalar' && value.location.file === file && containsOffset(value.location, offset);
}
