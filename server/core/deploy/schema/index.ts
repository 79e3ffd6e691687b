// The deploy-key schema, and lookup of the spec that applies at a path of keys.
import { lookupKey, type KeySpec, type MapSchema } from './keySpec';
import { topLevelSchema } from './topLevelKeys';

export { topLevelSchema };
export type { KeySpec, MapSchema, ValueKind, UnknownKeyPolicy } from './keySpec';
export { lookupKey } from './keySpec';
export { misplacedKeyHome } from './keyHome';

/**
 * A path of keys from the top level; list items are written as `[]`:
 * `['stages', '[]', 'max_num_seqs']`, `['connectors', 'shm', 'extra', 'talker_first_audio']`.
 */
export type KeyPath = readonly string[];

export interface SpecAtPath {
  readonly spec: KeySpec;
  /** The map schema the last key belongs to. */
  readonly parent: MapSchema;
}

export function specAtPath(path: KeyPath): SpecAtPath | undefined {
  let schema: MapSchema | undefined = topLevelSchema;
  let found: SpecAtPath | undefined;
  for (let i = 0; i < path.length; i++) {
    if (!schema) return undefined;
    const spec = lookupKey(schema, path[i]);
    if (!spec) return undefined;
    found = { spec, parent: schema };
    if (path[i + 1] === '[]') {
      schema = spec.items;
      i++;
    } else {
      schema = spec.children;
    }
  }
  return found;
}
