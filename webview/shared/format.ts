// Number formatting for cells and axes. DOM-free (unit-tested in Node).
import { durationText } from '../../server/shared';

const grouped0 = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const grouped1 = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const grouped2 = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const exact = new Intl.NumberFormat('en-US', { maximumFractionDigits: 3 });

/** Compact cell text: precision shrinks as the value grows; a 0 stays a plain "0". */
export function formatCompact(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (value === 0) return '0';
  const abs = Math.abs(value);
  if (abs < 10) return grouped2.format(value);
  if (abs < 100) return grouped1.format(value);
  return grouped0.format(value);
}

/** Full precision as printed by the server (3 decimals), with grouping. */
export function formatExact(value: number): string {
  return exact.format(value);
}

/** A duration for labels and sentences: ms below 1 s, then s, then min, 3 significant digits; the CLI's rule. */
export const formatDurationMs: (ms: number) => string = durationText;

/** A value with its unit, for titles: "86,443.123 ms". */
export function formatWithUnit(value: number, unit: string): string {
  return unit === '' ? formatExact(value) : `${formatExact(value)} ${unit}`;
}

export function formatCount(n: number): string {
  return grouped0.format(n);
}

/** Wall-clock label for the many-requests timeline (local time, as the log prints it). */
export function formatClock(epochMs: number, withMs: boolean): string {
  const d = new Date(epochMs);
  const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
  const base = `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
  return withMs ? `${base}.${pad(d.getMilliseconds(), 3)}` : base;
}

/**
 * A time on the log clock (the printed fields read as UTC, see server/core/explain/logClock.ts)
 * as the log printed it, whatever this machine's time zone.
 */
export function formatLogClock(logMs: number, withMs: boolean): string {
  const d = new Date(logMs);
  const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
  const base = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  return withMs ? `${base}.${pad(d.getUTCMilliseconds(), 3)}` : base;
}

/**
 * A time axis's tick label on the log clock, as precise as the ticks' spacing needs: `12:05` on
 * whole minutes, `12:05:30` on seconds, `12:05:30.25` under a second (a tick on a whole second
 * reads `12:05:30`). Zeros the spacing cannot change are noise, not precision.
 */
export function timeTickText(logMs: number, stepMs: number): string {
  const d = new Date(logMs);
  const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
  const minutes = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
  if (stepMs >= 60_000 && stepMs % 60_000 === 0 && d.getUTCSeconds() === 0 && d.getUTCMilliseconds() === 0)
    return minutes;
  const seconds = `${minutes}:${pad(d.getUTCSeconds())}`;
  const ms = d.getUTCMilliseconds();
  if (stepMs >= 1000 || ms === 0) return seconds;
  const digits = stepMs % 100 === 0 ? 1 : stepMs % 10 === 0 ? 2 : 3;
  return `${seconds}.${pad(ms, 3).slice(0, digits)}`;
}

/** The unit of a field from its name suffix (`_ms`, `_s`); '' when unknown. */
export function unitOfField(name: string): string {
  if (name.endsWith('_ms')) return 'ms';
  if (name.endsWith('_s')) return 's';
  if (name.endsWith('_bytes')) return 'bytes';
  if (name.endsWith('_kbytes')) return 'KiB';
  return '';
}

/** "339 requests": how many requests a finding concerns in all (its id list may be capped). */
export function findingRequestsText(f: { readonly requestCount: number }): string {
  return `${formatCount(f.requestCount)} request${f.requestCount === 1 ? '' : 's'}`;
}
