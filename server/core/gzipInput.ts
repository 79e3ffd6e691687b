// What a damaged gzip input says: the log before the damage was read (server/capture/gunzipInput.ts),
// the rest was not. One sentence for the report's finding and the CLI's stderr; a short mark for
// where the numbers are read (the CLI table's header, the status bar, the views' headers).
import { byteSizeText } from './numberText';
import type { ParseProblem } from './records';

/**
 * "the gzip data ends after 3.2 MB of log: unexpected end of file" (cut short), or "breaks after"
 * (damaged within). `zlibMessage` is zlib's own word for it.
 */
export function gzipDamageText(logBytes: number, zlibMessage: string): string {
  const cutShort = /unexpected end of file/i.test(zlibMessage);
  return `the gzip data ${cutShort ? 'ends' : 'breaks'} after ${byteSizeText(logBytes)}${OF_LOG}${zlibMessage}`;
}

/** Where gzipDamageText says what the bytes were of: told before the input's kind is known, a log unless it is a scrape. */
const OF_LOG = ' of log: ';

/**
 * The CLI's stderr line after the report of an input whose gzip data broke off (`damage`, of
 * gzipDamageProblem): where it broke and what the report covers, of a log (its requests before
 * the break) or of a /metrics scrape (its series before the break; a scrape is no log).
 */
export function gzipDamageNote(damage: ParseProblem, kind: 'log' | 'scrape', name: string): string {
  if (kind === 'log') return `${damage.message}; the report covers the log before it, the rest of ${name} was not read`;
  const message = damage.message.replace(OF_LOG, ' of the /metrics scrape: ');
  return `${message}; the report covers the series before it, the rest of ${name} was not read`;
}

/** "partial: gzip data cut after 99.1 KB": said next to the numbers of a log whose gzip data broke off. */
export function partialLogMark(logBytes: number): string {
  return `partial: gzip data cut after ${byteSizeText(logBytes)}`;
}

/** The mark's sentence, for a tooltip: what the numbers cover and what they do not. */
export function partialLogText(logBytes: number): string {
  return `Partial log: the gzip data broke off after ${byteSizeText(logBytes)} of log (input-gzip-damaged). These numbers are of the log before the break; the rest of the file was not read.`;
}

/**
 * Why a gzip file given to follow is read whole instead: a rotated log is compressed once it
 * is done, so nothing is ever appended to it. `how`: how it was read ("read whole").
 */
export function gzipNotFollowedText(name: string, how: string): string {
  return `${name} is gzip-compressed, a rotated log that no longer grows: ${how}, not followed`;
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

/**
 * A table header's name of its input, said partial where its gzip data broke off (every number
 * below is of the log before the break): "server.log.1.gz (gzip), partial: gzip data cut after 99 KB".
 */
export function headerSourceName(name: string, damage: ParseProblem | null): string {
  return partialSourceName(name, damage?.gzipDamaged?.logBytes);
}

/** headerSourceName by the bytes of log read before the break (undefined: read whole); compare's run names use it. */
export function partialSourceName(name: string, partialLogBytes: number | undefined): string {
  return partialLogBytes === undefined ? name : `${name}, ${partialLogMark(partialLogBytes)}`;
}

/** A report's name of its input with one more fact about it: "server.log (boot 2)", "server.log.1.gz (gzip, boot 2)". */
export function qualifiedSourceName(name: string, qualifier: string): string {
  return name.endsWith(GZIP_SUFFIX)
    ? `${name.slice(0, -GZIP_SUFFIX.length)} (gzip, ${qualifier})`
    : `${name} (${qualifier})`;
}
