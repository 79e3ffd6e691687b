// A JSON log formatter writes a message without the prefix vLLM's text formatter prints before
// each of its lines (`(APIServer pid=7) DEBUG 12-01 10:00:00 [stats.py:1044] `): its level, time,
// process and call site are fields beside it (vLLM's formatter: `asctime`, `levelname`,
// `vllm_process_name`, `process`; OpenTelemetry's: `timestamp`, `severity_text`). Given back that
// prefix, the message reads as vLLM's text output does, with its log time and process.
import { MAX_CALL_SITE_LINE_DIGITS, MAX_CALL_SITE_PATH, MAX_PROCESS_NAME } from './prefixLimits';

const LEVEL_FIELDS = ['levelname', 'level', 'severity_text', 'severity'] as const;
const TIME_FIELDS = ['asctime', 'timestamp', 'time', '@timestamp'] as const;
const LEVELS: Readonly<Record<string, string>> = {
  DEBUG: 'DEBUG',
  INFO: 'INFO',
  WARNING: 'WARNING',
  WARN: 'WARNING',
  ERROR: 'ERROR',
  CRITICAL: 'CRITICAL',
  FATAL: 'CRITICAL',
};

function firstString(entry: Record<string, unknown>, fields: readonly string[]): string | null {
  for (const f of fields) {
    const v = entry[f];
    if (typeof v === 'string') return v;
  }
  return null;
}

/** `MM-DD HH:MM:SS` of vLLM's date format, Python's default `asctime` or an ISO 8601 time; null for another. */
function logTimeOf(text: string): string | null {
  const m = /^(?:\d{4}-)?(\d\d-\d\d)[ T](\d\d:\d\d:\d\d)/.exec(text);
  return m === null ? null : `${m[1]} ${m[2]}`;
}

/**
 * What a name may hold inside vLLM's prefix, within `max` characters: no space, bracket or
 * parenthesis, and in a call site's path (`call`) no colon, which ends the path.
 */
function prefixName(value: unknown, max: number, call = false): string | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const text = String(value)
    .replace(call ? /[^\w./-]/g : /[^\w.:/-]/g, '_')
    .slice(0, max);
  return text === '' ? null : text;
}

/**
 * The prefix vLLM's text formatter prints for a JSON formatter's entry (`(APIServer pid=7) DEBUG
 * 12-01 10:00:00 [stats.py:1044] `), or null when the entry says no level or no time.
 */
export function formatterPrefixOf(entry: Record<string, unknown>): string | null {
  const level = LEVELS[(firstString(entry, LEVEL_FIELDS) ?? '').toUpperCase()];
  const time = logTimeOf(firstString(entry, TIME_FIELDS) ?? '');
  if (level === undefined || time === null) return null;
  const name = prefixName(entry['vllm_process_name'] ?? entry['processName'], MAX_PROCESS_NAME - 16);
  const pid = prefixName(entry['process'], 10);
  const process = name !== null && pid !== null ? `(${name} pid=${pid}) ` : '';
  const file =
    prefixName(entry['filename'] ?? entry['pathname'] ?? entry['name'] ?? entry['logger'], MAX_CALL_SITE_PATH, true) ??
    'json';
  const line =
    typeof entry['lineno'] === 'number' && Number.isSafeInteger(entry['lineno']) ? String(entry['lineno']) : '0';
  return `${process}${level} ${time} [${file}:${line.slice(0, MAX_CALL_SITE_LINE_DIGITS)}] `;
}
