// Lexing of single lines of the text exposition format 0.0.4: sample lines
// (`name{label="value",...} value [timestamp]`), `# HELP` / `# TYPE` comments, and
// numbers as Go's strconv.ParseFloat accepts them in practice (`NaN`, `+Inf`, `-Inf`,
// exponents). A character scanner, not a regex over the whole line, so a hostile line
// costs time linear in its length and an error says where it went wrong.

export interface SampleLine {
  readonly name: string;
  /** In exposition order; duplicate names are rejected. */
  readonly labels: ReadonlyArray<readonly [string, string]>;
  readonly value: number;
  readonly timestampMs: number | null;
}

export type SampleLineResult =
  { readonly ok: true; readonly sample: SampleLine } | { readonly ok: false; readonly message: string };

export type CommentLine =
  | { readonly kind: 'help'; readonly name: string; readonly help: string }
  | { readonly kind: 'type'; readonly name: string; readonly type: string }
  | { readonly kind: 'comment' }
  | { readonly kind: 'invalid'; readonly message: string };

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const INFINITY = /^([+-]?)inf(?:inity)?$/i;
const NAN = /^[+-]?nan$/i;
const TIMESTAMP = /^-?\d+$/;

/** A sample value or `le`/`quantile` label, or undefined when it is not a number. */
export function parseNumber(text: string): number | undefined {
  if (DECIMAL.test(text)) return Number(text);
  const inf = INFINITY.exec(text);
  if (inf !== null) return inf[1] === '-' ? -Infinity : Infinity;
  if (NAN.test(text)) return NaN;
  return undefined;
}

/** A number not finite as the exposition format spells it (`+Inf`, `-Inf`, `NaN`); null for a finite one. */
export function nonFiniteSampleText(v: number): '+Inf' | '-Inf' | 'NaN' | null {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  return v === -Infinity ? '-Inf' : null;
}

