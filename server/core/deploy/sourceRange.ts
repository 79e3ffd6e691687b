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

/** Converts offsets of one text to positions. */
export class LineIndex {
  constructor(
    readonly file: string,
    private readonly counter: LineCounter,
  ) {}

  /** Lines of a text: one starts at 0 and after each `\n`. (The `yaml` parser's own line
   *  counter misses the newlines inside some tokens it rejects, so lines are counted here.) */
  static ofText(file: string, text: string): LineIndex {
    return new LineIndex(file, lineCounterOf(lineStartsOf(text)));
  }

  static fromLineStarts(file: string, lineStarts: number[]): LineIndex {
    return new LineIndex(file, lineCounterOf(lineStarts));
  }

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

/** A `yaml` LineCounter over `lineStarts` (which it takes over: do not change them after). */
export function lineCounterOf(lineStarts: number[]): LineCounter {
  const counter = new LineCounter();
  counter.lineStarts = lineStarts;
  return counter;
}

export function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  return starts;
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
