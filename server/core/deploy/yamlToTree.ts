// Converts one `yaml` document into a ConfigValue tree with source locations. Follows
// what PyYAML's safe_load (which vLLM-Omni uses) makes of the same text: aliases read as
// the anchored value, `<<` merge keys copy the merged map's entries under the explicit
// ones, and a repeated key keeps its last value.
import {
  isAlias,
  isCollection,
  isMap,
  isPair,
  isScalar,
  isSeq,
  type Alias,
  type Document,
  type Node,
  type Scalar,
} from 'yaml';
import type { ConfigEntry, ConfigValue } from './configTree';
import type { LineIndex } from './sourceRange';

type AnyNode = Node | null | undefined;

export function documentToTree(doc: Document, lines: LineIndex): ConfigValue | null {
  return new TreeBuilder(aliasTargets(doc), lines).convert(doc.contents as AnyNode);
}

/**
 * What each alias stands for, found in one pass over the document: the last node before
 * the alias (in document order) that carries its anchor, as `yaml`'s `Alias.resolve` finds
 * it. (`resolve` itself visits the document from the start for every alias, which made
 * a file with thousands of aliases take seconds to minutes.) The walk keeps its own stack:
 * a document's depth is bounded by the parse (nesting.ts), but not by much.
 */
function aliasTargets(doc: Document): Map<Alias, Node> {
  const targets = new Map<Alias, Node>();
  const anchors = new Map<string, Node>();
  const todo: unknown[] = [doc.contents];
  while (todo.length > 0) {
    const node = todo.pop();
    if (isPair(node)) {
      todo.push(node.value, node.key); // the key comes first in document order
      continue;
    }
    if (isAlias(node)) {
      const target = anchors.get(node.source);
      if (target) targets.set(node, target);
      continue;
    }
    if (isScalar(node) || isCollection(node)) {
      if (node.anchor) anchors.set(node.anchor, node);
      if (isCollection(node)) for (let i = node.items.length - 1; i >= 0; i--) todo.push(node.items[i]);
    }
  }
  return targets;
}

class TreeBuilder {
  /** Converted nodes, so an alias shares the anchored value instead of copying it (and a
   *  document built to blow up through nested aliases stays linear). */
  private readonly done = new Map<Node, ConfigValue>();
  private readonly inProgress = new Set<Node>();

  constructor(
    private readonly aliases: ReadonlyMap<Alias, Node>,
    private readonly lines: LineIndex,
  ) {}

  convert(node: AnyNode): ConfigValue | null {
    if (!node) return null;
    if (isAlias(node)) {
      const target = this.aliases.get(node);
      // An unresolved alias is reported by the parser itself; a self-containing alias
      // (`a: &x [*x]`) has no finite value, so it reads as null here.
      return target && !this.inProgress.has(target) ? this.convert(target) : null;
    }
    const cached = this.done.get(node);
    if (cached) return cached;
    this.inProgress.add(node);
    const value = this.convertFresh(node);
    this.inProgress.delete(node);
    if (value) this.done.set(node, value);
    return value;
  }

  private convertFresh(node: Node): ConfigValue | null {
    const [start, end] = node.range ?? [0, 0];
    const location = this.lines.location(start, end);
    if (isScalar(node)) return this.scalar(node, location);
    if (isSeq(node)) {
      const items: ConfigValue[] = [];
      for (const item of node.items) {
        const converted = this.convert(item as AnyNode);
        if (converted) items.push(converted);
      }
      return { kind: 'list', items, location };
    }
    if (isMap(node)) return { kind: 'map', entries: this.entries(node.items), location };
    return null;
  }

  private scalar(node: Scalar, location: ConfigValue['location']): ConfigValue {
    const raw = node.value;
    const source = typeof node.source === 'string' ? node.source : String(raw);
    const value =
      raw === null || raw === undefined
        ? null
        : typeof raw === 'string' || typeof raw === 'number' || typeof raw === 'boolean'
          ? raw
          : source; // timestamps, binary, bigint: keep the text
    const quoted = node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE';
    const integer = typeof value === 'number' && Number.isInteger(value) && !/[.eE]/.test(source);
    return { kind: 'scalar', value, text: source, quoted, integer, location };
  }

  private entries(pairs: readonly unknown[]): Map<string, ConfigEntry> {
    const explicit = new Map<string, ConfigEntry>();
    const merged = new Map<string, ConfigEntry>();
    for (const pair of pairs) {
      if (!isPair(pair)) continue;
      const keyNode = pair.key as AnyNode;
      if (!isScalar(keyNode)) continue; // complex keys never name a deploy setting
      if (isMergeKey(keyNode)) {
        this.collectMerge(pair.value as AnyNode, merged);
        continue;
      }
      const entry = this.entry(keyNode, pair.value as AnyNode);
      explicit.delete(entry.key); // a repeated key: the last one wins and keeps its place
      explicit.set(entry.key, entry);
    }
    if (merged.size === 0) return explicit;
    const result = new Map<string, ConfigEntry>();
    for (const [key, entry] of merged) if (!explicit.has(key)) result.set(key, entry);
    for (const [key, entry] of explicit) result.set(key, entry);
    return result;
  }

  /** `<<: *a` or `<<: [*a, *b]`: earlier sources win over later ones. */
  private collectMerge(node: AnyNode, into: Map<string, ConfigEntry>): void {
    const sources = isSeq(node) ? (node.items as AnyNode[]) : [node];
    for (const source of sources) {
      const value = this.convert(source);
      if (value?.kind !== 'map') continue;
      for (const [key, entry] of value.entries) if (!into.has(key)) into.set(key, entry);
    }
  }

  private entry(keyNode: Scalar, valueNode: AnyNode): ConfigEntry {
    const quoted = keyNode.type === 'QUOTE_DOUBLE' || keyNode.type === 'QUOTE_SINGLE';
    const key = quoted || typeof keyNode.source !== 'string' ? String(keyNode.value) : keyNode.source;
    const [keyStart, keyEnd] = keyNode.range ?? [0, 0];
    const keyLocation = this.lines.location(keyStart, keyEnd);
    const value = this.convert(valueNode) ?? this.emptyValue(keyEnd);
    const valueEnd = valueNode?.range ? valueNode.range[1] : keyEnd;
    return {
      key,
      keyLocation,
      value,
      span: this.lines.location(keyStart, Math.max(valueEnd, keyEnd)),
      anchored: Boolean(valueNode && !isAlias(valueNode) && valueNode.anchor),
    };
  }

  /** `key:` with nothing after it is null, placed right after the key. */
  private emptyValue(offset: number): ConfigValue {
    return {
      kind: 'scalar',
      value: null,
      text: '',
      quoted: false,
      integer: false,
      location: this.lines.location(offset, offset),
    };
  }
}

function isMergeKey(key: Scalar): boolean {
  return typeof key.value === 'symbol' || (key.source === '<<' && key.type === 'PLAIN');
}
