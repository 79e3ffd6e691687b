// A small, tolerant reader of Python literals as `pprint`/`repr` print them: dicts, lists,
// tuples, strings, ints, floats, True/False/None; JSON too (null/true/false read as
// None/True/False, NaN/Infinity as Python's json writes them). Built for the legacy stats dicts
// (real-logs 06-08, 14), which are usually cut off somewhere: it yields every scalar it
// read completely, flattened to dotted keys (`stages.0.num_tokens_out`), and says whether
// the whole literal was read. A scalar at the very end of the input may be cut
// (`273.30756187` of `273.307561874389`), so it is dropped. Linear, never throws.
import { ownCopy, isSafeKey } from './strings';

export interface LiteralValues {
  readonly values: Record<string, number | string>;
  /** The outermost literal was read to its end. */
  readonly complete: boolean;
}

const NUMBER = /-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/y;
const NAME = /-?[A-Za-z_][A-Za-z0-9_.]*/y;
const MAX_DEPTH = 64;
/** Bounds on flattened keys, so a huge key cannot be copied into every value under it. */
const MAX_KEY_PART = 200;
const MAX_PATH = 1000;

class Incomplete extends Error {}

class Reader {
  private pos = 0;
  readonly values: Record<string, number | string> = {};
  private count = 0;

  constructor(
    private readonly text: string,
    private readonly maxValues: number,
    private readonly json: boolean,
  ) {}

  read(): boolean {
    try {
      this.value('', 0);
      return true;
    } catch (e) {
      if (e instanceof Incomplete) return false;
      throw e;
    }
  }

  private fail(): never {
    throw new Incomplete();
  }

  private skipSpace(): void {
    const t = this.text;
    while (this.pos < t.length) {
      const c = t.charCodeAt(this.pos);
      if (c === 32 /* space */ || c === 10 /* \n */ || c === 9 /* \t */ || c === 13 /* \r */) this.pos++;
      else break;
    }
  }

  private peek(): number {
    this.skipSpace();
    if (this.pos >= this.text.length) this.fail();
    return this.text.charCodeAt(this.pos);
  }

  private emit(path: string, v: number | string): void {
    if (this.count >= this.maxValues || path === '' || !isSafeKey(path)) return;
    this.count++;
    this.values[ownCopy(path)] = typeof v === 'string' ? ownCopy(v) : v;
  }

  private value(path: string, depth: number): void {
    if (depth > MAX_DEPTH) this.fail();
    const c = this.peek();
    if (c === 123 /* { */) return this.dict(path, depth);
    if (c === 91 /* [ */) return this.sequence(path, depth, 93);
    if (c === 40 /* ( */) return this.sequence(path, depth, 41);
    this.emit(path, this.scalar());
  }

  private dict(path: string, depth: number): void {
    this.pos++;
    for (;;) {
      if (this.peek() === 125 /* } */) {
        this.pos++;
        return;
      }
      const key = String(this.scalar());
      if (this.peek() !== 58 /* : */) this.fail();
      this.pos++;
      const part = key.length > MAX_KEY_PART ? key.slice(0, MAX_KEY_PART) : key;
      const child = path === '' ? part : `${path}.${part}`;
      if (child.length > MAX_PATH) this.fail();
      this.value(child, depth + 1);
      const c = this.peek();
      if (c === 44 /* , */) this.pos++;
      else if (c !== 125 /* } */) this.fail();
    }
  }

  private sequence(path: string, depth: number, close: number): void {
    this.pos++;
    for (let i = 0; ; i++) {
      if (this.peek() === close) {
        this.pos++;
        return;
      }
      this.value(path === '' ? String(i) : `${path}.${i}`, depth + 1);
      const c = this.peek();
      if (c === 44 /* , */) this.pos++;
      else if (c !== close) this.fail();
    }
  }

  /** A string (adjacent literals joined, as Python does), number or name. */
  private scalar(): number | string {
    const c = this.peek();
    if (c === 39 /* ' */ || c === 34 /* " */) {
      let s = this.string();
      // pprint splits long strings into adjacent literals.
      for (;;) {
        this.skipSpace();
        const next = this.text.charCodeAt(this.pos);
        if (next !== 39 /* ' */ && next !== 34 /* " */) return s;
        s += this.string();
      }
    }
    NUMBER.lastIndex = this.pos;
    const num = NUMBER.exec(this.text);
    if (num !== null) {
      this.pos = NUMBER.lastIndex;
      this.notAtEnd();
      return Number(num[0]);
    }
    NAME.lastIndex = this.pos;
    const name = NAME.exec(this.text);
    if (name === null) this.fail();
    this.pos = NAME.lastIndex;
    this.notAtEnd();
    switch (name[0]) {
      case 'nan':
      case 'NaN':
        return NaN;
      case 'inf':
      case 'Infinity':
        return Infinity;
      case '-inf':
      case '-Infinity':
        return -Infinity;
      // JSON's words, kept as Python's so both formats read alike (a null is an explicit None).
      case 'null':
        return 'None';
      case 'true':
        return 'True';
      case 'false':
        return 'False';
      default:
        // JSON has no other bare word: the line is broken there.
        if (this.json) this.fail();
        // True / False / None and other names (e.g. an enum) are kept as printed.
        return name[0];
    }
  }

  /** A token that runs to the end of the input may have been cut. */
  private notAtEnd(): void {
    if (this.pos >= this.text.length) this.fail();
  }

  private string(): string {
    const t = this.text;
    const quote = t.charCodeAt(this.pos);
    let out = '';
    let from = ++this.pos;
    while (this.pos < t.length) {
      const c = t.charCodeAt(this.pos);
      if (c === quote) {
        out += t.slice(from, this.pos);
        this.pos++;
        return out;
      }
      if (c === 10 /* \n */) break; // a Python string literal does not span lines
      if (c === 92 /* \ */) {
        out += t.slice(from, this.pos);
        const e = t.charAt(this.pos + 1);
        const code = e === 'u' ? hexCode(t, this.pos + 2) : -1;
        if (code !== -1) {
          out += String.fromCharCode(code);
          this.pos += 6;
          from = this.pos;
          continue;
        }
        out += e === 'n' ? '\n' : e === 't' ? '\t' : e;
        this.pos += 2;
        from = this.pos;
        continue;
      }
      this.pos++;
    }
    return this.fail();
  }
}

/** The code unit of the four hex digits at `at` (a `\uXXXX` escape), or -1. */
function hexCode(t: string, at: number): number {
  if (at + 4 > t.length) return -1;
  let code = 0;
  for (let i = at; i < at + 4; i++) {
    const d = parseInt(t.charAt(i), 16);
    if (Number.isNaN(d)) return -1;
    code = code * 16 + d;
  }
  return code;
}

/** Reads the Python literal (with `json`, the JSON value: no other bare word) at the start of `text`. */
export function readPythonLiteral(text: string, maxValues = 10_000, json = false): LiteralValues {
  const reader = new Reader(text, maxValues, json);
  const complete = reader.read();
  return { values: reader.values, complete };
}
