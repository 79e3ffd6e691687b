// Renders stats records exactly as vLLM-Omni prints them (docs/formats.md#the-server-log):
// PrettyTable default style, `_format_value` cell rules, vLLM's log prefix, the
// NewLineFormatter's `\r\n` + prefix continuation, optional ANSI colours.
// Used by the simulator, the benchmark's log generator and parser round-trip tests.

/** A Python value as the server's `_format_value` sees it. Python ints and floats render differently. */
export type PyValue = PyInt | number | string | boolean | null | readonly number[];

/** Wraps a number that Python holds as an int (rendered with thousands separators, no decimals). */
export class PyInt {
  constructor(readonly value: number) {}
}
export const int = (value: number): PyInt => new PyInt(value);

const thousands = (digits: string): string =>
  digits.length <= 3 ? digits : digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** Python `'{:,.3f}'.format(v)`. */
export function formatFloat(v: number): string {
  if (Number.isNaN(v)) return 'nan';
  if (!Number.isFinite(v)) return v > 0 ? 'inf' : '-inf';
  const fixed = toFixed3HalfEven(Math.abs(v));
  const [whole, frac] = fixed.split('.');
  // Python keeps the sign of a negative value that rounds to zero: -0.0001 -> '-0.000'.
  const sign = v < 0 || Object.is(v, -0) ? '-' : '';
  return `${sign}${thousands(whole ?? '0')}.${frac ?? '000'}`;
}

/**
 * `toFixed(3)` rounds an exact binary tie (1.0625) up; Python rounds it to even
 * ('1.062'). `toFixed(100)` shows the exact expansion for any |x| >= 1e-3 (ties below
 * that cannot occur at 3 decimals), so a tie is `5` followed only by zeros.
 */
function toFixed3HalfEven(x: number): string {
  const plain = x.toFixed(3);
  // Fast exit (toFixed(100) is slow and this runs for every cell): a tie is exactly
  // k + 0.5 thousandths, and that product is computed exactly below 2^52, so any
  // other fraction of x * 1000 means no tie.
  const scaled = x * 1000;
  if (scaled < 2 ** 52 && scaled - Math.floor(scaled) !== 0.5) return plain;
  if (x >= 1e21) return plain;
  const exact = x.toFixed(100);
  const dot = exact.indexOf('.');
  if (!/^50*$/.test(exact.slice(dot + 4))) return plain;
  const truncated = exact.slice(0, dot + 4);
  const lastDigit = Number(truncated[truncated.length - 1]);
  return lastDigit % 2 === 0 ? truncated : plain;
}

/** `_format_value` of vllm_omni/metrics/utils.py. */
export function formatCell(v: PyValue): string {
  if (v === null) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'string') return v;
  if (v instanceof PyInt) return (v.value < 0 ? '-' : '') + thousands(String(Math.abs(Math.trunc(v.value))));
  if (typeof v === 'number') return formatFloat(v);
  if (v.length === 0) return '';
  const mean = v.reduce((a, b) => a + b, 0) / v.length;
  return `${formatFloat(mean)} (n=${v.length})`;
}

/** The skip rule of the tables: a value in (0, 0.0, None, "") — and False, since False == 0 in Python. */
export function isHiddenValue(v: PyValue | undefined): boolean {
  if (v === undefined || v === null || v === '' || v === false) return true;
  if (v instanceof PyInt) return v.value === 0;
  if (typeof v === 'number') return v === 0;
  return false; // lists (even empty) and non-empty strings are shown
}

/** PrettyTable default style. `alignLeft[i]` says whether column i is left-aligned (header too). */
export function prettyTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  alignLeft: readonly boolean[],
): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const border = '+' + widths.map((w) => '-'.repeat(w + 2)).join('+') + '+';
  const line = (cells: readonly string[]): string =>
    '|' +
    widths
      .map((w, i) => ' ' + (alignLeft[i] ? (cells[i] ?? '').padEnd(w) : (cells[i] ?? '').padStart(w)) + ' ')
      .join('|') +
    '|';
  return [border, line(header), border, ...rows.map(line), border];
}

