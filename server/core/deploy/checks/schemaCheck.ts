// Keys and value types of one file against the deploy schema: unknown keys (with a
// "did you mean"), values of the wrong type, values outside their set or range, stages
// without `stage_id`.
import { isMap, renderValue, type ConfigEntry, type ConfigMap, type ConfigValue } from '../configTree';
import { closestName } from '../../didYouMean';
import { lookupKey, misplacedKeyHome, topLevelSchema, type KeySpec, type MapSchema, type ValueKind } from '../schema';
import { diagnostic, replaceFix, type DeployDiagnostic } from './deployDiagnostic';
import { pushAll } from '../../arrays';
import { withVisibleBidi } from '../../visibleBidi';

/**
 * Findings per list item (a stage) and schema, kept while the item's tree is unchanged
 * and has not moved to other lines: an edit in one stage of a long config re-checks that
 * stage only (the incremental parse reuses the trees of the stages it did not touch).
 */
const itemFindings = new WeakMap<
  ConfigMap,
  Map<MapSchema, { readonly line: number; readonly found: readonly DeployDiagnostic[] }>
>();

/** A value quoted in a message is cut here, as the hover cuts it. */
const VALUE_SHOWN = 50;

export function schemaDiagnostics(root: ConfigValue | null): DeployDiagnostic[] {
  if (!isMap(root)) return [];
  const walker = new SchemaWalker();
  walker.map(root, topLevelSchema, true);
  return walker.found;
}

class SchemaWalker {
  readonly found: DeployDiagnostic[] = [];
  /** An anchored value merged into several places is checked once per schema. */
  private readonly seen = new WeakMap<ConfigValue, Set<MapSchema>>();

  map(map: ConfigMap, schema: MapSchema, topLevel = false): void {
    const seen = this.seen.get(map) ?? new Set<MapSchema>();
    if (seen.has(schema)) return;
    seen.add(schema);
    this.seen.set(map, seen);
    for (const entry of map.entries.values()) {
      const spec = lookupKey(schema, entry.key);
      if (spec) this.value(entry, spec);
      else this.unknown(entry, schema, topLevel);
    }
    if (schema.name === 'stage' && !map.entries.has('stage_id')) {
      this.found.push(
        diagnostic(
          'missing-stage-id',
          'This stage has no `stage_id`: vLLM-Omni cannot place it (it fails with a KeyError).',
          firstLine(map),
          // The server does not start with it: an error, not a warning to weigh.
          { severity: 'error' },
        ),
      );
    }
  }

  /** A list item checked on its own (a value shared with another item is then checked
   *  twice: deployDiagnostics drops the repeated findings). */
  private item(item: ConfigMap, schema: MapSchema): void {
    // Findings carry line numbers: reusable only while the item starts on the same line.
    const line = item.location.range.start.line;
    const known = itemFindings.get(item)?.get(schema);
    if (known && known.line === line) {
      pushAll(this.found, known.found);
      return;
    }
    const walker = new SchemaWalker();
    walker.map(item, schema);
    let bySchema = itemFindings.get(item);
    if (!bySchema) {
      bySchema = new Map();
      itemFindings.set(item, bySchema);
    }
    bySchema.set(schema, { line, found: walker.found });
    pushAll(this.found, walker.found);
  }

  private unknown(entry: ConfigEntry, schema: MapSchema, topLevel: boolean): void {
    // A known key in the wrong map: said whatever the map's policy (a stage passes it on unread).
    const home = misplacedKeyHome(entry.key, schema);
    if (home !== undefined) {
      const where = schema.name === 'top level' ? 'at the top level' : `in ${article(schema.name)}`;
      const there =
        schema.name === 'stage' || schema.name === 'engine_args'
          ? ' Here it is passed to vLLM as an engine argument, and vLLM-Omni does not read it as this setting.'
          : ' vLLM-Omni does not read it here.';
      this.found.push(
        diagnostic(
          'misplaced-key',
          `\`${entry.key}\` is a connector \`extra\` key: it belongs under \`${home}\`, not ${where}.${there}`,
          entry.keyLocation,
        ),
      );
      return;
    }
    if (schema.unknownKeys === 'accept') return;
    // A top-level key that only holds a YAML anchor is a place to define shared values.
    if (topLevel && entry.anchored) return;
    const suggestion = closestName(entry.key, schema.keys.keys());
    if (!suggestion && schema.unknownKeys === 'typo-only') return;
    const where = schema.name === 'top level' ? 'at the top level' : `in ${article(schema.name)}`;
    const consequence =
      schema.unknownKeys === 'typo-only'
        ? ' It would be passed on unchanged, and nothing reads it.'
        : ' vLLM-Omni does not read it.';
    const key = withVisibleBidi(entry.key);
    const message = suggestion
      ? `Unknown key \`${key}\` ${where}: did you mean \`${suggestion}\`?${consequence}`
      : `Unknown key \`${key}\` ${where}.${consequence}`;
    const fixes = suggestion ? [replaceFix(`Rename to \`${suggestion}\``, entry.keyLocation, suggestion)] : [];
    this.found.push(diagnostic('unknown-key', message, entry.keyLocation, { fixes }));
  }

