// Record starts read by comparing bytes with the shapes of prefixes read before.
//
// A record start is a line whose prefix is not the open record's: the next table of a
// request (another call site, often another level) or the next request (another second).
// Such a prefix nearly always repeats the shape of one read a few records earlier: the same
// process, stage and level, the same source file; only the timestamp and the call site's
// line number are new. Within an ASCII piece the line's bytes are compared with the last
// few shapes, and its prefix is made from the shape's strings instead of being scanned
// anew. (scanPrefix takes ~300 ns a line in a micro-benchmark; on the bench log, where 1
// line in 16 starts a record, this made the whole parse ~1.5% faster.)
//
// Exactness: a shape is learned only from a prefix the scanner read at the start of a
// plain line. The scanner's result depends only on the bytes of the head (process, stage,
// level), the timestamp, and `[file:digits]` followed by a space or the line's end, and a
// matching line has the same head and file bytes, a valid timestamp and 1-9 digits; so it
// reads as the scanner would read it. Anything else falls back to the scanner.
import type { LogHeader } from '../records';
import { AsciiWords } from './asciiWords';
import { ownCopy } from './strings';
import { isTimestampAt, type ScannedPrefix } from './prefix';
import { MAX_CALL_SITE_LINE_DIGITS, TIMESTAMP_LENGTH } from './prefixLimits';

const MAX_SHAPES = 4;

/** The fixed parts of a prefix: `<head>MM-DD HH:MM:SS [file:<digits>] `. */
interface PrefixShape {
  /** `[(process) ][[Stage-N] ]LEVEL ` */
  readonly headText: string;
  readonly head: AsciiWords;
  /** `[file:` */
  readonly siteText: string;
  readonly site: AsciiWords;
  readonly level: string;
  readonly process: string | null;
  readonly stagePrefix: number | null;
  readonly file: string;
  /** The timestamp last read with this shape (a string of its own, not a slice of a piece). */
  timestamp: string;
  timestampWords: AsciiWords;
}

export class PrefixTemplates {
  /** Most recently learned first. */
  private readonly shapes: PrefixShape[] = [];
  /** The shape read() matched last; confirm() keeps its timestamp current. */
  private matched: PrefixShape | null = null;

  /**
   * The prefix of the line src[start, end), when the line has the shape of one read before;
   * null sends it to the scanner. `view` holds the bytes `src` was decoded from, ASCII.
   */
  read(src: string, view: DataView, start: number, end: number): ScannedPrefix | null {
    this.matched = null;
    const shapes = this.shapes;
    for (let i = 0; i < shapes.length; i++) {
      const prefix = readShape(shapes[i] as PrefixShape, src, view, start, end);
      if (prefix !== null) {
        this.matched = shapes[i] as PrefixShape;
        return prefix;
      }
    }
    return null;
  }

  /** The prefix read() returned last has become `header`: its shape keeps the timestamp (an own copy). */
  confirm(header: LogHeader): void {
    const shape = this.matched;
    this.matched = null;
    if (shape === null || shape.timestamp === header.timestamp) return;
    const words = AsciiWords.of(header.timestamp);
    if (words === null) return;
    shape.timestamp = header.timestamp;
    shape.timestampWords = words;
  }

  /**
   * Learns the shape of a prefix the scanner read at the start of `line` (a plain line: no
   * colour codes, no stray `\r`), now known as `header` (interned strings, the timestamp an own copy).
   */
  learn(line: string, prefix: ScannedPrefix, header: LogHeader): void {
    this.matched = null;
    const headText = line.slice(0, prefix.timestampStart);
    const siteText = `[${header.file}:`;
    for (const shape of this.shapes) if (shape.headText === headText && shape.siteText === siteText) return;
    const head = AsciiWords.of(headText);
    const site = AsciiWords.of(siteText);
    const timestampWords = AsciiWords.of(header.timestamp);
    // Shorter than a word (`INFO ` without a process): left to the scanner.
    if (head === null || site === null || timestampWords === null) return;
    this.shapes.unshift({
      headText: ownCopy(headText),
      head,
      siteText,
      site,
      level: header.level,
      process: header.process,
      stagePrefix: header.stagePrefix,
      file: header.file,
      timestamp: header.timestamp,
      timestampWords,
    });
    if (this.shapes.length > MAX_SHAPES) this.shapes.pop();
  }
}

function readShape(shape: PrefixShape, src: string, view: DataView, start: number, end: number): ScannedPrefix | null {
  const timestampStart = start + shape.head.length;
  const siteStart = timestampStart + TIMESTAMP_LENGTH + 1;
  const digitsStart = siteStart + shape.site.length;
  // At least one digit and the `]`.
  if (digitsStart + 2 > end || !shape.head.occursAt(view, start)) return null;
  let timestamp = shape.timestamp;
  if (!shape.timestampWords.occursAt(view, timestampStart)) {
    // src[k] is bytes[k] in an ASCII piece: the scanner's own check reads the same characters.
    if (!isTimestampAt(src, timestampStart)) return null;
    timestamp = src.slice(timestampStart, timestampStart + TIMESTAMP_LENGTH);
  }
  if (view.getUint8(timestampStart + TIMESTAMP_LENGTH) !== 32 /* space */ || !shape.site.occursAt(view, siteStart))
    return null;
  let fileLine = 0;
  let d = digitsStart;
  for (; d < end && d - digitsStart <= MAX_CALL_SITE_LINE_DIGITS; d++) {
    const c = view.getUint8(d);
    if (c < 48 /* 0 */ || c > 57 /* 9 */) break;
    fileLine = fileLine * 10 + (c - 48); /* 0 */
  }
  const digits = d - digitsStart;
  // The file is the shape's, which the scanner read: within MAX_CALL_SITE_PATH already.
  if (digits === 0 || digits > MAX_CALL_SITE_LINE_DIGITS || d >= end || view.getUint8(d) !== 93 /* ] */) return null;
  if (d + 1 < end && view.getUint8(d + 1) !== 32 /* space */) return null;
  return {
    level: shape.level,
    timestamp,
    file: shape.file,
    fileLine,
    process: shape.process,
    stagePrefix: shape.stagePrefix,
    headerStart: 0,
    sourceTag: null,
    messageStart: Math.min(end, d + 2) - start,
    timestampStart: shape.head.length,
  };
}
