// What a damaged gzip input says: the log before the damage was read (server/capture/gunzipInput.ts),
// the rest was not. One sentence for the report's finding and the CLI's stderr.
import type { ParseProblem } from './records';

/** `logBytes` in MB: one decimal from 1 MB, three below it (a small log's cut is not "0.0 MB"). */
function megabytes(logBytes: number): string {
  if (logBytes === 0) return '0 MB';
  const mb = logBytes / 1e6;
  return `${mb >= 1 ? mb.toFixed(1) : Math.max(mb, 0.001).toFixed(3)} MB`;
}

/**
 * "the gzip data ends after 3.2 MB of log: unexpected end of file" (cut short), or "breaks after"
 * (damaged within). `zlibMessage` is zlib's own word for it.
 */
export function gzipDamageText(logBytes: number, zlibMessage: string): string {
  const cutShort = /unexpected end of file/i.test(zlibMessage);
  return `the gzip data ${cutShort ? 'ends' : 'breaks'} after ${megabytes(logBytes)} of log: ${zlibMessage}`;
}

/** The parse problem that carries the damage to the findings (input-gzip-damaged). */
export function gzipDamageProblem(logBytes: number, zlibMessage: string): ParseProblem {
  return { line: 0, message: gzipDamageText(logBytes, zlibMessage), gzipDamaged: { logBytes } };
}

/** A report's name for its input: "server.log.1.gz (gzip)" when it was read through gunzip. */
export function encodedSourceName(source: string, encoding: { readonly compression: 'gzip' | null }): string {
  return encoding.compression === 'gzip' ? `${source}${GZIP_SUFFIX}` : source;
}

const GZIP_SUFFIX = ' (gzip)';

/** A report's name of its input with one more fact about it: "server.log (boot 2)", "server.log.1.gz (gzip, boot 2)". */
export function qualifiedSourceName(name: string, qualifier: string): string {
  return name.endsWith(GZIP_SUFFIX)
    ? `${name.slice(0, -GZIP_SUFFIX.length)} (gzip, ${qualifier})`
    : `${name} (${qualifier})`;
}
