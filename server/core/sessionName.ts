// How an imported log is named wherever a person reads or picks it (the views' headers, the
// session pickers, the status bar, Compare, export file names): by its file and its log's own
// span, "run-42.log · qwen3_omni_moe.yaml · logged 10-19 07:12:04 – 07:12:12". The time it was
// imported says nothing of when the run happened and would make a baseline imported later look
// newer; "imported" is the session's status words, so the name does not say it again. A file
// imported again is told apart by its ordinal after the file ("run-42.log (2)"). Pure (no
// node:path): the webviews and the extension host use it through server/shared.ts.
import { baseName } from './baseName';
import { countOf } from './numberText';

/**
 * The log timestamps (`MM-DD HH:MM:SS`, the server's local time, no year) of the first and the
 * last request read, cold ones included: when the run happened by its own log.
 */
export interface LogSpan {
  readonly first: string;
  readonly last: string;
}

/** What names an imported log. */
export interface ImportedLog {
  /** The file's path (POSIX or Windows). */
  readonly path: string;
  readonly deployConfig: string | null;
  /** Its nth import among the sessions of a file of that name; 1 or absent for the first. */
  readonly ordinal?: number;
  /** Files read before it as one log with it (its rotations); 0 or absent for one file. */
  readonly earlierFiles?: number | undefined;
  /** null or absent before a timestamped request is read. */
  readonly logSpan?: LogSpan | null;
}

/** The hover of a log span wherever it is shown. */
export const LOG_SPAN_TITLE =
  "The log timestamps of the run's first and last request (the server's local time; the log prints no year)";

/** "10-19 07:12:04 – 07:12:12" (the day once when both are on it), "10-19 07:12:04" for one moment. */
export function logSpanText(span: LogSpan): string {
  if (span.first === span.last) return span.first;
  const [firstDay] = span.first.split(' ');
  const [lastDay, lastTime] = span.last.split(' ');
  return `${span.first} – ${firstDay === lastDay && lastTime !== undefined ? lastTime : span.last}`;
}

/**
 * "run-42.log · qwen3_omni_moe.yaml", "run-42.log (2)", "server.log + 2 earlier files": the file,
 * its ordinal from the second import, the files read before it, the deploy file.
 */
export function importedRunName(log: ImportedLog): string {
  const ordinal = log.ordinal !== undefined && log.ordinal > 1 ? ` (${log.ordinal})` : '';
  const earlier = log.earlierFiles ?? 0;
  const file = `${baseName(log.path)}${ordinal}${earlier > 0 ? ` + ${countOf(earlier, 'earlier file')}` : ''}`;
  return log.deployConfig === null || log.deployConfig === '' ? file : `${file} · ${baseName(log.deployConfig)}`;
}

/** The run's name and, once a timestamped request is read, its log span. */
export function importedLogTitle(log: ImportedLog): string {
  const name = importedRunName(log);
  return log.logSpan === undefined || log.logSpan === null ? name : `${name} · logged ${logSpanText(log.logSpan)}`;
}