/** Single-column mode (Overall Summary, RequestE2EStats): rows `Field | Value`. */
export function renderFieldValueTable(title: string, fields: ReadonlyArray<readonly [string, PyValue]>): string[] {
  const shown = fields.filter(([, v]) => !isHiddenValue(v));
  if (shown.length === 0) return [`[${title}] <empty>`];
  return [
    `[${title}]`,
    ...prettyTable(
      ['Field', 'Value'],
      shown.map(([k, v]) => [k, formatCell(v)]),
      [true, false],
    ),
  ];
}

/**
 * Multi-column mode (StageRequestStats, TransferEdgeStats): one column per stage/edge,
 * rows = union of keys sorted alphabetically, hidden when every column is 0/None/"".
 * A key missing from a column renders blank (`_format_table` reads `row.get(field, "")`):
 * diffusion values that are None are left out of their stage's row, so they print blank.
 */
export function renderColumnsTable(
  title: string,
  columns: ReadonlyArray<{ readonly header: string; readonly values: Readonly<Record<string, PyValue>> }>,
): string[] {
  const keys = [...new Set(columns.flatMap((c) => Object.keys(c.values)))].sort();
  const shown = keys.filter((k) => columns.some((c) => !isHiddenValue(c.values[k])));
  if (shown.length === 0 || columns.length === 0) return [`[${title}] <empty>`];
  const rows = shown.map((k) => [k, ...columns.map((c) => formatCell(c.values[k] === undefined ? '' : c.values[k]))]);
  return [
    `[${title}]`,
    ...prettyTable(['Field', ...columns.map((c) => c.header)], rows, [true, ...columns.map(() => false)]),
  ];
}

/** `[StageRequestStats [request_id=...]]` style titles; duplex identities add response/turn/reason. */
export function recordTitle(name: string, identity: Readonly<Record<string, string>>): string {
  return `${name} [${Object.entries(identity)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ')}]`;
}

export interface LogPrefixOptions {
  /** e.g. `APIServer pid=4242`, `API`, `API (0)`; null for none (offline runs). */
  readonly process: string | null;
  readonly level: 'DEBUG' | 'INFO' | 'WARNING' | 'ERROR' | 'CRITICAL';
  /** `MM-DD HH:MM:SS` */
  readonly timestamp: string;
  /** `stats.py` or `vllm_omni/metrics/stats.py` */
  readonly file: string;
  readonly fileLine: number;
  readonly ansi: boolean;
}

const LEVEL_COLOUR: Readonly<Record<LogPrefixOptions['level'], string>> = {
  DEBUG: '\x1b[37m',
  INFO: '\x1b[32m',
  WARNING: '\x1b[33m',
  ERROR: '\x1b[31m',
  CRITICAL: '\x1b[35m',
};

/** Everything vLLM puts before the message: `(APIServer pid=N) INFO 08-21 18:00:00 [stats.py:NNN] `. */
export function logPrefix(o: LogPrefixOptions): string {
  if (!o.ansi) {
    return `${o.process === null ? '' : `(${o.process}) `}${o.level} ${o.timestamp} [${o.file}:${o.fileLine}] `;
  }
  const proc = o.process === null ? '' : `\x1b[1;36m(${o.process})\x1b[0;0m `;
  return `${proc}${LEVEL_COLOUR[o.level]}${o.level}\x1b[0m \x1b[90m${o.timestamp} [${o.file}:${o.fileLine}]\x1b[0m `;
}

/**
 * One log record as written to the stream: NewLineFormatter replaces each `\n` inside
 * the message by `\r\n` + the full prefix; the record ends with `\n`.
 */
export function renderLogRecord(prefix: string, messageLines: readonly string[]): string {
  return prefix + messageLines.join('\r\n' + prefix) + '\n';
}

/** A table logged as `logger.info("\n%s", table)`: the first physical line is the bare prefix. */
export function renderTableRecord(prefix: string, tableLines: readonly string[]): string {
  return renderLogRecord(prefix, ['', ...tableLines]);
}
