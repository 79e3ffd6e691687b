// The deploy config as a tree of values that remember where they were written. The
// same types describe one file and the effective config after `base_config` overlays:
// every node keeps the location (file and range) it came from, so a merged tree says
// for each value which file set it.
import type { SourceLocation } from './sourceRange';

export type ScalarValue = string | number | boolean | null;

export interface ConfigScalar {
  readonly kind: 'scalar';
  readonly value: ScalarValue;
  /** The text as written (without quotes for quoted scalars). */
  readonly text: string;
  /** Quoted scalars are strings even when they read like numbers or booleans. */
  readonly quoted: boolean;
  /** For numbers: whether the text is written as an integer (`64`) or not (`0.9`, `1e3`). */
  readonly integer: boolean;
  readonly location: SourceLocation;
}

export interface ConfigList {
  readonly kind: 'list';
  readonly items: readonly ConfigValue[];
  readonly location: SourceLocation;
}

export interface ConfigEntry {
  readonly key: string;
  readonly keyLocation: SourceLocation;
  readonly value: ConfigValue;
  /** Key start to value end, where this entry is written (an alias ends at the alias). */
  readonly span: SourceLocation;
  /** In an effective tree: the entry of a base file that this one replaced. */
  readonly replaced?: ConfigEntry;
  /** The value node carries a YAML anchor (`&name`): it is also a source for aliases. */
  readonly anchored: boolean;
}

export interface ConfigMap {
  readonly kind: 'map';
  readonly entries: ReadonlyMap<string, ConfigEntry>;
  readonly location: SourceLocation;
}

export type ConfigValue = ConfigScalar | ConfigList | ConfigMap;

export function isMap(value: ConfigValue | null | undefined): value is ConfigMap {
  return value?.kind === 'map';
}

export function isList(value: ConfigValue | null | undefined): value is ConfigList {
  return value?.kind === 'list';
}

export function isScalar(value: ConfigValue | null | undefined): value is ConfigScalar {
  return value?.kind === 'scalar';
}

export function entryOf(map: ConfigValue | null | undefined, key: string): ConfigEntry | undefined {
  return isMap(map) ? map.entries.get(key) : undefined;
}

export function valueOf(map: ConfigValue | null | undefined, key: string): ConfigValue | undefined {
  return entryOf(map, key)?.value;
}

export function scalarOf(map: ConfigValue | null | undefined, key: string): ScalarValue | undefined {
  const value = valueOf(map, key);
  return isScalar(value) ? value.value : undefined;
}

/** An integer stage id as vLLM-Omni reads it (`stage_id: 1`), or null. */
export function stageIdOf(stage: ConfigValue | null | undefined): number | null {
  const id = scalarOf(stage, 'stage_id');
  return typeof id === 'number' && Number.isInteger(id) ? id : null;
}

/**
 * Values are trees whose nodes may be shared (a YAML alias is the anchored value itself),
 * so a tree written in a few hundred bytes can stand for billions of nodes (an alias
 * bomb) or be thousands of levels deep (aliases of aliases). Every walk that follows
 * values therefore stops after a number of nodes or levels, and reads shared nodes once
 * where it can.
 */
export const MAX_WALK_NODES = 100_000;
export const MAX_WALK_DEPTH = 200;

/** A plain JavaScript value, for tests. Throws past `maxNodes` nodes or MAX_WALK_DEPTH levels
 *  (an expansion that large is a bug in the caller, not a value to build). */
export function toPlain(value: ConfigValue, maxNodes = MAX_WALK_NODES): unknown {
  let nodes = 0;
  const walk = (node: ConfigValue, depth: number): unknown => {
    if (++nodes > maxNodes || depth > MAX_WALK_DEPTH)
      throw new RangeError(`toPlain: value larger than ${maxNodes} nodes or ${MAX_WALK_DEPTH} levels`);
    switch (node.kind) {
      case 'scalar':
        return node.value;
      case 'list':
        return node.items.map((item) => walk(item, depth + 1));
      case 'map':
        return Object.fromEntries([...node.entries].map(([k, e]) => [k, walk(e.value, depth + 1)]));
    }
  };
  return walk(value, 0);
}

/**
 * The value as it would read in JSON, cut to `max` characters (`…` at the cut). Written
 * while walking, so it stops once `max` characters are out: every node visited adds at
 * least one character, so at most `max + 1` nodes are read however large the value is.
 */
export function renderValue(value: ConfigValue, max = 60): string {
  if (value.kind === 'scalar') return cut(value.value === null ? 'null' : String(value.value), max);
  const out = new BoundedText(max + 1);
  writeJson(value, out);
  return cut(out.text, max);
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

class BoundedText {
  text = '';
  constructor(private readonly limit: number) {}
  get full(): boolean {
    return this.text.length >= this.limit;
  }
  get room(): number {
    return Math.max(0, this.limit - this.text.length);
  }
  write(part: string): void {
    if (!this.full) this.text += part.length > this.limit ? part.slice(0, this.limit) : part;
  }
}

/** JSON of a value, iteratively (the depth of a value is not bounded either). */
function writeJson(root: ConfigValue, out: BoundedText): void {
  type Step = ConfigValue | { readonly text: string };
  const todo: Step[] = [root];
  while (todo.length > 0 && !out.full) {
    const step = todo.pop() as Step;
    if (!('kind' in step)) {
      out.write(step.text);
      continue;
    }
    if (step.kind === 'scalar') {
      out.write(scalarJson(step.value));
      continue;
    }
    // Pushed in reverse: the first item is written first. Each item adds at least one
    // character, so items past the room left are never reached.
    const room = out.room;
    const parts: Step[] = [];
    if (step.kind === 'list') {
      out.write('[');
      for (let i = 0; i < step.items.length && i < room; i++) {
        if (i > 0) parts.push({ text: ',' });
        parts.push(step.items[i]);
      }
      parts.push({ text: ']' });
    } else {
      out.write('{');
      let i = 0;
      for (const [key, entry] of step.entries) {
        if (i >= room) break;
        parts.push({ text: `${i++ > 0 ? ',' : ''}${JSON.stringify(key)}:` }, entry.value);
      }
      parts.push({ text: '}' });
    }
    for (let i = parts.length - 1; i >= 0; i--) todo.push(parts[i]);
  }
}

function scalarJson(value: ScalarValue): string {
  return JSON.stringify(value) ?? 'null';
}
