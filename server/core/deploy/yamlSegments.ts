// Splits a deploy YAML into pieces that parse on their own, so an edit re-parses only the
// piece it touches (incrementalParse.ts). A piece is a top-level entry (from a line that
// starts with `key:` at column 0 to the next one), or, for a top-level key holding a
// block list (`stages:`), one list item, parsed after the list's header line so that it
// sits in the same context as in the whole file.
//
// The split is refused (null: parse the whole text) where a piece could depend on another:
// anchors and aliases, `<<` merges at the top level, directives and several documents,
// tabs, and lone carriage returns (line counting would differ). Whether a piece that does
// not parse cleanly really ends where the split says is checked by the caller.

import { lineStartsOf } from './sourceRange';

export type SegmentKind = 'entries' | 'items';

export interface YamlSegment {
  /** Text parsed before `text` to give it its context: the list header for a list item
   *  after the first, '' otherwise. */
  readonly prefix: string;
  readonly prefixLines: number;
  readonly text: string;
  /** Spaces parsed after `text`: the indentation of the next piece's first line, so that
   *  what ends where the next token starts (a map whose last value is empty) ends at the
   *  same offset as in the whole file. */
  readonly suffix: string;
  /** Offset and 0-based line of `text` in the whole file. */
  readonly start: number;
  readonly line: number;
  /** `entries`: top-level map entries; `items`: items of the list of one top-level key. */
  readonly kind: SegmentKind;
  /** The first piece of a list (its text starts with the list's key). */
  readonly listStart: boolean;
}

export interface SegmentedText {
  readonly segments: readonly YamlSegment[];
  /** Offsets where lines start (see LineIndex.ofText); for the file's LineIndex to take over. */
  readonly lineStarts: number[];
}

