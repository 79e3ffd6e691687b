// The quick fix of a `misplaced-key` warning: the key, its value and the comments written on
// and just above its lines, moved as text under `extra` of a connector this file defines.
// Written in a connector's own map, it goes to that connector's `extra`; under a stage, to the
// connector the stage names (input_connectors, output_connectors); where that is not one
// connector, each candidate is offered and none is preferred.
// A connector defined only in a `base_config` file this one inherits (the stage's connector
// names may come from there too): vLLM-Omni merges `connectors` recursively, map into map
// (mergeConfig.ts), so the fix writes the override here, `connectors.<name>.extra.<key>`,
// and leaves the base, which other overlays may share, as it is.
// Block style only: a key after `- ` or in a flow map, or a flow `extra`, gets no fix.
import { baseName } from '../../baseName';
import {
  MAX_WALK_NODES,
  isList,
  isMap,
  isScalar,
  stageIdOf,
  valueOf,
  type ConfigEntry,
  type ConfigMap,
  type ConfigValue,
} from '../configTree';
import type { ParsedDeployFile } from '../parsedFile';
import type { DeployDiagnostic, DeployQuickFix, DeployTextEdit } from './deployDiagnostic';

/** The lines of a block-style entry: [start, end) offsets, whole lines, its comments above included. */
interface EntryLines {
  readonly start: number;
  readonly end: number;
  /** The key's column. */
  readonly indent: number;
}

/** Where the moved lines go, at which column, and the lines written before them (`extra:`). */
interface Destination {
  readonly connector: string;
  readonly at: number;
  readonly indent: number;
  readonly head: string;
  /** The base file the connector is defined in, when this file does not define it. */
  readonly inheritedFrom?: string;
}

/** The diagnostic with its move fixes, where the file allows one; `effective`: the file merged onto its bases. */
export function withMisplacedKeyFixes(
  parsed: ParsedDeployFile,
  found: DeployDiagnostic,
  effective: ConfigMap | null = null,
): DeployDiagnostic {
  const offset = parsed.lines.lineStart(found.range.start.line) + found.range.start.character;
  const fixes = misplacedKeyFixes(parsed, offset, effective);
  return fixes.length === 0 ? found : { ...found, fixes: [...found.fixes, ...fixes] };
}

/** One fix per connector the key at `keyOffset` may belong to (those of `effective` too: the file merged onto its bases). */
export function misplacedKeyFixes(
  parsed: ParsedDeployFile,
  keyOffset: number,
  effective: ConfigMap | null = null,
): DeployQuickFix[] {
  const found = findEntry(parsed, keyOffset);
  // An anchored value moved past its aliases would leave them undefined.
  if (found === undefined || found.entry.anchored) return [];
  const lines = entryLines(parsed, found.entry);
  if (lines === undefined) return [];
  const eol = parsed.text.includes('\r\n') ? '\r\n' : '\n';
  const moved = parsed.text.slice(lines.start, lines.end);
  const fixes: DeployQuickFix[] = [];
  for (const to of destinations(parsed, found, effective, eol)) {
    const newText = withLineEnd(parsed.text, to.at, to.head + reindent(moved, lines.indent, to.indent, eol), eol);
    const edits = moveEdits(parsed, lines, to.at, newText);
    if (edits === undefined) continue;
    const where = to.inheritedFrom === undefined ? '' : ` here (the connector is in ${baseName(to.inheritedFrom)})`;
    fixes.push({
      title: `Move \`${found.entry.key}\` to \`connectors.${to.connector}.extra\`${where}`,
      edits,
      preferred: false,
    });
  }
  return fixes.length === 1 ? [{ ...fixes[0]!, preferred: true }] : fixes;
}

/** The misplaced entry, the map it is written in, and the stage (a map with `stage_id`) it is in. */
interface FoundEntry {
  readonly entry: ConfigEntry;
  readonly map: ConfigMap;
  readonly stage: ConfigMap | null;
}

/** The entry whose key starts at `keyOffset`. */
function findEntry(parsed: ParsedDeployFile, keyOffset: number): FoundEntry | undefined {
  if (parsed.root === null) return undefined;
  const seen = new Set<ConfigValue>();
  const todo: Array<{ readonly value: ConfigValue; readonly stage: ConfigMap | null }> = [
    { value: parsed.root, stage: null },
  ];
  while (todo.length > 0 && seen.size < MAX_WALK_NODES) {
    const { value, stage } = todo.pop()!;
    if (seen.has(value)) continue;
    seen.add(value);
    if (isMap(value)) {
      const here = value.entries.has('stage_id') ? value : stage;
      for (const entry of value.entries.values()) {
        if (entry.keyLocation.startOffset === keyOffset && entry.keyLocation.file === parsed.path)
          return { entry, map: value, stage: here };
        todo.push({ value: entry.value, stage: here });
      }
    } else if (isList(value)) {
      for (const item of value.items) todo.push({ value: item, stage });
    }
  }
  return undefined;
}

