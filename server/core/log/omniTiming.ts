// The one-line `[OmniTiming]` record (docs/formats.md#the-omnitiming-line):
//   [OmniTiming] req=<rid> [response=.. turn=.. reason=..] total=1.40s [preprocess=0.01s]
//     engine=1.39s stages=[0:1.23s,1:1.30s] [transfers=[0->1=1.20ms,..]] [ar2diffusion=1.23ms]
// Unmerged branches print other shapes (docs/formats.md#the-omnitiming-line): labelled stages
// `stages=[0:thinker=0.22s]` or `stages=[0=0.22s]` (vllm-omni#3042), `handoffs=[..]` (#3069), and
// there `transfers=` is each edge's send + in-flight + decode time, not the send time.
import type { OmniTimingRecord, OmniTimingStage, OmniTimingTransfer } from '../records';
import type { CellScanner } from './cells';
import { ownCopy, isSafeKey, smallInt } from './strings';

export const OMNI_TIMING_TAG = '[OmniTiming]';

/** The record's values before a request id is known to be there (a line may lack `req=`). */
export type OmniTimingParts = Omit<OmniTimingRecord, 'kind' | 'line' | 'header' | 'requestId' | 'identity'> & {
  readonly requestId: string | null;
  readonly identity: Record<string, string>;
  /** A `key=value` part right after the request id that may be part of it (an unknown key): the id was read without it. */
  readonly idMayGoOnWith: string | null;
};

const IDENTITY_KEYS = new Set(['response', 'turn', 'reason']);
/** Every key the line prints: a part naming one of them ends the request id (or identity value) before it. */
const LINE_KEYS = new Set([
  'req',
  'response',
  'turn',
  'reason',
  'total',
  'preprocess',
  'engine',
  'stages',
  'transfers',
  'ar2diffusion',
  'handoffs',
]);

/**
 * Where the value of `req=` (or an identity part) starting at v, first part ending at q, ends. The
 * server prints the id as it is, spaces included, and only `key=value` parts after it: the value
 * runs on over the parts without `=`, up to the first part with one. When that part names no key
 * of the line it may belong to the id: `knownId` (the id the request's table title printed, read
 * there without this ambiguity) is taken when the line holds it there and it is longer; otherwise
 * `ambiguous` is set to that part.
 */
function valueEnd(
  message: string,
  v: number,
  q: number,
  knownId: string | null,
  ambiguous: { part: string | null },
): number {
  const n = message.length;
  let end = q;
  for (;;) {
    let r = end;
    while (r < n && message.charCodeAt(r) === 32 /* space */) r++;
    if (r >= n) return end;
    const next = partEnd(message, r);
    const eq = message.indexOf('=', r);
    if (eq !== -1 && eq < next) {
      if (LINE_KEYS.has(message.slice(r, eq))) return end;
      if (knownId !== null && knownId.length > end - v && message.startsWith(knownId, v)) {
        const known = v + knownId.length;
        if (known === n || message.charCodeAt(known) === 32 /* space */) return known;
      }
      ambiguous.part = message.slice(r, next);
      return end;
    }
    end = next;
  }
}
const NO_TRANSFERS: readonly OmniTimingTransfer[] = Object.freeze([]);
const NO_EXTRA: Readonly<Record<string, string>> = Object.freeze({});

/** A printed duration in the requested unit; `s`/`ms` suffixes convert, no suffix means that unit. */
function duration(numbers: CellScanner, text: string, unit: 's' | 'ms', a = 0, b = text.length): number | null {
  let v = numbers.numberPrefix(text, a, b);
  let end = numbers.end;
  if (Number.isNaN(v)) {
    const special = /^(-?inf|nan)/.exec(text.slice(a, b));
    if (special === null) return null;
    v = special[1] === 'nan' ? NaN : special[1] === 'inf' ? Infinity : -Infinity;
    end = a + (special[1] as string).length;
  }
  const suffix = b - end;
  let given: 's' | 'ms' = unit;
  if (suffix === 1 && text.charCodeAt(end) === 115 /* s */) given = 's';
  else if (suffix === 2 && text.startsWith('ms', end)) given = 'ms';
  else if (suffix !== 0) return null;
  if (given === unit) return v;
  return given === 's' ? v * 1000 : v / 1000;
}