function isBlank(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

function isNameStart(code: number, allowColon: boolean): boolean {
  return (
    (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || code === 0x5f || (allowColon && code === 0x3a)
  );
}

function isNameChar(code: number, allowColon: boolean): boolean {
  return isNameStart(code, allowColon) || (code >= 0x30 && code <= 0x39);
}

class Cursor {
  pos = 0;
  constructor(readonly text: string) {}

  get done(): boolean {
    return this.pos >= this.text.length;
  }

  peek(): number {
    return this.text.charCodeAt(this.pos);
  }

  skipBlanks(): void {
    while (!this.done && isBlank(this.peek())) this.pos++;
  }

  /** A metric name (colons allowed) or label name (no colons); '' when none starts here. */
  name(allowColon: boolean): string {
    const start = this.pos;
    if (this.done || !isNameStart(this.peek(), allowColon)) return '';
    this.pos++;
    while (!this.done && isNameChar(this.peek(), allowColon)) this.pos++;
    return this.text.slice(start, this.pos);
  }

  /** Text up to the next blank or the end. */
  token(): string {
    const start = this.pos;
    while (!this.done && !isBlank(this.peek())) this.pos++;
    return this.text.slice(start, this.pos);
  }
}

/** Reads a quoted label value starting after the opening quote; undefined if unterminated. */
function quotedValue(cursor: Cursor): string | undefined {
  const text = cursor.text;
  let out = '';
  let runStart = cursor.pos;
  while (cursor.pos < text.length) {
    const code = text.charCodeAt(cursor.pos);
    if (code === 0x22 /* " */) {
      out += text.slice(runStart, cursor.pos);
      cursor.pos++;
      return out;
    }
    if (code === 0x5c /* \ */ && cursor.pos + 1 < text.length) {
      out += text.slice(runStart, cursor.pos);
      const next = text[cursor.pos + 1];
      // The format defines only \\, \" and \n; like Prometheus, keep any other pair verbatim.
      out += next === 'n' ? '\n' : next === '\\' || next === '"' ? next : '\\' + next;
      cursor.pos += 2;
      runStart = cursor.pos;
      continue;
    }
    cursor.pos++;
  }
  return undefined;
}

function labelSet(cursor: Cursor): { labels: Array<[string, string]> } | { error: string } {
  const labels: Array<[string, string]> = [];
  const seen = new Set<string>();
  cursor.pos++; // past '{'
  for (;;) {
    cursor.skipBlanks();
    if (cursor.done) return { error: 'unterminated label set (missing "}")' };
    if (cursor.peek() === 0x7d /* } */) {
      cursor.pos++;
      return { labels };
    }
    const column = cursor.pos + 1;
    const name = cursor.name(false);
    if (name === '') return { error: `expected a label name at column ${column}` };
    cursor.skipBlanks();
    if (cursor.done || cursor.peek() !== 0x3d /* = */) return { error: `expected "=" after label "${name}"` };
    cursor.pos++;
    cursor.skipBlanks();
    if (cursor.done || cursor.peek() !== 0x22) return { error: `expected a quoted value for label "${name}"` };
    cursor.pos++;
    const value = quotedValue(cursor);
    if (value === undefined) return { error: `unterminated value of label "${name}"` };
    if (seen.has(name)) return { error: `duplicate label "${name}"` };
    seen.add(name);
    labels.push([name, value]);
    cursor.skipBlanks();
    if (cursor.done) return { error: 'unterminated label set (missing "}")' };
    const next = cursor.peek();
    if (next === 0x2c /* , */) {
      cursor.pos++;
    } else if (next !== 0x7d) {
      return { error: `expected "," or "}" after label "${name}"` };
    }
  }
}

export function parseSampleLine(line: string): SampleLineResult {
  const cursor = new Cursor(line);
  cursor.skipBlanks();
  const name = cursor.name(true);
  if (name === '') return { ok: false, message: 'not a sample: expected a metric name' };
  let labels: Array<[string, string]> = [];
  cursor.skipBlanks();
  if (!cursor.done && cursor.peek() === 0x7b /* { */) {
    const set = labelSet(cursor);
    if ('error' in set) return { ok: false, message: set.error };
    labels = set.labels;
    cursor.skipBlanks();
  } else if (!cursor.done && cursor.pos > 0 && !isBlank(line.charCodeAt(cursor.pos - 1))) {
    return { ok: false, message: `unexpected character "${line[cursor.pos]}" in metric name` };
  }
  if (cursor.done) return { ok: false, message: `sample "${name}" has no value` };
  const valueText = cursor.token();
  const value = parseNumber(valueText);
  if (value === undefined) return { ok: false, message: `invalid sample value "${valueText}"` };
  cursor.skipBlanks();
  let timestampMs: number | null = null;
  if (!cursor.done) {
    const stamp = cursor.token();
    if (!TIMESTAMP.test(stamp)) return { ok: false, message: `invalid timestamp "${stamp}"` };
    timestampMs = Number(stamp);
    cursor.skipBlanks();
    if (!cursor.done) return { ok: false, message: 'unexpected text after the timestamp' };
  }
  return { ok: true, sample: { name, labels, value, timestampMs } };
}

/** HELP text escapes are `\\` and `\n` only. */
function unescapeHelp(text: string): string {
  return text.replace(/\\(\\|n)/g, (_match, escaped: string) => (escaped === 'n' ? '\n' : '\\'));
}

/** A line starting with `#`. */
export function parseCommentLine(line: string): CommentLine {
  const cursor = new Cursor(line);
  cursor.skipBlanks();
  cursor.pos++; // past '#'
  cursor.skipBlanks();
  const keyword = cursor.token();
  if (keyword !== 'HELP' && keyword !== 'TYPE') return { kind: 'comment' };
  cursor.skipBlanks();
  const name = cursor.name(true);
  if (name === '' || (!cursor.done && !isBlank(cursor.peek()))) {
    return { kind: 'invalid', message: `# ${keyword} without a valid metric name` };
  }
  cursor.skipBlanks();
  if (keyword === 'HELP') return { kind: 'help', name, help: unescapeHelp(line.slice(cursor.pos)) };
  const type = cursor.token();
  cursor.skipBlanks();
  if (type === '' || !cursor.done) return { kind: 'invalid', message: `# TYPE ${name}: expected exactly one type` };
  return { kind: 'type', name, type };
}