/** A plain key at column 0 followed by `:` and a space or the end of the line. */
const KEY_LINE = /[A-Za-z_][\w.-]*:(?:[ \r\n]|$)/y;
/** `key:` with nothing after it but a comment: the value is on the next lines. */
const LIST_HEADER = /[A-Za-z_][\w.-]*:[ ]*(?:#[^\n]*)?(?:\n|$)/y;
/** An anchor or alias indicator where a node can start. */
const ANCHOR_OR_ALIAS = /(?:^|[\s[\]{},])[&*][^\s[\]{},]/g;
const DOCUMENT_MARKER = /^(?:---|\.\.\.)/gm;

const SPACE = 0x20;
const HASH = 0x23;
const DASH = 0x2d;
const CR = 0x0d;
const LF = 0x0a;

export function splitSegments(text: string): SegmentedText | null {
  if (text.includes('\t') || /\r(?!\n)/.test(text) || /^(?:%|<<)/m.test(text)) return null;
  if (!documentMarkersAllowed(text) || hasAnchorOrAlias(text)) return null;

  const lineStarts = lineStartsOf(text);
  // A text ending with a newline has an empty last "line" that starts at its end.
  const lineCount =
    lineStarts[lineStarts.length - 1] === text.length && text.length > 0 ? lineStarts.length - 1 : lineStarts.length;

  // Top-level blocks: each starts at a key line, except that the first key line belongs to
  // the first block with whatever comes before it.
  const blockLines: number[] = [0];
  let seenKey = false;
  for (let line = 0; line < lineCount; line++) {
    KEY_LINE.lastIndex = lineStarts[line];
    if (!KEY_LINE.test(text)) continue;
    if (seenKey) blockLines.push(line);
    seenKey = true;
  }

  const segments: YamlSegment[] = [];
  for (let b = 0; b < blockLines.length; b++) {
    const from = blockLines[b];
    const to = b + 1 < blockLines.length ? blockLines[b + 1] : lineCount;
    const start = lineStarts[from];
    const end = to < lineStarts.length ? lineStarts[to] : text.length;
    const items = listItemLines(text, lineStarts, from, to);
    if (!items) {
      segments.push({
        prefix: '',
        prefixLines: 0,
        text: text.slice(start, end),
        suffix: '',
        start,
        line: from,
        kind: 'entries',
        listStart: false,
      });
      continue;
    }
    const header = text.slice(start, lineStarts[items[0]]);
    const headerLines = items[0] - from;
    const itemIndent = ' '.repeat(indentOf(text, lineStarts[items[0]]));
    for (let i = 0; i < items.length; i++) {
      const itemStart = i === 0 ? start : lineStarts[items[i]];
      const itemEnd = i + 1 < items.length ? lineStarts[items[i + 1]] : end;
      const first = i === 0;
      segments.push({
        prefix: first ? '' : header,
        prefixLines: first ? 0 : headerLines,
        text: text.slice(itemStart, itemEnd),
        // The next piece is an item at `indent`, or a top-level key at column 0.
        suffix: i + 1 < items.length ? itemIndent : '',
        start: itemStart,
        line: first ? from : items[i],
        kind: 'items',
        listStart: first,
      });
    }
  }
  return { segments, lineStarts };
}

/** For a block `key:` followed by a block list of two items or more: the lines where items start. */
function listItemLines(text: string, lineStarts: readonly number[], from: number, to: number): number[] | null {
  LIST_HEADER.lastIndex = lineStarts[from];
  if (!LIST_HEADER.test(text)) return null;
  let first = from + 1;
  while (first < to && isBlankOrComment(text, lineStarts[first])) first++;
  if (first >= to) return null;
  const indent = itemIndent(text, lineStarts[first]);
  if (indent < 0) return null;
  const items: number[] = [];
  for (let line = first; line < to; line++) if (isItemAt(text, lineStarts[line], indent)) items.push(line);
  return items.length >= 2 ? items : null;
}

function indentOf(text: string, at: number): number {
  let i = at;
  while (text.charCodeAt(i) === SPACE) i++;
  return i - at;
}

function isBlankOrComment(text: string, at: number): boolean {
  let i = at;
  while (text.charCodeAt(i) === SPACE) i++;
  const c = text.charCodeAt(i);
  return c === HASH || c === LF || c === CR || Number.isNaN(c);
}

/** The indentation of a `- ` item line, or -1 when the line is not one. */
function itemIndent(text: string, at: number): number {
  let i = at;
  while (text.charCodeAt(i) === SPACE) i++;
  return isItemAt(text, at, i - at) ? i - at : -1;
}

function isItemAt(text: string, at: number, indent: number): boolean {
  for (let i = 0; i < indent; i++) if (text.charCodeAt(at + i) !== SPACE) return false;
  if (text.charCodeAt(at + indent) !== DASH) return false;
  const next = text.charCodeAt(at + indent + 1);
  return next === SPACE || next === LF || next === CR || Number.isNaN(next);
}

/** Only a single `---` line as the first thing that is not a comment; no `...`. */
function documentMarkersAllowed(text: string): boolean {
  DOCUMENT_MARKER.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = DOCUMENT_MARKER.exec(text)) !== null) {
    const lineEnd = text.indexOf('\n', match.index);
    const line = text.slice(match.index, lineEnd < 0 ? text.length : lineEnd);
    if (match[0] !== '---' || !/^---[ ]*(?:#.*)?\r?$/.test(line)) return false;
    const before = text.slice(0, match.index).split('\n');
    if (!before.every((l) => /^[ ]*(?:#.*)?\r?$/.test(l))) return false;
  }
  return true;
}

/** An `&anchor` or `*alias` outside comment lines (conservative: `a *b` in a value counts too). */
function hasAnchorOrAlias(text: string): boolean {
  ANCHOR_OR_ALIAS.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = ANCHOR_OR_ALIAS.exec(text)) !== null) {
    const lineStart = text.lastIndexOf('\n', match.index) + 1;
    let i = lineStart;
    while (text.charCodeAt(i) === SPACE) i++;
    if (text.charCodeAt(i) !== HASH) return true;
    // A comment line: go on after it (not after the match: a line of `&a` would be walked back over once per match).
    const lineEnd = text.indexOf('\n', match.index);
    if (lineEnd < 0) return false;
    ANCHOR_OR_ALIAS.lastIndex = lineEnd;
  }
  return false;
}
