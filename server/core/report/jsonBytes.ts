// The text of JSON.stringify(value) (layout `compact`) or JSON.stringify(value, null, 2)
// (`indented`), written piece by piece as UTF-8 into ByteChunks: the caller says where objects
// and arrays open and close, names members and gives values, and no object is built for the
// value. Nesting starts at `depth` (an indented value written inside an enclosing document is
// indented as it sits there).
import { ByteChunks, type Piece } from './byteChunks';
import type { JsonLayout } from './jsonChunks';
import type { MemberRun } from './memberRun';

const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const NAME_END = ByteChunks.constant(': ');
const COMPACT_NAME_END = ByteChunks.constant(':');
const NOTHING = ByteChunks.constant('');
const NULL = ByteChunks.constant('null');
const TRUE = ByteChunks.constant('true');
const FALSE = ByteChunks.constant('false');

// A line break and the indent of each depth, encoded once.
const lineIndents: Piece[] = [];
function lineIndent(depth: number): Piece {
  let piece = lineIndents[depth];
  if (piece === undefined) {
    piece = ByteChunks.constant('\n' + '  '.repeat(depth));
    lineIndents[depth] = piece;
  }
  return piece;
}

/**
 * A member name with each of its lines (comma, line break, indent, `"name": `) encoded once per
 * depth: a member is one copy of bytes, not four writes.
 */
export class MemberName {
  private readonly lines: Piece[] = [];
  private readonly compactForms: Piece[] = [];

  /** For a name read from the input (JsonBytes.named): the member named after it last time. */
  nextNamed: MemberName | null = null;

  constructor(readonly name: string) {}

  /** The member without whitespace: `"name":`, after a comma unless it opens its object. */
  compact(first: boolean): Piece {
    const at = first ? 0 : 1;
    let piece = this.compactForms[at];
    if (piece === undefined) {
      piece = ByteChunks.constant(`${first ? '' : ','}${JSON.stringify(this.name)}:`);
      this.compactForms[at] = piece;
    }
    return piece;
  }

  /** The member's line at a depth, opening its object (first) or after a member. */
  line(depth: number, first: boolean): Piece {
    const at = depth * 2 + (first ? 0 : 1);
    let piece = this.lines[at];
    if (piece === undefined) {
      piece = ByteChunks.constant(`${first ? '' : ','}\n${'  '.repeat(depth)}${JSON.stringify(this.name)}: `);
      this.lines[at] = piece;
    }
    return piece;
  }
}

// Names and words read from a log are kept encoded up to this many per writer (a hostile log can
// name a million fields; past this they are written as they come).
const MAX_KEPT = 4096;

export class JsonBytes {
  /** Per open object or array (index: its depth): whether nothing is in it yet. */
  private readonly empty: boolean[] = [];
  private readonly names = new Map<string, MemberName>();
  /** The member `named` gave last (of this writer's `names`). */
  private lastNamed: MemberName | null = null;
  private readonly words = new Map<string, Piece>();
  private readonly indented: boolean;
  private readonly nameEnd: Piece;

  constructor(
    readonly out: ByteChunks,
    layout: JsonLayout,
    private depth = 0,
  ) {
    this.indented = layout === 'indented';
    this.nameEnd = this.indented ? NAME_END : COMPACT_NAME_END;
  }

  openObject(): void {
    this.open(OPEN_OBJECT);
  }

  closeObject(): void {
    this.close(CLOSE_OBJECT);
  }

  openArray(): void {
    this.open(OPEN_ARRAY);
  }

  closeArray(): void {
    this.close(CLOSE_ARRAY);
  }

  /** The next member of the open object. */
  member(name: MemberName): void {
    const first = this.empty[this.depth] === true;
    if (first) this.empty[this.depth] = false;
    this.out.raw(this.indented ? name.line(this.depth, first) : name.compact(first));
  }

  /** The run's members, next in the open object. */
  members(run: MemberRun): void {
    const first = this.empty[this.depth] === true;
    if (first) this.empty[this.depth] = false;
    this.out.raw(run.piece(this.indented, this.depth, first));
  }

  /**
   * The next member of the open object, by a name read from the input. Every request writes its
   * stages' field names in the same order, so the name is first looked for where it was last
   * time, after the member named before it (a compare of the parser's interned name), and only
   * then in the map.
   */
  named(name: string): void {
    const last = this.lastNamed;
    const predicted = last === null ? null : last.nextNamed;
    let member: MemberName | undefined;
    if (predicted !== null && predicted.name === name) member = predicted;
    else {
      member = this.names.get(name);
      if (member === undefined) {
        if (this.names.size >= MAX_KEPT) {
          this.next();
          this.out.string(name);
          this.out.raw(this.nameEnd);
          return;
        }
        member = new MemberName(name);
        this.names.set(name, member);
      }
      if (last !== null) last.nextNamed = member;
    }
    this.lastNamed = member;
    this.member(member);
  }

  /** A member and its value, in one call each: what a writer of fixed members mostly says. */
  numberMember(name: MemberName, v: number | null): void {
    this.member(name);
    this.number(v);
  }

  stringMember(name: MemberName, s: string | null): void {
    this.member(name);
    this.string(s);
  }

  wordMember(name: MemberName, s: string | null): void {
    this.member(name);
    this.word(s);
  }

  booleanMember(name: MemberName, b: boolean): void {
    this.member(name);
    this.boolean(b);
  }

  /** The next element of the open array. */
  element(): void {
    this.next();
  }

  /** A number, or null (JSON.stringify's text of a non-finite number is null too). */
  number(v: number | null): void {
    if (v === null) this.out.raw(NULL);
    else this.out.number(v);
  }

  string(s: string | null): void {
    if (s === null) this.out.raw(NULL);
    else this.out.string(s);
  }

  /** A string from a small set (a state, a phase, a kind): kept encoded after its first time. */
  word(s: string | null): void {
    if (s === null) {
      this.out.raw(NULL);
      return;
    }
    let piece = this.words.get(s);
    if (piece === undefined) {
      if (this.words.size >= MAX_KEPT) {
        this.out.string(s);
        return;
      }
      piece = ByteChunks.constant(JSON.stringify(s));
      this.words.set(s, piece);
    }
    this.out.raw(piece);
  }

  boolean(b: boolean): void {
    this.out.raw(b ? TRUE : FALSE);
  }

  null(): void {
    this.out.raw(NULL);
  }

  private open(bracket: number): void {
    this.out.byte(bracket);
    this.depth++;
    this.empty[this.depth] = true;
  }

  private close(bracket: number): void {
    // An empty object or array is `{}` / `[]`, on one line.
    if (this.empty[this.depth] !== true) this.out.raw(this.lineIndent(this.depth - 1));
    this.out.byte(bracket);
    this.depth--;
  }

  private next(): void {
    if (this.empty[this.depth] === true) this.empty[this.depth] = false;
    else this.out.byte(COMMA);
    this.out.raw(this.lineIndent(this.depth));
  }

  private lineIndent(depth: number): Piece {
    return this.indented ? lineIndent(depth) : NOTHING;
  }
}
