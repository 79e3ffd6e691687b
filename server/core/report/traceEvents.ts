// The async slices of the trace as JSON bytes, with the punctuation in one place:
//
//   ,\n{"ph":"b","pid":P,"tid":P,"cat":"…","name":N,"ts":T,"id":"0x…","args":{"k":v,"k":v}}
//   ,\n{"ph":"e","pid":P,"tid":P,"cat":"…","name":N,"ts":T,"id":"0x…"}
//
// `begin` writes a `b` event up to its open args object, the args follow one by one (a comma
// before each but the first), `endArgs` closes the event; `end` writes a whole `e` event.
// Every event starts with its separator; the document's first event drops it (trace.ts).
// Keys and constant args are encoded once (`argKey`, `constantArg`).
import { ByteChunks, type Piece } from './byteChunks';
import { TRACE_CATEGORY } from './traceMetadata';

/** A key of an args object, encoded as the first arg and as a following one. */
export interface ArgKey {
  readonly first: Piece;
  readonly next: Piece;
}

/** A whole `"key":value` arg that never changes, encoded as the first arg and as a following one. */
export type ConstantArg = ArgKey;

export function argKey(name: string): ArgKey {
  return { first: ByteChunks.constant(`"${name}":`), next: ByteChunks.constant(`,"${name}":`) };
}

/** `"name":value`, `value` already JSON. */
export function constantArg(name: string, valueJson: string): ConstantArg {
  return { first: ByteChunks.constant(`"${name}":${valueJson}`), next: ByteChunks.constant(`,"${name}":${valueJson}`) };
}

const ID = ByteChunks.constant(',"id":"0x');
const OPEN_ARGS = ByteChunks.constant('","args":{');
const CLOSE_ARGS = ByteChunks.constant('}}');
const CLOSE_ID = ByteChunks.constant('"}');
const QUOTE = ByteChunks.constant('"');

export class TraceEventWriter {
  // name -> [b of pid 0, e of pid 0, b of pid 1, ...]: event heads (everything before `ts`),
  // constant per (phase, process, name) and looked up per event, so no key is built.
  private readonly heads = new Map<string, Piece[]>();
  private firstArg = true;

  constructor(readonly out: ByteChunks) {}

  /** A `b` event of slice `id`, named `nameJson` (JSON), up to its open args object. */
  begin(ts: number, pid: number, nameJson: string, id: number): void {
    const out = this.out;
    out.raw(this.head('b', pid, nameJson));
    out.number(us(ts));
    out.raw(ID);
    out.hex(id);
    out.raw(OPEN_ARGS);
    this.firstArg = true;
  }

  /** Closes the args and the `b` event begun last. */
  endArgs(): void {
    this.out.raw(CLOSE_ARGS);
  }

  /** The `e` event of slice `id`. */
  end(ts: number, pid: number, nameJson: string, id: number): void {
    const out = this.out;
    out.raw(this.head('e', pid, nameJson));
    out.number(us(ts));
    out.raw(ID);
    out.hex(id);
    out.raw(CLOSE_ID);
  }

  number(key: ArgKey, v: number): void {
    this.key(key);
    this.out.number(v);
  }

  /** Any text, as a JSON string. */
  string(key: ArgKey, s: string): void {
    this.key(key);
    this.out.string(s);
  }

  /** Text known to need no escaping (rule keys, field names), quoted as it is. */
  word(key: ArgKey, text: string): void {
    this.key(key);
    this.out.raw(QUOTE);
    this.out.text(text);
    this.out.raw(QUOTE);
  }

  constant(arg: ConstantArg): void {
    this.key(arg);
  }

  private key(key: ArgKey): void {
    this.out.raw(this.firstArg ? key.first : key.next);
    this.firstArg = false;
  }

  private head(ph: 'b' | 'e', pid: number, nameJson: string): Piece {
    let row = this.heads.get(nameJson);
    if (row === undefined) this.heads.set(nameJson, (row = []));
    const slot = pid * 2 + (ph === 'e' ? 1 : 0);
    let bytes = row[slot];
    if (bytes === undefined)
      row[slot] = bytes = ByteChunks.constant(
        `,\n{"ph":"${ph}","pid":${pid},"tid":${pid},"cat":"${TRACE_CATEGORY}","name":${nameJson},"ts":`,
      );
    return bytes;
  }
}

/** µs with at most 3 decimals (ns): log values are ms with 3 decimals, so this is exact for them. */
export function us(v: number): number {
  return Math.round(v * 1000) / 1000;
}
