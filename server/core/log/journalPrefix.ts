// A server run as a systemd service is read with `journalctl -u vllm > server.log`, which puts
// syslog's prefix before each line: `Dec 07 07:49:02 gpu-host vllm[4001]: ` (the default
// `short` format; `short-precise` adds microseconds, `short-iso` gives
// `2026-12-07T07:49:02+0000`, read as a CI timestamp); moreutils' `ts` puts the time alone. The
// scanner skips it, as it skips a CI runner's timestamp, so that a table row's prefix is read by
// hand and its raw prefix compared (the search alone finds vLLM's prefix after it too, at twice
// the cost of the whole read).
import { MAX_JOURNAL_FIELD } from './prefixLimits';

const MONTHS = 'JanFebMarAprMayJunJulAugSepOctNovDec';

/**
 * Where the line goes on after a journal prefix (`short`, `short-precise`) at `at`, or after the
 * same time alone (moreutils' `ts`, `vllm serve … | ts > server.log`); `at` without either.
 */
export function journalPrefixEnd(line: string, at: number): number {
  const afterTime = timeEnd(line, at);
  if (afterTime === -1 || line.charCodeAt(afterTime) !== 32 /* space */) return at;
  return journalSenderEnd(line, afterTime + 1);
}

/**
 * Where the line goes on after `host ident[pid]: ` or `host ident: ` at `at`; `at` without one.
 * Also after short-iso's time, which the CI timestamp's reader reads (stampEndOf).
 */
export function journalSenderEnd(line: string, at: number): number {
  const hostEnd = fieldEnd(line, at);
  if (hostEnd === -1 || line.charCodeAt(hostEnd) !== 32 /* space */) return at;
  const identStart = hostEnd + 1;
  const stop = Math.min(line.length, identStart + MAX_JOURNAL_FIELD);
  for (let i = identStart; i < stop; i++) {
    const c = line.charCodeAt(i);
    if (c === 32 /* space */) return at;
    if (c === 58 /* : */) return i > identStart && line.charCodeAt(i + 1) === 32 /* space */ ? i + 2 : at;
    if (c === 91 /* [ */) {
      let j = i + 1;
      while (j < i + 12 && isDigit(line.charCodeAt(j))) j++;
      const closes =
        j > i + 1 &&
        i > identStart &&
        line.charCodeAt(j) === 93 /* ] */ &&
        line.charCodeAt(j + 1) === 58 /* : */ &&
        line.charCodeAt(j + 2) === 32; /* space */
      return closes ? j + 3 : at;
    }
  }
  return at;
}

/** After `Mmm dd HH:MM:SS[.ffffff]` at i; -1 if none. */
function timeEnd(line: string, i: number): number {
  const c = line.charCodeAt(i);
  if (c < 65 /* A */ || c > 90 /* Z */) return -1;
  const month = line.slice(i, i + 3);
  if (month.length !== 3 || MONTHS.indexOf(month) % 3 !== 0 || line.charCodeAt(i + 3) !== 32 /* space */) return -1;
  // The day: two digits, or a space and a digit (syslog pads it with a space).
  const d1 = line.charCodeAt(i + 4);
  if (!(isDigit(d1) || d1 === 32) || !isDigit(line.charCodeAt(i + 5)) || line.charCodeAt(i + 6) !== 32) return -1;
  return clockEnd(line, i + 7);
}

/** After `HH:MM:SS` and an optional `.` and 1–9 digits at i; -1 if none. */
function clockEnd(line: string, i: number): number {
  for (let k = 0; k < 8; k++) {
    const d = line.charCodeAt(i + k);
    if (k === 2 || k === 5 ? d !== 58 /* : */ : !isDigit(d)) return -1;
  }
  let end = i + 8;
  if (line.charCodeAt(end) === 46 /* . */) {
    let j = end + 1;
    while (j < end + 10 && isDigit(line.charCodeAt(j))) j++;
    if (j === end + 1) return -1;
    end = j;
  }
  return end;
}

/** Where a host name (no space) that starts at i ends; -1 if none or longer than the limit. */
function fieldEnd(line: string, i: number): number {
  const stop = Math.min(line.length, i + MAX_JOURNAL_FIELD + 1);
  let j = i;
  while (j < stop && line.charCodeAt(j) > 32 /* space */) j++;
  return j === i || j - i > MAX_JOURNAL_FIELD ? -1 : j;
}

function isDigit(c: number): boolean {
  return c >= 48 /* 0 */ && c <= 57; /* 9 */
}
