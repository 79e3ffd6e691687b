// vLLM's log prefix (docs/formats.md#the-log-line-prefix):
//   [(process) ][[Stage-N] ]LEVEL MM-DD HH:MM:SS [path:line] message
// The level may appear mid-line (a record glued after a tqdm bar), so the search is not
// anchored; whatever precedes the process prefix is someone else's unterminated output.
// A CI runner may put its own timestamp before the whole line (`[2026-01-22T14:19:11Z] `,
// or GitHub's bare `2026-01-22T14:19:11.1234567Z `): the scanner skips it, as the search
// does by not being anchored, and the prefix starts after it. So with the tag of a tool that
// merges several servers' logs (sourceTag.ts), before such a timestamp or the prefix: read as
// the line's source.
// Python's default format (`LEVEL:logger.name:message`, no time, no call site; continuation
// lines of a message unprefixed) is read by pythonDefaultPrefix, after both found nothing.
// This runs only on lines the table fast path did not take (record starts, unrelated
// lines), so a regular expression is affordable here. Every length and digit count the
// readers here accept is one of prefixLimits.ts (the literals below spell the same numbers).
import type { LogHeader } from '../records';
import {
  MAX_CALL_SITE_LINE_DIGITS,
  MAX_CALL_SITE_PATH,
  MAX_CI_FRACTION_DIGITS,
  MAX_LOGGER_NAME,
  MAX_PROCESS_NAME,
  MAX_STAGE_DIGITS,
  TIMESTAMP_LENGTH,
} from './prefixLimits';
import { occursAt } from './strings';
import { sourceTagOf } from './sourceTag';
import { journalPrefixEnd, journalSenderEnd } from './journalPrefix';
import { criStreamEnd } from './criLogPrefix';

/** The header fields of one line, with positions in the (cleaned) line. */
export interface ParsedPrefix extends LogHeader {
  /** Where the prefix starts: 0 unless other output precedes it on the line. */
  readonly headerStart: number;
  /** Where the message starts (after the single space that follows `[path:line]`). */
  readonly messageStart: number;
  /** The tag of the server the line came from in a merged log (sourceTag.ts); null without one. */
  readonly sourceTag: string | null;
}

/** The search's reading: MAX_CALL_SITE_PATH and MAX_CALL_SITE_LINE_DIGITS spelled in the literal. */
const HEADER = /(DEBUG|INFO|WARNING|ERROR|CRITICAL) (\d\d-\d\d \d\d:\d\d:\d\d) \[([^\]\s]{1,300}):(\d{1,9})\](?: |$)/;
/** The reference reading of a CI timestamp at the start of a line (stampEndOf reads the same by hand). */
export const CI_STAMP =
  /^(?:\[\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,9})?(?:Z|[+-]\d\d:?\d\d)?\]|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,9})?(?:Z|[+-]\d\d:?\d\d)) /;
