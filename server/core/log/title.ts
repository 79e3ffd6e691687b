// Table titles (docs/formats.md#table-titles): `[Overall Summary]`,
// `[StageRequestStats [request_id=r]]`, duplex `[... [request_id=r response=x turn=2 reason=y]]`,
// `[<title>] <empty>` for a table without rows, and the maintainers' markdown headings
// (`#### StageRequestStats`, real-logs 13).
import type { RecordIdentity } from '../records';
import { ownCopy, isSafeKey } from './strings';

export type TableKind = 'overall' | 'e2e' | 'stage' | 'transfer' | 'unknown';

export interface TableTitle {
  readonly kind: TableKind;
  /** As printed, e.g. `StageRequestStats`. */
  readonly name: string;
  /** null when the title had no `[k=v ...]` part. */
  readonly identity: RecordIdentity | null;
  /** `[<title>] <empty>`: the server had no rows to print. */
  readonly empty: boolean;
  /** From a markdown heading rather than a log line. */
  readonly markdown: boolean;
}

const NAME = /^[A-Za-z][A-Za-z0-9 _.-]{0,79}$/;
const EMPTY_SUFFIX = '] <empty>';
/** `#### ` before a heading's text (which is read by hand: `/^#{1,6} +(.*?) *$/` backtracked quadratically on trailing spaces). */
const MARKDOWN_HEADING = /^#{1,6} +/;

export function kindOfTitle(name: string): TableKind {
  // A switch compares characters; indexing an object by a fresh string would hash it.
  switch (name) {
    case 'Overall Summary':
      return 'overall';
    case 'RequestE2EStats':
      return 'e2e';
    case 'StageRequestStats':
      return 'stage';
    case 'TransferEdgeStats':
      return 'transfer';
    default:
      return 'unknown';
  }
}

/** The shared copy of a known title name. */
function knownName(kind: TableKind): string {
  switch (kind) {
    case 'overall':
      return 'Overall Summary';
    case 'e2e':
      return 'RequestE2EStats';
    case 'stage':
      return 'StageRequestStats';
    default:
      return 'TransferEdgeStats';
  }
}

/**
 * The identities of the last request. A request's E2E, timing, stage and transfer records
 * carry the same identity one after the other, so they share one object and one id string.
 */
export class IdentityCache {
  private text = '';
  private identity: RecordIdentity | null = null;

  /** The identity printed as `text` (`request_id=r response=x ...`). */
  parse(text: string): RecordIdentity {
    if (this.identity !== null && text === this.text) return this.identity;
    this.identity = parseIdentity(text);
    this.text = ownCopy(text);
    return this.identity;
  }

  /** The request id of the last identity (a title's, or an [OmniTiming] line's), or null. */
  get lastRequestId(): string | null {
    return this.identity?.['request_id'] ?? null;
  }

  /** {request_id, ...rest} for an [OmniTiming] line, shared when it equals the last identity. */
  forRequest(requestId: string, rest: Readonly<Record<string, string>>): RecordIdentity {
    const last = this.identity;
    if (last !== null && last['request_id'] === requestId && sameParts(last, rest)) return last;
    const restKeys = Object.keys(rest);
    const identity: RecordIdentity = { request_id: ownCopy(requestId), ...rest };
    this.identity = identity;
    this.text = ['request_id=' + requestId, ...restKeys.map((k) => `${k}=${rest[k]}`)].join(' ');
    return identity;
  }
}

/** Whether `identity` is exactly request_id plus `rest`. */
function sameParts(identity: RecordIdentity, rest: Readonly<Record<string, string>>): boolean {
  let n = 0;
  for (const k in rest) {
    if (identity[k] !== rest[k]) return false;
    n++;
  }
  let m = 0;
  for (const k in identity) if (k !== 'request_id') m++;
  return m === n;
}

/** The title in a message, or null when the message is not a title line. */
export function parseTitle(message: string, identities?: IdentityCache): TableTitle | null {
  let text = message.trimEnd();
  if (text.charCodeAt(0) !== 91 /* [ */) return null;
  let empty = false;
  if (text.endsWith(EMPTY_SUFFIX)) {
    empty = true;
    text = text.slice(0, text.length - EMPTY_SUFFIX.length + 1);
  }
  if (text.charCodeAt(text.length - 1) !== 93 /* ] */ || text.length < 3) return null;
  return titleFromInner(text.slice(1, -1), empty, false, identities);
}

/** A markdown heading naming one of the four tables, or null. */
export function parseMarkdownTitle(message: string): TableTitle | null {
  if (message.charCodeAt(0) !== 35 /* # */) return null;
  const m = MARKDOWN_HEADING.exec(message);
  if (m === null) return null;
  const inner = headingText(message, m[0].length);
  if (inner === null) return null;
  const title = titleFromInner(inner, false, true);
  return title !== null && title.kind !== 'unknown' ? title : null;
}

/** The heading's text after `from`, without trailing spaces; null when it holds a line break. */
function headingText(message: string, from: number): string | null {
  let end = message.length;
  while (end > from && message.charCodeAt(end - 1) === 32 /* space */) end--;
  for (let i = from; i < end; i++) {
    const c = message.charCodeAt(i);
    if (c === 10 /* \n */ || c === 13 /* \r */ || c === 0x2028 /* U+2028 */ || c === 0x2029 /* U+2029 */) return null;
  }
  return message.slice(from, end);
}

function titleFromInner(
  inner: string,
  empty: boolean,
  markdown: boolean,
  identities?: IdentityCache,
): TableTitle | null {
  const open = inner.indexOf(' [');
  let name = inner;
  let identity: RecordIdentity | null = null;
  if (open !== -1) {
    if (inner.charCodeAt(inner.length - 1) !== 93 /* ] */) return null;
    name = inner.slice(0, open);
    const text = inner.slice(open + 2, -1);
    identity = identities === undefined ? parseIdentity(text) : identities.parse(text);
  }
  const kind = kindOfTitle(name);
  // The four known names are valid names; only others go through the pattern.
  if (kind === 'unknown' && !NAME.test(name)) return null;
  return { kind, name: kind === 'unknown' ? ownCopy(name) : knownName(kind), identity, empty, markdown };
}

/** The parts the server prints in a title's identity (`timing_identity`). */
const IDENTITY_KEYS = new Set(['request_id', 'response', 'turn', 'reason']);

/**
 * `request_id=r response=x turn=2 reason=y` -> {request_id: 'r', ...}. The server prints each
 * value as it is: a space-separated part without `=`, or with a key it does not print, continues
 * the previous value (a value with a space in it, e.g. a request id `a b=c`).
 */
export function parseIdentity(text: string): RecordIdentity {
  const out: Record<string, string> = {};
  let lastKey: string | null = null;
  for (const part of text.split(' ')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    if (eq > 0 && (lastKey === null || IDENTITY_KEYS.has(part.slice(0, eq)))) {
      const key = part.slice(0, eq);
      if (!isSafeKey(key)) continue;
      lastKey = ownCopy(key);
      out[lastKey] = ownCopy(part.slice(eq + 1));
    } else if (lastKey !== null) {
      out[lastKey] = ownCopy(`${out[lastKey]} ${part}`);
    } else {
      lastKey = 'request_id';
      out[lastKey] = ownCopy(part);
    }
  }
  return out;
}