/** The whole lines of a block-style entry, with the comment lines at its column just above it. */
function entryLines(parsed: ParsedDeployFile, entry: ConfigEntry): EntryLines | undefined {
  const { text, lines } = parsed;
  const keyLine = entry.keyLocation.range.start.line;
  const indent = entry.keyLocation.range.start.character;
  if (!isSpaces(text, lines.lineStart(keyLine), entry.keyLocation.startOffset)) return undefined;
  let first = keyLine;
  while (first > 0 && isCommentAt(text, lines.lineStart(first - 1), indent)) first -= 1;
  return { start: lines.lineStart(first), end: afterLastLine(parsed, entry), indent };
}

/**
 * The connectors' `extra` maps the key may go to: the connector it is written in, else those the
 * stage names (as merged with its base stage), else every one; a connector this file does not
 * define gets an override written here.
 */
function destinations(
  parsed: ParsedDeployFile,
  found: FoundEntry,
  effective: ConfigMap | null,
  eol: string,
): Destination[] {
  const local = valueOf(parsed.root, 'connectors');
  const connectors = isMap(local) ? local : undefined;
  const merged = valueOf(effective, 'connectors');
  const known = (name: string): boolean =>
    connectors?.entries.has(name) === true || (isMap(merged) && isMap(merged.entries.get(name)?.value));
  const own = connectors === undefined ? [] : [...connectors.entries.values()].filter((c) => c.value === found.map);
  const stage = found.stage === null ? null : (effectiveStage(parsed, effective, found.stage) ?? found.stage);
  const named = own.length > 0 ? own.map((c) => c.key) : stage === null ? [] : namedConnectors(stage).filter(known);
  const every = new Set([...(connectors?.entries.keys() ?? []), ...(isMap(merged) ? merged.entries.keys() : [])]);
  const names = named.length > 0 ? named : [...every].filter(known);
  const places: Destination[] = [];
  for (const connector of names) {
    const here = connectors?.entries.get(connector);
    const to =
      here !== undefined
        ? destination(parsed, found.entry, connector, here.value, eol)
        : overrideDestination(parsed, connectors, connector, inheritedFile(merged, connector), eol);
    if (to !== undefined) places.push(to);
  }
  return places;
}

/**
 * The stage of the merged config with the same `stage_id` (its connector names may come from the
 * base); for a top-level stage only: a platform's stages merge with the base platform's.
 */
function effectiveStage(
  parsed: ParsedDeployFile,
  effective: ConfigMap | null,
  stage: ConfigMap,
): ConfigMap | undefined {
  const id = stageIdOf(stage);
  const own = valueOf(parsed.root, 'stages');
  if (!isList(own) || !own.items.includes(stage)) return undefined;
  const stages = valueOf(effective, 'stages');
  if (id === null || !isList(stages)) return undefined;
  const match = stages.items.find((s) => stageIdOf(s) === id);
  return isMap(match) ? match : undefined;
}

/** The file a connector of the merged config is written in. */
function inheritedFile(merged: ConfigValue | undefined, connector: string): string {
  const entry = isMap(merged) ? merged.entries.get(connector) : undefined;
  return entry?.keyLocation.file ?? '';
}

/**
 * `<connector>:` with `extra:` under it, after the last entry of this file's `connectors`, or a
 * new top-level `connectors:` at the end of the file when it has none; merged into the base's
 * connector by vLLM-Omni.
 */
function overrideDestination(
  parsed: ParsedDeployFile,
  connectors: ConfigMap | undefined,
  connector: string,
  inheritedFrom: string,
  eol: string,
): Destination | undefined {
  if (connectors !== undefined) {
    const indent = blockIndent(parsed, connectors);
    if (indent === undefined) return undefined;
    const pad = ' '.repeat(indent);
    return {
      connector,
      at: afterLastLine(parsed, lastEntry(connectors)!),
      indent: indent + 4,
      head: `${pad}${connector}:${eol}${pad}  extra:${eol}`,
      inheritedFrom,
    };
  }
  // A top-level key goes at column 0 of a block map; a flow-style root gets no fix.
  if (!isMap(parsed.root) || blockIndent(parsed, parsed.root) !== 0) return undefined;
  return {
    connector,
    at: parsed.text.length,
    indent: 6,
    head: `connectors:${eol}  ${connector}:${eol}    extra:${eol}`,
    inheritedFrom,
  };
}

