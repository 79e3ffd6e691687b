// Positions in a deploy YAML. Lines and characters are 0-based and characters count
// UTF-16 code units, the same convention as LSP and VS Code, so the language server can
// hand them on unchanged. Offsets are kept beside them because lookups by offset are
// cheaper than comparing line/character pairs.
import { LineCounter } from 'yaml';

export interface SourcePosition {
  readonly line: number;
  readonly character: number;
}

export interface SourceRange {
  readonly start: SourcePosition;
  readonly end: SourcePosition;
}

/** Where a value was written: which file, which span. */
export interface SourceLocation {
  readonly file: string;
  readonly range: SourceRange;
  readonly startOffset: number;
  readonly endOffset: number;
}

/** Converts offsets of one text to positions. Wraps the `yaml` LineCounter filled while parsing. */
export class LineIndex {
  constructor(
    readonly file: string,
    private readonly counter: LineCounter,
  ) {}

  position(offset: number): SourcePosition {
    const { line, col } = this.counter.linePos(offset);
    return { line: line - 1, character: col - 1 };
  }

  location(startOffset: number, endOffset: number): SourceLocation {
    return {
      file: this.file,
      range: { start: this.position(startOffset), end: this.position(endOffset) },
      startOffset,
      endOffset,
    };
  }

  /** Offset of the first character of a 0-based line (the text length past the last line). */
  lineStart(line: number): number {
    const starts = this.counter.lineStarts;
    return line < starts.length ? starts[line] : (starts[starts.length - 1] ?? 0);
  }

  get lineCount(): number {
    return this.counter.lineStarts.length;
  }
}

export function containsOffset(location: SourceLocation, offset: number): boolean {
  return offset >= location.startOffset && offset <= location.endOffset;
}

/** A short human reference such as `qwen3_tts.yaml:23`. */
export function describeLocation(location: SourceLocation, relativeTo?: string): string {
  const name = location.file === relativeTo ? 'this file' : baseName(location.file);
  return `${name}:${location.range.start.line + 1}`;
}

function baseName(file: string): string {
  const cut = Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\'));
  return cut >= 0 ? file.slice(cut + 1) : file;
}