  private value(entry: ConfigEntry, spec: KeySpec): void {
    const value = entry.value;
    if (value.kind === 'scalar' && value.value === null) {
      if (spec.required)
        this.found.push(diagnostic('wrong-type', `\`${entry.key}\` is required and cannot be empty.`, entry.span));
      return;
    }
    const kind = kindOf(value);
    if (!accepts(spec.kinds, kind)) {
      this.wrongType(entry, spec, kind);
      return;
    }
    this.range(entry, spec);
    if (value.kind === 'map' && spec.children) this.map(value, spec.children);
    if (value.kind === 'list' && spec.items) {
      for (const item of value.items) {
        if (isMap(item)) this.item(item, spec.items);
        else
          this.found.push(
            diagnostic(
              'wrong-type',
              `Each entry of \`${entry.key}\` must be a map of settings; this is ${describeKind(kindOf(item))}.`,
              item.location,
            ),
          );
      }
    }
  }

  private wrongType(entry: ConfigEntry, spec: KeySpec, kind: ValueKind): void {
    const value = entry.value;
    const expected = spec.kinds.map(describeKind).join(' or ');
    const fixes = [];
    if (value.kind === 'scalar' && typeof value.value === 'string') {
      const unquoted = unquotedAs(value.value, spec.kinds);
      if (unquoted !== undefined)
        fixes.push(replaceFix(`Write \`${unquoted}\` without quotes`, value.location, unquoted));
    }
    if (
      value.kind === 'scalar' &&
      typeof value.value === 'number' &&
      spec.kinds.includes('integer') &&
      Number.isInteger(value.value)
    ) {
      fixes.push(replaceFix(`Write \`${value.value}\` as an integer`, value.location, String(value.value)));
    }
    const message = `\`${entry.key}\` expects ${expected}; \`${withVisibleBidi(renderValue(value, VALUE_SHOWN))}\` is ${describeKind(kind)}.`;
    this.found.push(diagnostic('wrong-type', message, value.location, { fixes }));
  }

  private range(entry: ConfigEntry, spec: KeySpec): void {
    const value = entry.value;
    if (value.kind !== 'scalar') return;
    if (spec.values && typeof value.value === 'string' && !spec.values.includes(value.value)) {
      const suggestion = closestName(value.value, spec.values);
      const fixes = suggestion ? [replaceFix(`Change to \`${suggestion}\``, value.location, suggestion)] : [];
      const allowed = spec.values.map((v) => `\`${v}\``).join(', ');
      this.found.push(
        diagnostic(
          'invalid-value',
          `\`${entry.key}\` must be one of ${allowed}; vLLM-Omni rejects \`${withVisibleBidi(renderValue(value, VALUE_SHOWN))}\`.`,
          value.location,
          { fixes },
        ),
      );
    }
    const bound = typeof value.value === 'number' ? outOfRange(spec, value.value) : null;
    if (bound !== null)
      this.found.push(
        diagnostic('invalid-value', `\`${entry.key}\` must be ${bound}; it is ${value.value}.`, value.location),
      );
  }
}

/** The range a number breaks, in words ("at least 1", "above 0 and at most 1"); null when it is inside. */
function outOfRange(spec: KeySpec, value: number): string | null {
  const lowWords =
    spec.minimum !== undefined
      ? `at least ${spec.minimum}`
      : spec.exclusiveMinimum !== undefined
        ? `above ${spec.exclusiveMinimum}`
        : null;
  const highWords = spec.maximum !== undefined ? `at most ${spec.maximum}` : null;
  const tooLow =
    (spec.minimum !== undefined && value < spec.minimum) ||
    (spec.exclusiveMinimum !== undefined && value <= spec.exclusiveMinimum);
  const tooHigh = spec.maximum !== undefined && value > spec.maximum;
  if (!tooLow && !tooHigh) return null;
  return [lowWords, highWords].filter((w) => w !== null).join(' and ');
}

function kindOf(value: ConfigValue): ValueKind {
  if (value.kind !== 'scalar') return value.kind;
  switch (typeof value.value) {
    case 'boolean':
      return 'boolean';
    case 'number':
      return value.integer ? 'integer' : 'number';
    default:
      return 'string';
  }
}

function accepts(kinds: readonly ValueKind[], kind: ValueKind): boolean {
  return kinds.includes(kind) || (kind === 'integer' && kinds.includes('number'));
}

/** The text of a quoted scalar when, unquoted, it reads as an accepted kind (`"64"` → `64`). */
function unquotedAs(text: string, kinds: readonly ValueKind[]): string | undefined {
  const trimmed = text.trim();
  if (kinds.includes('boolean') && /^(true|false)$/i.test(trimmed)) return trimmed.toLowerCase();
  if (kinds.includes('integer') && /^-?\d+$/.test(trimmed)) return trimmed;
  if (kinds.includes('number') && /^-?(?:\d+(?:\.\d*)?|\.\d+)$/.test(trimmed)) return trimmed;
  return undefined;
}

function describeKind(kind: ValueKind): string {
  switch (kind) {
    case 'boolean':
      return 'a boolean';
    case 'integer':
      return 'an integer';
    case 'number':
      return 'a number';
    case 'string':
      return 'a string';
    case 'map':
      return 'a map';
    case 'list':
      return 'a list';
  }
}

function article(name: string): string {
  return /^[aeiou]/i.test(name) ? `an ${name}` : `a ${name}`;
}

/** The first line of a value, so a warning about a whole stage does not underline all of it. */
function firstLine(map: ConfigMap) {
  const first = [...map.entries.values()][0];
  return first ? first.keyLocation : map.location;
}