/** The connector names a stage's `input_connectors` and `output_connectors` give, each once. */
function namedConnectors(stage: ConfigMap): string[] {
  const names = new Set<string>();
  for (const key of ['input_connectors', 'output_connectors']) {
    const map = stage.entries.get(key)?.value;
    if (!isMap(map)) continue;
    for (const edge of map.entries.values())
      if (isScalar(edge.value) && typeof edge.value.value === 'string') names.add(edge.value.value);
  }
  return [...names];
}

/** After the last entry of the connector's `extra`, or a new `extra:` after the connector's last entry. */
function destination(
  parsed: ParsedDeployFile,
  entry: ConfigEntry,
  connector: string,
  value: ConfigValue,
  eol: string,
): Destination | undefined {
  if (!isMap(value)) return undefined;
  const extra = value.entries.get('extra');
  if (extra === undefined) {
    const indent = blockIndent(parsed, value);
    if (indent === undefined) return undefined;
    return {
      connector,
      at: afterLastLine(parsed, lastEntry(value)!),
      indent: indent + 2,
      head: `${' '.repeat(indent)}extra:${eol}`,
    };
  }
  // Already there: moving it would write the key twice.
  if (!isMap(extra.value) || extra.value.entries.has(entry.key)) return undefined;
  const indent = blockIndent(parsed, extra.value);
  if (indent === undefined) return undefined;
  return { connector, at: afterLastLine(parsed, lastEntry(extra.value)!), indent, head: '' };
}

/** The column of a block map's keys; undefined for an empty or flow map. */
function blockIndent(parsed: ParsedDeployFile, map: ConfigMap): number | undefined {
  const first = map.entries.values().next();
  if (first.done === true) return undefined;
  const key = first.value.keyLocation;
  if (key.file !== parsed.path) return undefined;
  return isSpaces(parsed.text, parsed.lines.lineStart(key.range.start.line), key.startOffset)
    ? key.range.start.character
    : undefined;
}

function lastEntry(map: ConfigMap): ConfigEntry | undefined {
  let last: ConfigEntry | undefined;
  for (const entry of map.entries.values())
    if (last === undefined || entry.span.endOffset > last.span.endOffset) last = entry;
  return last;
}

/** The offset after the line that holds the entry's last character (the text's end on its last line). */
function afterLastLine(parsed: ParsedDeployFile, entry: ConfigEntry): number {
  const { text, lines } = parsed;
  let last = entry.span.endOffset;
  while (last > entry.keyLocation.endOffset && isBlank(text.charCodeAt(last - 1))) last -= 1;
  const line = lines.position(Math.max(entry.keyLocation.startOffset, last - 1)).line;
  return line + 1 < lines.lineCount ? lines.lineStart(line + 1) : text.length;
}

/** The delete and the insert; one edit where they meet (LSP edits may not overlap). */
function moveEdits(
  parsed: ParsedDeployFile,
  from: EntryLines,
  at: number,
  newText: string,
): DeployTextEdit[] | undefined {
  const range = (start: number, end: number) => parsed.lines.location(start, end).range;
  if (at === from.start || at === from.end) return [{ range: range(from.start, from.end), newText }];
  if (at > from.start && at < from.end) return undefined;
  return [
    { range: range(from.start, from.end), newText: '' },
    { range: range(at, at), newText },
  ];
}

/** Lines shifted from column `from` to column `to`; blank lines stay blank. */
function reindent(block: string, from: number, to: number, eol: string): string {
  const out: string[] = [];
  const parts = block.split('\n');
  if (parts[parts.length - 1] === '') parts.pop();
  for (const part of parts) {
    const line = part.endsWith('\r') ? part.slice(0, -1) : part;
    let cut = 0;
    while (cut < from && line.charCodeAt(cut) === 32) cut += 1;
    out.push(cut === line.length ? '' : ' '.repeat(to) + line.slice(cut));
  }
  return out.join(eol) + eol;
}

/** Text inserted at the end of a file without a final line end starts on a line of its own. */
function withLineEnd(text: string, at: number, inserted: string, eol: string): string {
  return at === text.length && text.length > 0 && !text.endsWith('\n') ? eol + inserted : inserted;
}

function isSpaces(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (text.charCodeAt(i) !== 32) return false;
  return true;
}

/** Whether the line at `start` is a comment whose `#` is at column `indent`. */
function isCommentAt(text: string, start: number, indent: number): boolean {
  return isSpaces(text, start, start + indent) && text.charCodeAt(start + indent) === 35;
}

function isBlank(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13;
}
