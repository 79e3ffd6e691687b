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

/** A plain JavaScript value, for messages and tests. */
export function toPlain(value: ConfigValue): unknown {
  switch (value.kind) {
    case 'scalar':
      return value.value;
    case 'list':
      return value.items.map(toPlain);
    case 'map':
      return Object.fromEntries([...value.entries].map(([k, e]) => [k, toPlain(e.value)]));
  }
}

/** The value as it would read in YAML flow style, short. */
export function renderValue(value: ConfigValue, max = 60): string {
  const text = value.kind === 'scalar' ? (value.value === null ? 'null' : String(value.value)) : JSON.stringify(toPlain(value));
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
