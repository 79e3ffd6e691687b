// Locations inside one piece of a file (see incrementalParse.ts) that follow the piece
// when an edit above it moves it: each stores its place relative to the piece, and the
// piece's origin says where the piece now starts. Moving a piece is then one assignment
// instead of a walk over its tree. The origin belongs to the piece's latest placement:
// a tree of an older version of the file is not to be read after a newer one is parsed.
import {
  LineIndex,
  lineCounterOf,
  lineStartsOf,
  type SourceLocation,
  type SourcePosition,
  type SourceRange,
} from './sourceRange';

export class PieceOrigin {
  /** Offset and 0-based line in the file of the piece's first character (of its parsed text). */
  offset = 0;
  lines = 0;

  constructor(readonly file: string) {}

  moveTo(offset: number, lines: number): void {
    this.offset = offset;
    this.lines = lines;
  }
}

class PieceLocation implements SourceLocation {
  private shiftedRange: SourceRange;
  private shiftedBy = 0;

  constructor(
    private readonly origin: PieceOrigin,
    private readonly relativeStart: number,
    private readonly relativeEnd: number,
    private readonly relativeRange: SourceRange,
  ) {
    this.shiftedRange = relativeRange;
  }

  get file(): string {
    return this.origin.file;
  }

  get startOffset(): number {
    return this.origin.offset + this.relativeStart;
  }

  get endOffset(): number {
    return this.origin.offset + this.relativeEnd;
  }

  /** Pieces start at the beginning of a line, so only lines move; a new object each time they do. */
  get range(): SourceRange {
    const lines = this.origin.lines;
    if (lines !== this.shiftedBy) {
      const { start, end } = this.relativeRange;
      this.shiftedRange = { start: down(start, lines), end: down(end, lines) };
      this.shiftedBy = lines;
    }
    return this.shiftedRange;
  }
}

function down(position: SourcePosition, lines: number): SourcePosition {
  return { line: position.line + lines, character: position.character };
}

/** The line index of a piece's text whose locations follow `origin`. */
export class PieceLineIndex extends LineIndex {
  constructor(
    file: string,
    text: string,
    readonly origin: PieceOrigin,
  ) {
    super(file, lineCounterOf(lineStartsOf(text)));
  }

  override location(startOffset: number, endOffset: number): SourceLocation {
    return new PieceLocation(this.origin, startOffset, endOffset, super.location(startOffset, endOffset).range);
  }
}
