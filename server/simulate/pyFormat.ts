// Python's float formatting where the simulator prints numbers outside the tables:
// f"{x:.2f}" (half-to-even on exact binary ties, unlike Number#toFixed) and repr(),
// which prometheus_client uses for sample values and `le` bounds.

/** Python `f"{x:.{digits}f}"` for finite x. */
export function pyFixed(x: number, digits: number): string {
  const plain = x.toFixed(digits);
  const ax = Math.abs(x);
  // Fast exit: a tie is exactly k + 0.5 units of the last digit, a product computed
  // exactly below 2^52 (see toFixed3HalfEven in render.ts).
  const scaled = ax * 10 ** digits;
  if (scaled < 2 ** 52 && scaled - Math.floor(scaled) !== 0.5) return plain;
  if (ax >= 1e21 || ax < 10 ** -(digits + 1)) return plain;
  const exact = ax.toFixed(100);
  const dot = exact.indexOf('.');
  if (!/^50*$/.test(exact.slice(dot + 1 + digits))) return plain;
  const truncated = exact.slice(0, dot + 1 + digits);
  if (Number(truncated[truncated.length - 1]) % 2 !== 0) return plain;
  return (x < 0 ? '-' : '') + truncated.replace(/\.$/, '');
}

/** Python `repr(float(x))`. */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const ax = Math.abs(x);
  if (ax >= 1e16 || ax < 1e-4) {
    const [mant, exp] = x.toExponential().split('e');
    const e = Number(exp);
    return `${mant}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  }
  const s = String(x);
  return s.includes('.') ? s : `${s}.0`;
}

/** prometheus_client `floatToGoString`: repr, +Inf, and Go's earlier switch to exponents. */
export function goFloat(x: number): string {
  if (x === Infinity) return '+Inf';
  if (x === -Infinity) return '-Inf';
  if (Number.isNaN(x)) return 'NaN';
  const s = pyFloatRepr(x);
  const dot = s.indexOf('.');
  if (x > 0 && dot > 6) {
    const mantissa = `${s[0]}.${s.slice(1, dot)}${s.slice(dot + 1)}`.replace(/[0.]+$/, '');
    return `${mantissa}e+0${dot - 1}`;
  }
  return s;
}

/** Python's repr() of a str: single quotes unless it holds one and no double quote; backslashes and control characters escaped. */
export function pyStrRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const c of s) {
    const code = c.codePointAt(0) ?? 0;
    if (c === '\\' || c === quote) out += `\\${c}`;
    else if (c === '\n') out += '\\n';
    else if (c === '\r') out += '\\r';
    else if (c === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += c;
  }
  return out + quote;
}
