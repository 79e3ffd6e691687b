// Parses successive versions of one deploy YAML, re-parsing only the pieces an edit
// touched. The text is split into top-level entries and the items of top-level block lists
// (yamlSegments.ts); each piece is parsed alone (a list item after its list's header line)
// and cached by its text, moved to its current place (its locations follow its origin:
// pieceLocation.ts), and the pieces are put together into the tree and problems a parse of
// the whole text gives. On a 5,000-line config an edit inside one stage parses that stage,
// not the 5,000 lines, and moving the stages below it costs one assignment each.
//
// The result must equal parseDeployFile's exactly (test/unit/deploy-incremental.test.ts).
// A piece is parsed with the indentation of the next piece's first line after it, so what
// ends at the next token ends at the same offset. A piece that parses without problems
// ends in a clean state, so the next piece starts as in the whole text. A piece with
// problems (half-typed text) may not: an unclosed quote swallows what follows. So such a
// piece is checked by parsing it together with the next piece and comparing with the two
// pieces put together; when they differ, or the split is not safe at all (anchors, several
// documents, tabs: see yamlSegments.ts), the whole text is parsed. Problems are listed in
// text order on both paths (inDocumentOrder).
import type { Document } from 'yaml';
import { isMap as isYamlMap, isPair, isScalar as isYamlScalar } from 'yaml';
import type { ConfigEntry, ConfigMap, ConfigValue } from './configTree';
import {
  fromYamlError,
  inDocumentOrder,
  parseDeployFile,
  parseYamlDocuments,
  type ParsedDeployFile,
  type YamlProblem,
} from './parsedFile';
import { scanNestingExcess } from './nesting';
import { PieceLineIndex, PieceOrigin } from './pieceLocation';
import { sameProblems, sameValue } from './sameParse';
import { LineIndex } from './sourceRange';
import { splitSegments, type YamlSegment } from './yamlSegments';
import { documentToTree } from './yamlToTree';
import { pushAll } from '../arrays';

/** One piece parsed in its context (prefix + text + suffix); its locations follow `origin`. */
interface PieceParse {
  readonly origin: PieceOrigin;
  readonly root: ConfigMap;
  /** The `yaml` values of the root map's keys, to find keys repeated across pieces as `yaml` does. */
  readonly keyValues: readonly unknown[];
  readonly errors: readonly YamlProblem[];
  readonly warnings: readonly YamlProblem[];
}

/** A piece at its place in the text being put together. */
interface PlacedPiece {
  /** `entries` pieces: the root entries. `items` pieces: the list's key entry. */
  readonly entries: readonly ConfigEntry[];
  readonly keyValues: readonly unknown[];
  readonly items: readonly ConfigValue[];
  readonly listStart: number;
  readonly listEnd: number;
  readonly rootStart: number;
  readonly rootEnd: number;
  readonly errors: readonly YamlProblem[];
  readonly warnings: readonly YamlProblem[];
}

interface Assembled {
  readonly root: ConfigMap;
  readonly problems: readonly YamlProblem[];
}

/** How a version was parsed, for tests and the benchmark. */
export interface IncrementalParseStats {
  readonly mode: 'whole' | 'pieces';
  readonly pieces: number;
  readonly parsedPieces: number;
}

/** Pieces kept across versions that are parsed whole, beyond those of the file itself. */
const MAX_KEPT = 2000;

export class IncrementalDeployParser {
  /** Parsed pieces by context (prefix and suffix), then text: the pieces of the last version. */
  private pieces = new Map<string, Map<string, PieceParse>>();
  /** Outcome of the check of a piece with problems against the next piece. */
  private checks = new Map<string, boolean>();
  private parsedNow = 0;
  last: IncrementalParseStats = { mode: 'whole', pieces: 0, parsedPieces: 0 };

  constructor(readonly path: string) {}

  parse(text: string): ParsedDeployFile {
    // A text nested too deep is refused as a whole (parseDeployFile), the same way whatever the pieces.
    const split = scanNestingExcess(text) === null ? splitSegments(text) : null;
    const previous = { pieces: this.pieces, checks: this.checks };
    this.pieces = new Map();
    this.checks = new Map();
    this.parsedNow = 0;
    if (split && split.segments.length >= 2) {
      const assembled = this.assemblePieces(
        split.segments,
        LineIndex.fromLineStarts(this.path, split.lineStarts),
        previous,
      );
      if (assembled) {
        this.last = { mode: 'pieces', pieces: split.segments.length, parsedPieces: this.parsedNow };
        return { path: this.path, text, lines: assembled.lines, root: assembled.root, problems: assembled.problems };
      }
    }
    // Keep the pieces of before (and those parsed now): once the text splits again, the
    // stages nobody touched are still parsed.
    this.keepPrevious(previous, split?.segments.length ?? 0);
    this.last = { mode: 'whole', pieces: split?.segments.length ?? 0, parsedPieces: this.parsedNow };
    return parseDeployFile(this.path, text);
  }