/** `0:1.23s`, `0:thinker=0.22s` or `0=0.22s` in text[a, b). A bare name (`thinker=0.22s`) names no stage id: null. */
function stageItem(numbers: CellScanner, text: string, a: number, b: number): OmniTimingStage | null {
  const colon = indexIn(text, 58 /* : */, a, b);
  if (colon === -1) {
    const eq = indexIn(text, 61 /* = */, a, b);
    const id = eq === -1 ? null : smallInt(text, a, eq);
    const seconds = id === null ? null : duration(numbers, text, 's', eq + 1, b);
    return id === null || seconds === null ? null : { stageId: id, label: null, seconds };
  }
  const id = smallInt(text, a, colon);
  if (id === null) return null;
  const eq = indexIn(text, 61 /* = */, colon + 1, b);
  const seconds = duration(numbers, text, 's', eq === -1 ? colon + 1 : eq + 1, b);
  if (seconds === null) return null;
  return { stageId: id, label: eq === -1 ? null : ownCopy(text.slice(colon + 1, eq)), seconds };
}

/** Whether a stage item of text[a, b) is printed `<label>=<secs>`, as only the unmerged branches print it. */
const labelledItem = (text: string, a: number, b: number): boolean => indexIn(text, 61 /* = */, a, b) !== -1;

/** `0->1=1.20ms` in text[a, b). */
function transferItem(numbers: CellScanner, text: string, a: number, b: number): OmniTimingTransfer | null {
  // The first `-` of the item must open `->`: any other `-` before it would fail smallInt anyway.
  const arrow = indexIn(text, 45 /* - */, a, b);
  if (arrow === -1 || text.charCodeAt(arrow + 1) !== 62 /* > */) return null;
  const eq = indexIn(text, 61 /* = */, arrow + 2, b);
  if (eq === -1) return null;
  const fromStage = smallInt(text, a, arrow);
  const toStage = smallInt(text, arrow + 2, eq);
  const ms = duration(numbers, text, 'ms', eq + 1, b);
  return fromStage === null || toStage === null || ms === null ? null : { fromStage, toStage, ms };
}

/** The first index of character `c` in text[a, b), or -1. Items are a few characters long: a loop, not a search that may run on past b. */
function indexIn(text: string, c: number, a: number, b: number): number {
  for (let i = a; i < b; i++) if (text.charCodeAt(i) === c) return i;
  return -1;
}

/** The items of `[x,y,...]` in text[a, b), read in place; false when it is not such a list. */
function eachItem(text: string, a: number, b: number, read: (a: number, b: number) => boolean): boolean {
  if (text.charCodeAt(a) !== 91 /* [ */ || text.charCodeAt(b - 1) !== 93 /* ] */) return false;
  let ok = true;
  let from = a + 1;
  const end = b - 1;
  if (from === end) return true;
  for (;;) {
    let to = text.indexOf(',', from);
    if (to === -1 || to > end) to = end;
    if (!read(from, to)) ok = false;
    if (to === end) return ok;
    from = to + 1;
  }
}

/** Where the part starting at p ends: the next space outside brackets, or the end. */
function partEnd(message: string, p: number): number {
  const n = message.length;
  let space = message.indexOf(' ', p);
  if (space === -1) space = n;
  const open = message.indexOf('[', p);
  if (open === -1 || open > space) return space; // most parts: `key=value`
  // Only a value that opens with `[` is a list (`stages=[...]`): a `[` inside a request id
  // (a terminal escape, `a\x1b[2Jb`) groups nothing, or it would swallow the parts after it.
  const eq = message.indexOf('=', p);
  if (eq === -1 || eq + 1 !== open) return space;
  // `stages=[...]`: one bracket pair, then a space or the end.
  const close = message.indexOf(']', open);
  if (close !== -1 && (close + 1 === n || message.charCodeAt(close + 1) === 32) /* space */) {
    const nested = message.indexOf('[', open + 1);
    if (nested === -1 || nested > close) return close + 1;
  }
  let depth = 0;
  let q = p;
  for (; q < n; q++) {
    const c = message.charCodeAt(q);
    if (c === 91 /* [ */) depth++;
    else if (c === 93 /* ] */ && depth > 0) depth--;
    else if (c === 32 /* space */ && depth === 0) break;
  }
  return q;
}