/** The reference reading of Python's default logging prefix (pythonDefaultPrefix reads the same by hand). */
export const PYTHON_DEFAULT = /^(DEBUG|INFO|WARNING|ERROR|CRITICAL):([A-Za-z_][A-Za-z0-9_.]{0,119}):/;
const ANSI_CARET = /\^\[\[[0-9;]*m/g;

export function stripAnsi(line: string, caretNotation: boolean): string {
  let out = line.indexOf('\x1b') === -1 ? line : withoutColourCodes(line);
  if (caretNotation) out = out.replace(ANSI_CARET, '');
  return out;
}

/** `line` without its `ESC[<digits and ;>m` colour codes; what replacing /\x1b\[[0-9;]*m/g does, without the regular expression (every coloured record start pays it). */
function withoutColourCodes(line: string): string {
  let out = '';
  let from = 0;
  for (let i = line.indexOf('\x1b'); i !== -1; i = line.indexOf('\x1b', i + 1)) {
    if (line.charCodeAt(i + 1) !== 91 /* [ */) continue;
    let j = i + 2;
    for (
      let c = line.charCodeAt(j);
      (c >= 48 /* 0 */ && c <= 57) /* 9 */ || c === 59 /* ; */;
      c = line.charCodeAt(++j)
    );
    if (line.charCodeAt(j) !== 109 /* m */) continue;
    out += line.slice(from, i);
    from = j + 1;
    i = j;
  }
  return from === 0 ? line : out + line.slice(from);
}

/** The level name (DEBUG, INFO, WARNING, ERROR, CRITICAL) written at i, or null. */
function levelNameAt(line: string, i: number): string | null {
  let level: string;
  switch (line.charCodeAt(i)) {
    case 68 /* D */:
      level = 'DEBUG';
      break;
    case 73 /* I */:
      level = 'INFO';
      break;
    case 87 /* W */:
      level = 'WARNING';
      break;
    case 69 /* E */:
      level = 'ERROR';
      break;
    case 67 /* C */:
      level = 'CRITICAL';
      break;
    default:
      return null;
  }
  return occursAt(line, i, level) ? level : null;
}

/** The level name followed by a space at i, or null. */
function levelAt(line: string, i: number): string | null {
  const level = levelNameAt(line, i);
  return level !== null && line.charCodeAt(i + level.length) === 32 /* space */ ? level : null;
}

function isLetter(c: number): boolean {
  return (c >= 65 /* A */ && c <= 90) /* Z */ || (c >= 97 /* a */ && c <= 122); /* z */
}

function isDigit(line: string, i: number): boolean {
  const c = line.charCodeAt(i);
  return c >= 48 /* 0 */ && c <= 57; /* 9 */
}

/** `MM-DD HH:MM:SS` at i. */
export function isTimestampAt(line: string, i: number): boolean {
  return (
    isDigit(line, i) &&
    isDigit(line, i + 1) &&
    line.charCodeAt(i + 2) === 45 /* - */ &&
    isDigit(line, i + 3) &&
    isDigit(line, i + 4) &&
    line.charCodeAt(i + 5) === 32 /* space */ &&
    isDigit(line, i + 6) &&
    isDigit(line, i + 7) &&
    line.charCodeAt(i + 8) === 58 /* : */ &&
    isDigit(line, i + 9) &&
    isDigit(line, i + 10) &&
    line.charCodeAt(i + 11) === 58 /* : */ &&
    isDigit(line, i + 12) &&
    isDigit(line, i + 13)
  );
}

/** `[path:line]` at i, followed by a space or the end of the line. */
interface CallSite {
  readonly file: string;
  readonly fileLine: number;
  readonly messageStart: number;
}

function callSiteAt(line: string, i: number): CallSite | null {
  if (line.charCodeAt(i) !== 91 /* [ */) return null;
  const fileStart = i + 1;
  const close = line.indexOf(']', fileStart);
  if (close === -1 || close - fileStart > MAX_CALL_SITE_PATH + 1 + MAX_CALL_SITE_LINE_DIGITS) return null;
  // The line number: 1-9 digits before `]`, after the last `:` (read backwards, no search).
  let colon = close - 1;
  let fileLine = 0;
  let scale = 1;
  for (; colon > fileStart; colon--) {
    const c = line.charCodeAt(colon);
    if (c < 48 /* 0 */ || c > 57 /* 9 */) break;
    fileLine += (c - 48) /* 0 */ * scale;
    scale *= 10;
  }
  if (
    colon <= fileStart ||
    line.charCodeAt(colon) !== 58 /* : */ ||
    close - colon < 2 ||
    close - colon > MAX_CALL_SITE_LINE_DIGITS + 1 ||
    colon - fileStart > MAX_CALL_SITE_PATH
  ) {
    return null;
  }
  // HEADER's `[^\]\s]`: no `]` (the first one closes the call site) and no white space.
  for (let d = fileStart; d < colon; d++) if (isRegExpSpace(line.charCodeAt(d))) return null;
  if (close + 1 < line.length && line.charCodeAt(close + 1) !== 32 /* space */) return null;
  return { file: line.slice(fileStart, colon), fileLine, messageStart: Math.min(line.length, close + 2) };
}

/** What `\s` matches in a regular expression (JavaScript's white space and line terminators). */
function isRegExpSpace(c: number): boolean {
  if (c <= 32 /* space */) return c === 32 /* space */ || (c >= 9 /* \t */ && c <= 13); /* \r */
  if (c < 160 /* U+00A0 */) return false;
  return (
    c === 160 /* U+00A0 */ ||
    c === 5760 /* U+1680 */ ||
    (c >= 8192 /* U+2000 */ && c <= 8202) /* U+200A */ ||
    c === 8232 /* U+2028 */ ||
    c === 8233 /* U+2029 */ ||
    c === 8239 /* U+202F */ ||
    c === 8287 /* U+205F */ ||
    c === 12288 /* U+3000 */ ||
    c === 65279 /* U+FEFF */
  );
}

/** What precedes the call site in a prefix at the start of a line: `[(process) ][[Stage-N] ]LEVEL MM-DD HH:MM:SS `. */
interface PrefixHead {
  readonly process: string | null;
  readonly stagePrefix: number | null;
  readonly level: string;
  readonly timestamp: string;
  /** Where the call site's `[` is. */
  readonly length: number;
}

/** Where the `)` closing the `(` at line[start] is, parentheses nested (`(API (0))`); -1 if the name is longer than MAX_PROCESS_NAME. */
function processEnd(line: string, start: number): number {
  const close = line.indexOf(')', start + 1);
  if (close === -1 || close > start + MAX_PROCESS_NAME + 1) return -1;
  const open = line.indexOf('(', start + 1);
  if (open === -1 || open > close) return close;
  let depth = 0;
  const stop = Math.min(line.length, start + MAX_PROCESS_NAME + 2);
  for (let i = start; i < stop; i++) {
    const c = line.charCodeAt(i);
    if (c === 40 /* ( */) depth++;
    else if (c === 41 /* ) */ && --depth === 0) return i;
  }
  return -1;
}

function headAt(line: string, start: number): PrefixHead | null {
  let i = start;
  let process: string | null = null;
  let stagePrefix: number | null = null;
  if (line.charCodeAt(start) === 40 /* ( */) {
    const close = processEnd(line, start);
    if (close === -1 || line.charCodeAt(close + 1) !== 32 /* space */ || !isLetter(line.charCodeAt(start + 1)))
      return null;
    process = line.slice(start + 1, close);
    i = close + 2;
  }
  if (line.charCodeAt(i) === 91 /* [ */ && occursAt(line, i, '[Stage-')) {
    const close = line.indexOf('] ', i + 7);
    if (close === -1 || close === i + 7 || close - (i + 7) > MAX_STAGE_DIGITS) return null;
    let id = 0;
    for (let d = i + 7; d < close; d++) {
      const c = line.charCodeAt(d);
      if (c < 48 /* 0 */ || c > 57 /* 9 */) return null;
      id = id * 10 + (c - 48); /* 0 */
    }
    stagePrefix = id;
    i = close + 2;
  }
  const level = levelAt(line, i);
  if (level === null) return null;
  i += level.length + 1;
  if (!isTimestampAt(line, i) || line.charCodeAt(i + TIMESTAMP_LENGTH) !== 32 /* space */) return null;
  return {
    process,
    stagePrefix,
    level,
    timestamp: line.slice(i, i + TIMESTAMP_LENGTH),
    length: i + TIMESTAMP_LENGTH + 1,
  };
}

/** A prefix read by the scanner: at the start of the line, its parts in the usual order. */
export interface ScannedPrefix extends ParsedPrefix {
  /** Where the timestamp starts; what precedes it is process, stage and level (prefixTemplates.ts). */
  readonly timestampStart: number;
}

function withCallSite(head: PrefixHead, site: CallSite, headerStart: number, sourceTag: string | null): ScannedPrefix {
  return {
    sourceTag,
    level: head.level,
    timestamp: head.timestamp,
    file: site.file,
    fileLine: site.fileLine,
    process: head.process,
    stagePrefix: head.stagePrefix,
    headerStart,
    messageStart: site.messageStart,
    timestampStart: head.length - TIMESTAMP_LENGTH - 1,
  };
}

/** Only lines that start like a prefix (or a CI timestamp) at `at` try the scanner; anything else searches. */
function startsLikePrefix(line: string, at: number): boolean {
  const c = line.charCodeAt(at);
  return (
    c === 40 /* ( */ || c === 91 /* [ */ || (c >= 65 /* A */ && c <= 90) /* Z */ || (c >= 48 /* 0 */ && c <= 57) /* 9 */
  );
}

/** `n` digits at i. */
function digitsAt(line: string, i: number, n: number): boolean {
  for (let k = 0; k < n; k++) if (!isDigit(line, i + k)) return false;
  return true;
}

/** After `YYYY-MM-DDTHH:MM:SS[.f{1,9}][Z|±HH[:]MM]` at i (the zone required when `zoneRequired`); -1 if none. */
function isoTimeEnd(line: string, i: number, zoneRequired: boolean): number {
  if (
    !digitsAt(line, i, 4) ||
    line.charCodeAt(i + 4) !== 45 /* - */ ||
    !digitsAt(line, i + 5, 2) ||
    line.charCodeAt(i + 7) !== 45 /* - */ ||
    !digitsAt(line, i + 8, 2) ||
    line.charCodeAt(i + 10) !== 84 /* T */ ||
    !digitsAt(line, i + 11, 2) ||
    line.charCodeAt(i + 13) !== 58 /* : */ ||
    !digitsAt(line, i + 14, 2) ||
    line.charCodeAt(i + 16) !== 58 /* : */ ||
    !digitsAt(line, i + 17, 2)
  ) {
    return -1;
  }
  let j = i + 19;
  if (line.charCodeAt(j) === 46 /* . */) {
    let d = j + 1;
    while (d - j - 1 < MAX_CI_FRACTION_DIGITS && isDigit(line, d)) d++;
    if (d === j + 1) return -1;
    j = d;
  }
  const c = line.charCodeAt(j);
  if (c === 90 /* Z */) return j + 1;
  if (c === 43 /* + */ || c === 45 /* - */) {
    if (!digitsAt(line, j + 1, 2)) return -1;
    const m = line.charCodeAt(j + 3) === 58 /* : */ ? j + 4 : j + 3;
    return digitsAt(line, m, 2) ? m + 2 : -1;
  }
  return zoneRequired ? -1 : j;
}

/** Where the line's content starts after a CI runner's timestamp (`[ISO-8601] ` or `ISO-8601Z `) at `at`; `at` without one. What CI_STAMP matches. */
export function stampEndOf(line: string, at = 0): number {
  const c = line.charCodeAt(at);
  if (c === 91 /* [ */) {
    const end = isoTimeEnd(line, at + 1, false);
    return end !== -1 && line.charCodeAt(end) === 93 /* ] */ && line.charCodeAt(end + 1) === 32 /* space */
      ? end + 2
      : at;
  }
  if (c >= 48 /* 0 */ && c <= 57 /* 9 */) {
    const end = isoTimeEnd(line, at, true);
    return end !== -1 && line.charCodeAt(end) === 32 /* space */ ? end + 1 : at;
  }
  return at;
}

/**
 * Where the line goes on after what another program put before vLLM's prefix at `at`: a CI
 * runner's timestamp, journalctl's `Dec 07 07:49:02 host vllm[4001]: ` (its short-iso time read
 * as such a timestamp; `ts`'s time alone), or the kubelet's `2026-12-07T07:49:02.123456789Z
 * stdout F `; `at` without any.
 */
export function outerPrefixEnd(line: string, at: number): number {
  const stamped = stampEndOf(line, at);
  if (stamped === at) return journalPrefixEnd(line, at);
  const cri = criStreamEnd(line, stamped);
  return cri > stamped ? cri : journalSenderEnd(line, stamped);
}

/** Python's default logging prefix `LEVEL:logger.name:` at the start of a line (after a CI timestamp). */
export interface PythonDefaultPrefix {
  readonly level: string;
  readonly logger: string;
  /** Where the prefix starts (after a CI timestamp) and where the message starts. */
  readonly headerStart: number;
  readonly messageStart: number;
}

/** The Python default prefix at the start of the line; what PYTHON_DEFAULT matches after stampEndOf. */
export function pythonDefaultPrefix(line: string): PythonDefaultPrefix | null {
  const start = stampEndOf(line);
  const level = levelNameAt(line, start);
  if (level === null) return null;
  const nameStart = start + level.length + 1;
  if (line.charCodeAt(nameStart - 1) !== 58 /* : */) return null;
  const first = line.charCodeAt(nameStart);
  if (!isLetter(first) && first !== 95 /* _ */) return null;
  const stop = Math.min(line.length, nameStart + MAX_LOGGER_NAME + 1);
  let i = nameStart + 1;
  for (; i < stop; i++) {
    // [A-Za-z0-9_.]: a letter case-folded, a digit, `_`, `.`.
    const c = line.charCodeAt(i);
    const lower = c | 32;
    if (!(
      (lower >= 97 /* a */ && lower <= 122) /* z */ ||
      (c >= 48 /* 0 */ && c <= 57) /* 9 */ ||
      c === 95 /* _ */ ||
      c === 46 /* . */
    ))
      break;
  }
  if (i - nameStart > MAX_LOGGER_NAME || line.charCodeAt(i) !== 58 /* : */) return null;
  return { level, logger: line.slice(nameStart, i), headerStart: start, messageStart: i + 1 };
}

export function parsePrefix(line: string): ParsedPrefix | null {
  return scanPrefix(line) ?? searchPrefix(line);
}

/** The prefix at the start of the line, read by the scanner; null leaves the line to searchPrefix. */
export function scanPrefix(line: string): ScannedPrefix | null {
  const tag = sourceTagOf(line);
  const from = tag === null ? 0 : tag.end;
  if (!startsLikePrefix(line, from)) return null;
  const start = outerPrefixEnd(line, from);
  const head = headAt(line, start);
  const site = head === null ? null : callSiteAt(line, head.length);
  return head !== null && site !== null ? withCallSite(head, site, start, tag === null ? null : tag.source) : null;
}

/** The regular-expression search for a prefix anywhere in the line (also the reference the scanner is tested against). */
export function searchPrefix(line: string): ParsedPrefix | null {
  const m = HEADER.exec(line);
  if (m === null) return null;
  const levelAt = m.index;
  let headerStart = levelAt;

  let stagePrefix: number | null = null;
  const stage = stageBefore(line, headerStart);
  if (stage !== null) {
    stagePrefix = stage.id;
    headerStart = stage.start;
  }
  let process: string | null = null;
  const proc = processBefore(line, headerStart);
  if (proc !== null) {
    process = proc.name;
    headerStart = proc.start;
  }
  const tag = sourceTagOf(line);
  return {
    level: m[1] as string,
    timestamp: m[2] as string,
    file: m[3] as string,
    fileLine: Number(m[4]),
    process,
    stagePrefix,
    headerStart,
    messageStart: levelAt + m[0].length,
    sourceTag: tag !== null && tag.end <= headerStart ? tag.source : null,
  };
}

/** `[Stage-N] ` ending exactly at `at`. */
function stageBefore(line: string, at: number): { id: number; start: number } | null {
  if (at < 10 || line.charCodeAt(at - 1) !== 32 /* space */ || line.charCodeAt(at - 2) !== 93 /* ] */) return null;
  const open = line.lastIndexOf('[Stage-', at - 2);
  if (open === -1 || at - 2 - (open + 7) > MAX_STAGE_DIGITS) return null;
  const digits = line.slice(open + 7, at - 2);
  if (!/^\d+$/.test(digits)) return null;
  return { id: Number(digits), start: open };
}

/** `(name) ` ending exactly at `at`; the name may itself contain parentheses: `(API (0))`. */
function processBefore(line: string, at: number): { name: string; start: number } | null {
  if (at < 3 || line.charCodeAt(at - 1) !== 32 /* space */ || line.charCodeAt(at - 2) !== 41 /* ) */) return null;
  let depth = 0;
  // The name is line[i + 1, at - 2): at most MAX_PROCESS_NAME characters.
  const stop = Math.max(0, at - 3 - MAX_PROCESS_NAME);
  for (let i = at - 2; i >= stop; i--) {
    const c = line.charCodeAt(i);
    if (c === 41 /* ) */) depth++;
    else if (c === 40 /* ( */) {
      depth--;
      if (depth === 0) {
        const name = line.slice(i + 1, at - 2);
        return isLetter(name.charCodeAt(0)) ? { name, start: i } : null;
      }
    }
  }
  return null;
}
