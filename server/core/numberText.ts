// Numbers with thousands separators, as `v.toLocaleString('en-US', { minimumFractionDigits,
// maximumFractionDigits })` writes them, without Intl: the first Intl call of a process
// loads ICU's number data, 25-60 ms of a short CLI run, for a fixed en-US format.
// Same text for every double (tested against toLocaleString): the value's shortest
// round-trip decimal digits rounded half away from zero, `-0` for a negative value that
// rounds to zero, `∞` and `NaN` as Intl writes them.

/** From here on a number of ms is a broken print (1e15 ms is 31,700 years), written with an exponent (formatMs, durationText). */
export const HUGE_MS = 1e15;

/** `v.toLocaleString('en-US', { minimumFractionDigits, maximumFractionDigits })`. */
export function groupedNumber(v: number, minimumFractionDigits: number, maximumFractionDigits: number): string {
  if (v !== v) return 'NaN';
  const negative = v < 0 || (v === 0 && 1 / v < 0);
  const sign = negative ? '-' : '';
  if (v === Infinity || v === -Infinity) return `${sign}∞`;
  const { digits, point } = shortestDigits(negative ? -v : v);
  // Round to maximumFractionDigits, half away from zero: keep the digits before index `keep`.
  const keep = point + maximumFractionDigits;
  const kept: number[] = [];
  let intDigits = point;
  for (let i = 0; i < keep && i < digits.length; i++) kept.push(digits.charCodeAt(i) - 48);
  if (keep >= 0 && keep < digits.length && digits.charCodeAt(keep) - 48 >= 5) {
    let i = kept.length - 1;
    while (i >= 0 && kept[i] === 9) kept[i--] = 0;
    if (i >= 0) kept[i] = kept[i] + 1;
    else {
      kept.unshift(1);
      intDigits += 1;
    }
  }
  // kept[j] is the digit of 10^(intDigits - 1 - j); past the kept digits they are 0.
  let integer = '';
  for (let j = 0; j < intDigits; j++) integer += j < kept.length ? String(kept[j]) : '0';
  if (integer === '') integer = '0';
  let fraction = '';
  for (let f = 0; f < maximumFractionDigits; f++) {
    const j = intDigits + f;
    fraction += j >= 0 && j < kept.length ? String(kept[j]) : '0';
  }
  let end = fraction.length;
  while (end > minimumFractionDigits && fraction.charCodeAt(end - 1) === 48) end--;
  fraction = fraction.slice(0, end);
  return `${sign}${group(integer)}${fraction === '' ? '' : `.${fraction}`}`;
}

/** Digits of the shortest round-trip form of a finite v >= 0, and where the decimal point goes (digits before it). */
function shortestDigits(v: number): { digits: string; point: number } {
  const text = String(v);
  const e = text.indexOf('e');
  const mantissa = e === -1 ? text : text.slice(0, e);
  const exponent = e === -1 ? 0 : Number(text.slice(e + 1));
  const dot = mantissa.indexOf('.');
  const whole = dot === -1 ? mantissa : mantissa.slice(0, dot) + mantissa.slice(dot + 1);
  let point = (dot === -1 ? mantissa.length : dot) + exponent;
  // Leading zeros (0.00123) move the point, not the digits.
  let start = 0;
  while (start < whole.length - 1 && whole.charCodeAt(start) === 48) {
    start++;
    point--;
  }
  return { digits: whole.slice(start), point };
}

function group(integer: string): string {
  if (integer.length <= 3) return integer;
  let out = integer.slice(0, integer.length % 3 || 3);
  for (let i = out.length; i < integer.length; i += 3) out += `,${integer.slice(i, i + 3)}`;
  return out;
}

// The fraction digits of n/1000 for n in 0..999, trailing zeros dropped ('' for 0).
const THOUSANDTHS: readonly string[] = Array.from({ length: 1000 }, (_, n) => {
  let digits = String(n).padStart(3, '0');
  while (digits.endsWith('0')) digits = digits.slice(0, -1);
  return digits;
});

/**
 * `String(v)`, faster for the values logs hold: a value with at most 3 decimals and at most
 * 15 significant digits (every logged ms) is written from integers, since its shortest
 * round-trip form is then exactly that decimal (doubles tell all 15-digit decimals apart).
 * V8's own double-to-text takes 3-4x as long, and a CSV or trace has millions of them.
 */
export function shortestNumberText(v: number): string {
  const k = Math.round(v * 1000);
  if (k / 1000 !== v || k >= 1e15 || k <= -1e15) return String(v);
  const abs = k < 0 ? -k : k;
  const whole = Math.floor(abs / 1000);
  const fraction = abs - whole * 1000;
  const text = fraction === 0 ? String(whole) : `${whole}.${THOUSANDTHS[fraction]}`;
  return k < 0 ? `-${text}` : text;
}