  private keepPrevious(
    previous: { pieces: Map<string, Map<string, PieceParse>>; checks: Map<string, boolean> },
    segments: number,
  ): void {
    let kept = 0;
    for (const [context, byText] of previous.pieces) {
      let into = this.pieces.get(context);
      if (!into) {
        into = new Map();
        this.pieces.set(context, into);
      }
      for (const [text, parse] of byText) if (!into.has(text) && kept++ < MAX_KEPT + segments) into.set(text, parse);
    }
    for (const [key, same] of previous.checks)
      if (!this.checks.has(key) && this.checks.size < MAX_KEPT) this.checks.set(key, same);
  }

  private assemblePieces(
    segments: readonly YamlSegment[],
    lines: LineIndex,
    previous: { pieces: Map<string, Map<string, PieceParse>>; checks: Map<string, boolean> },
  ): (Assembled & { lines: LineIndex }) | null {
    const parses: PieceParse[] = [];
    const used = new Set<PieceParse>();
    for (const segment of segments) {
      const parse = this.pieceParse(segment, previous.pieces, used);
      if (!parse) return null;
      parses.push(parse);
    }
    for (let i = 0; i < segments.length; i++) {
      const parse = parses[i];
      if (parse.errors.length === 0 && parse.warnings.length === 0) continue;
      const segment = segments[i];
      // Problems inside a list item's borrowed header would be placed in the item before it.
      const inPrefix = (p: YamlProblem) => p.location.startOffset - parse.origin.offset < segment.prefix.length;
      if (segment.prefix !== '' && (parse.errors.some(inPrefix) || parse.warnings.some(inPrefix))) return null;
      if (
        i + 1 < segments.length &&
        !this.checkWithNext(segment, parse, segments[i + 1], parses[i + 1], previous.checks)
      )
        return null;
    }
    // Last, after the checks placed pieces where they compared them: each piece where it is now.
    const placed = segments.map((segment, i) =>
      place(parses[i], segment, segment.start - segment.prefix.length, segment.line - segment.prefixLines),
    );
    if (placed.some((piece) => piece === null)) return null;
    const assembled = assemble(segments, placed as PlacedPiece[], lines);
    return assembled && { ...assembled, lines };
  }

  /** Parses `segment` and `next` as one text and compares with the two pieces put together. */
  private checkWithNext(
    segment: YamlSegment,
    parse: PieceParse,
    next: YamlSegment,
    nextParse: PieceParse,
    previous: Map<string, boolean>,
  ): boolean {
    const key = `${segment.prefix}\u0000${segment.text}\u0000${next.prefix}\u0000${next.text}\u0000${next.suffix}`;
    const known = this.checks.get(key) ?? previous.get(key);
    if (known !== undefined) {
      this.checks.set(key, known);
      return known;
    }
    const text = segment.prefix + segment.text + next.text + next.suffix;
    const whole = parseDeployFile(this.path, text);
    const here: YamlSegment = { ...segment, start: segment.prefix.length, line: segment.prefixLines };
    const there: YamlSegment = {
      ...next,
      start: here.start + segment.text.length,
      line: here.line + countLines(segment.text),
    };
    const first = place(parse, here, 0, 0);
    const second = place(nextParse, there, there.start - next.prefix.length, there.line - next.prefixLines);
    const together = first && second && assemble([here, there], [first, second], whole.lines);
    const same =
      together !== null && sameValue(whole.root, together.root) && sameProblems(whole.problems, together.problems);
    this.checks.set(key, same);
    return same;
  }

  private pieceParse(
    segment: YamlSegment,
    previous: Map<string, Map<string, PieceParse>>,
    used: Set<PieceParse>,
  ): PieceParse | null {
    const context = `${segment.prefix}\u0000${segment.suffix}`;
    let known = this.pieces.get(context)?.get(segment.text) ?? previous.get(context)?.get(segment.text);
    // The same text twice in one file: each place needs a tree (and an origin) of its own.
    if (known && used.has(known)) known = undefined;
    if (!known) {
      const fresh = parsePiece(this.path, segment.prefix + segment.text + segment.suffix);
      if (!fresh) return null;
      this.parsedNow++;
      known = fresh;
    }
    let byText = this.pieces.get(context);
    if (!byText) {
      byText = new Map();
      this.pieces.set(context, byText);
    }
    byText.set(segment.text, known);
    used.add(known);
    return known;
  }
}

