// vLLM's periodic LoggingStatLogger line (docs/formats.md#engine-stats-lines, real-logs 09):
//   Engine 000: Avg prompt throughput: 2549.0 tokens/s, Avg generation throughput: 2.4 tokens/s,
//   Running: 8 reqs, Waiting: 2 reqs, GPU KV cache usage: 23.2%, Prefix cache hit rate: 0.0%
// Newer vLLM appends `Preemptions: N` / `Deferred: N reqs`; any `Label: number unit` part is
// kept under its snake_case label. Percentages stay percentages (23.2, not 0.232).
import { ownCopy, isSafeKey } from './strings';

const MARKER = 'Avg prompt throughput:';
const ENGINE = /^Engine (\w{1,20}): /;
/** What a part is read as (`Label: number unit`); the reference readPart is tested against. */
export const PART = /^([A-Za-z][A-Za-z0-9 ()/-]{0,60}?): (-?\d[\d,]*(?:\.\d+)?)(?:\s?\S{0,16})?$/;
const LABEL = /^[A-Za-z][A-Za-z0-9 ()/-]{0,60}$/;
const UNIT = /^\s?\S{0,16}$/;
/** Labels repeat on every line: their snake_case keys are kept (bounded: garbage input). */
const MAX_KEYS = 256;
const keys = new Map<string, string>();

export interface EngineStats {
  readonly engine: string;
  readonly values: Record<string, number>;
}

function snakeCase(label: string): string {
  return label
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

function keyOf(label: string): string {
  const known = keys.get(label);
  if (known !== undefined) return known;
  const key = ownCopy(snakeCase(label));
  if (keys.size < MAX_KEYS) keys.set(ownCopy(label), key);
  return key;
}

/**
 * The label and the printed number of a trimmed part, as PART reads them, or null. The
 * label cannot hold `:`, so it ends at the first one; the number is read greedily, since
 * any digit the regular expression could give back would only lengthen the unit, which
 * then fails too. (PART's lazy label costs about a microsecond a part; this line repeats
 * every few seconds for as long as the server runs.)
 */
export function readPart(part: string): { label: string; number: string } | null {
  const colon = part.indexOf(':');
  if (colon < 1 || part.charCodeAt(colon + 1) !== 32 /* space */) return null;
  const label = part.slice(0, colon);
  if (!LABEL.test(label)) return null;
  const start = colon + 2;
  let i = start;
  if (part.charCodeAt(i) === 45 /* - */) i++;
  if (!isDigit(part.charCodeAt(i))) return null;
  for (i++; isDigit(part.charCodeAt(i)) || part.charCodeAt(i) === 44 /* , */; i++);
  if (part.charCodeAt(i) === 46 /* . */ && isDigit(part.charCodeAt(i + 1)))
    for (i += 2; isDigit(part.charCodeAt(i)); i++);
  if (i < part.length && !UNIT.test(part.slice(i))) return null;
  return { label, number: part.slice(start, i) };
}

function isDigit(c: number): boolean {
  return c >= 48 /* 0 */ && c <= 57; /* 9 */
}

/** The engine stats in a message, or null when it is not such a line. */
export function parseEngineStats(message: string): EngineStats | null {
  const at = message.indexOf(MARKER);
  if (at === -1) return null;
  const m = ENGINE.exec(message);
  // vLLM V0 printed the same line without the `Engine NNN:` part.
  const engine = m === null ? '' : ownCopy(m[1] as string);
  const body = message.slice(m === null ? at : m[0].length);
  const values: Record<string, number> = {};
  for (const part of body.split(', ')) {
    const p = readPart(part.trim());
    if (p === null) continue;
    const key = keyOf(p.label);
    if (key !== '' && isSafeKey(key)) values[key] = Number(p.number.replace(/,/g, ''));
  }
  return { engine, values };
}
