// Several files read as one log (a log and its rotations) are one text to the parser, so its line
// numbers count through the files. The report places them back: which file, which of its lines.
// Lines are counted as the parser splits them, at each `\n` byte of the text the files give.

/** One file's lines within the joined text. */
export interface FileLines {
  /** The file, named as the command was given it. */
  readonly file: string;
  /** The joined text's line on which the file's first line is (1-based). */
  readonly firstLine: number;
  /** Its lines, a last line without a `\n` counted; 0 for an empty file. */
  readonly lines: number;
}

/** A line of the joined text placed in its file. */
export interface LinePlace {
  readonly file: string;
  readonly line: number;
}

const LF = 10;

/** Counts each file's lines as its text goes by, oldest file first. */
export class JoinedLineCounter {
  private readonly counted: { file: string; firstLine: number; newlines: number; endsLine: boolean; bytes: number }[] =
    [];
  /** The joined text's line being read. */
  private line = 1;

  /** The next file's text begins. */
  startFile(file: string): void {
    // A file whose last line has no `\n` runs on into the next one's first line (as `cat` joins
    // them): the next file begins on that line.
    this.counted.push({ file, firstLine: this.line, newlines: 0, endsLine: true, bytes: 0 });
  }

  /** Some of the current file's text. */
  count(chunk: Uint8Array): void {
    const current = this.counted.at(-1);
    if (current === undefined || chunk.length === 0) return;
    let n = 0;
    for (let at = chunk.indexOf(LF); at !== -1; at = chunk.indexOf(LF, at + 1)) n++;
    current.newlines += n;
    current.bytes += chunk.length;
    current.endsLine = chunk[chunk.length - 1] === LF;
    this.line += n;
  }

  /** The files read so far, with their lines. */
  files(): FileLines[] {
    return this.counted.map((f) => ({
      file: f.file,
      firstLine: f.firstLine,
      lines: f.bytes === 0 ? 0 : f.newlines + (f.endsLine ? 0 : 1),
    }));
  }
}

/**
 * The file and line of joined line `line`: the file where that line begins (a line joined across
 * two files, the first had no final `\n`, is the first one's last); null past the files' lines.
 */
export function placeOfLine(files: readonly FileLines[], line: number): LinePlace | null {
  // The last file beginning on or before the line (files begin in order).
  let lo = 0;
  let hi = files.length - 1;
  let at = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((files[mid] as FileLines).firstLine <= line) {
      at = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  let found: FileLines | null = null;
  // Back over empty files, and to a file the line began in before this one.
  for (let i = at; i >= 0; i--) {
    const f = files[i] as FileLines;
    if (f.lines === 0) continue;
    if (line >= f.firstLine + f.lines) break;
    found = f;
    if (f.firstLine < line) break;
  }
  return found === null ? null : { file: found.file, line: line - found.firstLine + 1 };
}

/** "server.log.1 lines 1–296, server.log lines 297–327": where each file's lines are in the joined count. */
export function fileLinesText(files: readonly FileLines[]): string {
  return files
    .map((f) =>
      f.lines === 0
        ? `${f.file} empty`
        : f.lines === 1
          ? `${f.file} line ${f.firstLine}`
          : `${f.file} lines ${f.firstLine}–${f.firstLine + f.lines - 1}`,
    )
    .join(', ');
}