function parsePiece(path: string, text: string): PieceParse | null {
  const origin = new PieceOrigin(path);
  const { documents, lines } = parseYamlDocuments(path, text, new PieceLineIndex(path, text, origin));
  if (documents.length !== 1) return null;
  const doc: Document = documents[0];
  const root = documentToTree(doc, lines);
  if (root?.kind !== 'map' || !isYamlMap(doc.contents)) return null;
  const keyValues = doc.contents.items.map((pair) => (isPair(pair) && isYamlScalar(pair.key) ? pair.key.value : pair));
  return {
    origin,
    root,
    keyValues,
    errors: doc.errors.map((error) => fromYamlError(error, lines)),
    warnings: doc.warnings.map((warning) => fromYamlError(warning, lines, 'warning')),
  };
}

/** Moves the piece's origin; its entries, list items and problems, or null when its shape is not what the split expects. */
function place(parse: PieceParse, segment: YamlSegment, offset: number, lines: number): PlacedPiece | null {
  parse.origin.moveTo(offset, lines);
  const root = parse.root;
  let entries: ConfigEntry[];
  let items: readonly ConfigValue[] = [];
  let listStart = 0;
  let listEnd = 0;
  if (segment.kind === 'entries') entries = [...root.entries.values()];
  else {
    const [only, ...rest] = [...root.entries.values()];
    if (!only || rest.length > 0 || only.value.kind !== 'list' || parse.keyValues.length !== 1) return null;
    entries = [only];
    items = only.value.items;
    listStart = only.value.location.startOffset;
    listEnd = only.value.location.endOffset;
  }
  return {
    entries,
    keyValues: parse.keyValues,
    items,
    listStart,
    listEnd,
    rootStart: root.location.startOffset,
    rootEnd: root.location.endOffset,
    errors: parse.errors,
    warnings: parse.warnings,
  };
}

/** The root map and problems of consecutive pieces, or null when a key repeats across pieces. */
function assemble(
  segments: readonly YamlSegment[],
  pieces: readonly PlacedPiece[],
  lines: LineIndex,
): Assembled | null {
  const entries = new Map<string, ConfigEntry>();
  const keyValues = new Set<unknown>();
  let list: { key: ConfigEntry; items: ConfigValue[]; start: number; end: number } | null = null;
  // A key written in two pieces: `yaml` reports it in a whole parse (and the tree keeps one).
  const newKeys = (values: readonly unknown[]): boolean => {
    const primitive = values.filter(isPrimitive); // other keys `yaml` compares by identity
    if (primitive.some((value) => keyValues.has(value))) return false;
    for (const value of primitive) keyValues.add(value);
    return true;
  };
  const add = (entry: ConfigEntry): boolean => {
    if (entries.has(entry.key)) return false;
    entries.set(entry.key, entry);
    return true;
  };
  const closeList = (): boolean => {
    if (!list) return true;
    const { key, items, start, end } = list;
    list = null;
    const value: ConfigValue = { kind: 'list', items, location: lines.location(start, end) };
    return add({
      ...key,
      value,
      span: lines.location(key.keyLocation.startOffset, Math.max(end, key.keyLocation.endOffset)),
    });
  };

  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    const piece = pieces[i];
    if (segment.kind === 'entries') {
      if (!closeList() || !newKeys(piece.keyValues) || !piece.entries.every(add)) return null;
    } else if (segment.listStart || !list) {
      if (!closeList() || !newKeys(piece.keyValues)) return null;
      list = { key: piece.entries[0], items: [...piece.items], start: piece.listStart, end: piece.listEnd };
    } else {
      pushAll(list.items, piece.items);
      list.end = piece.listEnd;
    }
  }
  if (!closeList()) return null;
  const root: ConfigMap = {
    kind: 'map',
    entries,
    location: lines.location(pieces[0].rootStart, pieces[pieces.length - 1].rootEnd),
  };
  const problems = inDocumentOrder(pieces.flatMap((piece) => [...piece.errors, ...piece.warnings]));
  return { root, problems };
}

function isPrimitive(value: unknown): boolean {
  return value === null || (typeof value !== 'object' && typeof value !== 'function');
}

function countLines(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) count++;
  return count;
}