/** A count with its noun, singular for exactly one: "1 request", "1,024 requests". */
export function countOf(n: number, singular: string, plural = `${singular}s`): string {
  return `${groupedNumber(n, 0, 0)} ${n === 1 ? singular : plural}`;
}

/**
 * A size in bytes as people read it: "812 bytes", "14.2 KB", "3.2 MB", "1.4 GB" (1 KB = 1,024
 * bytes, as the editor's import progress counts); one decimal below 10 of a unit, none from
 * there ("143 KB"). The unit is chosen on the rounded value (1,023.9 KB reads "1.0 MB").
 */
export function byteSizeText(bytes: number): string {
  return byteSizesText(null, bytes);
}

/**
 * Part of a size in the unit of the whole, by byteSizeText's rule: "1.2 of 4.5 MB", "0.0 of 30 KB",
 * "300 of 800 bytes" (a progress: the whole chooses the unit, so a small file never reads "0.0 of 0.0 MB").
 * `part` null: the whole alone, as byteSizeText says it.
 */
export function byteSizesText(part: number | null, whole: number): string {
  const of = (divisor: number): string => (part === null ? '' : `${amountIn(part, divisor)} of `);
  if (!Number.isFinite(whole)) return `${of(1)}${String(whole)} bytes`;
  if (Math.abs(whole) < 1024) return `${of(1)}${countOf(whole, 'byte')}`;
  let divisor = 1024;
  for (const [i, unit] of BYTE_UNITS.entries()) {
    const value = whole / divisor;
    // 1,023.6 KB rounds to 1,024: the next unit, unless there is none.
    if (Math.abs(Number(value.toFixed(unitDigits(value)))) < 1024 || i === BYTE_UNITS.length - 1)
      return `${of(divisor)}${amountIn(whole, divisor)} ${unit}`;
    divisor *= 1024;
  }
  return `${of(1)}${whole} bytes`;
}

/** `bytes` in a unit of `divisor` bytes: whole bytes as counted ("1,023"), else one decimal below 10 of the unit, none from there. */
function amountIn(bytes: number, divisor: number): string {
  if (divisor === 1) return Number.isFinite(bytes) ? groupedNumber(bytes, 0, 0) : String(bytes);
  const value = bytes / divisor;
  const digits = unitDigits(value);
  return groupedNumber(value, digits, digits);
}

/** Decimals of a value in KB, MB...: one below 10 (after rounding: 9.96 reads "10"), none from there. */
function unitDigits(value: number): number {
  return Math.abs(value) < 9.95 ? 1 : 0;
}

const BYTE_UNITS = ['KB', 'MB', 'GB', 'TB'] as const;

/** `v` with three significant digits ("3.80", "38.0", "380"), more only left of the point ("3,803"). */
function threeSignificant(v: number): string {
  const abs = Math.abs(v);
  let digits = abs < 10 ? 2 : abs < 100 ? 1 : 0;
  // 9.996 rounds to 10.00 and 99.96 to 100.0: one decimal fewer keeps three digits.
  if (digits > 0 && Number(abs.toFixed(digits)) >= (digits === 2 ? 10 : 100)) digits--;
  return groupedNumber(v, digits, digits);
}

/**
 * A duration as people read it, the same in the CLI's text and in the views: ms below 1 s and s
 * below 1 min, each with three significant digits ("96.7 ms", "151 ms", "3.80 s", "38.0 s"); from
 * 1 min whole minutes and seconds ("1 min 26 s", "30 min"), from 1 h hours and minutes ("1 h 5
 * min"); "0 ms" for a measured 0. The unit is chosen on the rounded value (999.7 ms reads "1.00 s",
 * 59.99 s "1 min"). Columns headed by their unit keep formatMs (textTable.ts).
 */
export function durationText(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms);
  // A broken print: its exponent, never billions of hours.
  if (Math.abs(ms) >= HUGE_MS) return `${ms.toExponential(3)} ms`;
  if (ms === 0) return '0 ms';
  const abs = Math.abs(ms);
  if (Number(abs.toFixed(abs < 10 ? 2 : abs < 100 ? 1 : 0)) < 1000) return `${threeSignificant(ms)} ms`;
  if (Number((abs / 1000).toFixed(abs < 10_000 ? 2 : 1)) < 60) return `${threeSignificant(ms / 1000)} s`;
  const sign = ms < 0 ? '-' : '';
  const seconds = Math.round(abs / 1000);
  if (seconds < 3600) {
    const rest = seconds % 60;
    return `${sign}${Math.floor(seconds / 60)} min${rest === 0 ? '' : ` ${rest} s`}`;
  }
  const minutes = Math.round(seconds / 60);
  const rest = minutes % 60;
  return `${sign}${Math.floor(minutes / 60)} h${rest === 0 ? '' : ` ${rest} min`}`;
}

/** "+812 ms", "−3.90 s" (a minus sign, as the views write it). */
export function signedDurationText(ms: number): string {
  return `${ms < 0 ? '−' : '+'}${durationText(Math.abs(ms))}`;
}