/** Reads the part of an `[OmniTiming]` message after the tag, in place. Never throws. */
/** The record in `message`; `numbers` reads its durations. */
export function parseOmniTiming(message: string, numbers: CellScanner, knownId: string | null = null): OmniTimingParts {
  const n = message.length;
  let p = message.indexOf(OMNI_TIMING_TAG);
  p = p === -1 ? 0 : p + OMNI_TIMING_TAG.length;
  let requestId: string | null = null;
  const identity: Record<string, string> = {};
  let extra: Record<string, string> | null = null;
  let totalS: number | null = null;
  let preprocessS: number | null = null;
  let engineS: number | null = null;
  let ar2diffusionMs: number | null = null;
  const stages: OmniTimingStage[] = [];
  const transfers: OmniTimingTransfer[] = [];
  let branchShape = false;
  let transfersText: string | null = null;
  const ambiguous: { part: string | null } = { part: null };
  let idMayGoOnWith: string | null = null;

  while (p < n) {
    while (p < n && message.charCodeAt(p) === 32 /* space */) p++;
    if (p >= n) break;
    let q = partEnd(message, p);
    const eq = message.indexOf('=', p);
    const key = eq === -1 || eq >= q ? message.slice(p, q) : message.slice(p, eq);
    const v = eq === -1 || eq >= q ? q : eq + 1;
    let understood = v !== q || eq === q - 1;
    if (understood) {
      switch (key) {
        case 'req':
          q = valueEnd(message, v, q, knownId, ambiguous);
          if (requestId === null) idMayGoOnWith = ambiguous.part;
          requestId = message.slice(v, q); // copied by the identity cache when kept
          break;
        case 'total':
          understood = (totalS = duration(numbers, message, 's', v, q)) !== null;
          break;
        case 'preprocess':
          understood = (preprocessS = duration(numbers, message, 's', v, q)) !== null;
          break;
        case 'engine':
          understood = (engineS = duration(numbers, message, 's', v, q)) !== null;
          break;
        case 'ar2diffusion':
          understood = (ar2diffusionMs = duration(numbers, message, 'ms', v, q)) !== null;
          break;
        case 'stages':
          understood = eachItem(message, v, q, (a, b) => {
            if (labelledItem(message, a, b)) branchShape = true;
            const stage = stageItem(numbers, message, a, b);
            if (stage !== null) stages.push(stage);
            return stage !== null;
          });
          break;
        case 'handoffs':
          branchShape = true;
          understood = false; // kept as printed
          break;
        case 'transfers':
          transfersText = message.slice(v, q);
          understood = eachItem(message, v, q, (a, b) => {
            const transfer = transferItem(numbers, message, a, b);
            if (transfer !== null) transfers.push(transfer);
            return transfer !== null;
          });
          break;
        default:
          if (IDENTITY_KEYS.has(key)) {
            q = valueEnd(message, v, q, null, { part: null });
            identity[key] = ownCopy(message.slice(v, q));
          } else understood = false;
      }
    }
    if (!understood && isSafeKey(key)) (extra ??= {})[ownCopy(key)] = ownCopy(v === q ? '' : message.slice(v, q));
    p = q;
  }
  if (branchShape && transfersText !== null) {
    // Those branches print send + in-flight + decode per edge and leave out zero edges: not the
    // send time `transfers` means elsewhere, so the list is kept only as printed.
    (extra ??= {})['transfers'] = ownCopy(transfersText);
    transfers.length = 0;
  }
  return {
    requestId,
    identity,
    totalS,
    preprocessS,
    engineS,
    // Exact-size arrays and a shared empty object: these records are kept per request.
    stages: stages.slice(),
    transfers: transfers.length === 0 ? NO_TRANSFERS : transfers.slice(),
    ar2diffusionMs,
    extra: extra ?? NO_EXTRA,
    idMayGoOnWith,
  };
}
