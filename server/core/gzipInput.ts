// What a damaged gzip input says: the log before the damage was read (server/capture/gunzipInput.ts),
// the rest was not. One sentence for the report's finding and the CLI's stderr; a short mark for
// where the numbers are read (the CLI table's header, the status bar, the views' headers).
import { byteSizeText } from './numberText';
import type { ParseProblem } from './records';
import type { Finding } from './analysis/types';
import { sentenceCase } from './sentenceCase';

/** What the gzip data was of: a log unless the input turned out to be a /metrics scrape. */
export type GzipInputKind = 'log' | 'scrape';

/** Where gzip data broke off: the bytes it gave before the break, and zlib's own word for why. */
export interface GzipBreak {
  readonly logBytes: number;
  readonly zlibMessage: string;
}

/** The parse problem of a gzip input that broke off, with the parts its sentence is made of. */
export type GzipDamageProblem = ParseProblem & { readonly gzipDamaged: GzipBreak };

const INPUT_NOUN: Readonly<Record<GzipInputKind, string>> = { log: 'log', scrape: 'the /metrics scrape' };

/**
 * "the gzip data ends after 3.2 MB of log: unexpected end of file" (cut short), or "breaks after"
 * (damaged within); "of the /metrics scrape" for a scrape. `zlibMessage` is zlib's own word for it.
 * `file`: the file it is of, named where several were read as one log ("the gzip data of server.log.1.gz").
 */
export function gzipDamageText(
  logBytes: number,
  zlibMessage: string,
  kind: GzipInputKind = 'log',
  file: string | null = null,
): string {
  const cutShort = /unexpected end of file/i.test(zlibMessage);
  const data = file === null ? 'the gzip data' : `the gzip data of ${file}`;
  return `${data} ${cutShort ? 'ends' : 'breaks'} after ${byteSizeText(logBytes)} of ${INPUT_NOUN[kind]}: ${zlibMessage}`;
}

/**
 * The CLI's stderr line after the report of an input whose gzip data broke off (`damage`, of
 * gzipDamageProblem): where it broke and what the report covers, of a log (its requests before
 * the break) or of a /metrics scrape (its series before the break; a scrape is no log).
 */
export function gzipDamageNote(damage: GzipDamageProblem, kind: GzipInputKind, name: string): string {
  const { logBytes, zlibMessage } = damage.gzipDamaged;
  const covered = kind === 'log' ? 'the log' : 'the series';
  return `${gzipDamageText(logBytes, zlibMessage, kind)}; the report covers ${covered} before it, the rest of ${name} was not read`;
}

/**
 * The finding of a gzip input that broke off (input-gzip-damaged): where it broke (`damageText`, a
 * gzipDamageText), what of it was read (`read`: "the 3 requests before it are read"), and how to look at the file.
 */
export function gzipDamagedFindingText(damageText: string, read: string): string {
  return `${sentenceCase(damageText)} (a .gz file cut short, or damaged): ${read}; the rest of the file is not. \`gzip -t\` tests the file; \`zcat\` prints what it can of it.`;
}

/** What a scrape cut short was read of, as its findings say it (input-gzip-damaged, input-cut-short). */
export const SERIES_BEFORE_BREAK_READ = 'the series before it are read';

/** A /metrics scrape's input-gzip-damaged finding: its series before the break are read, the rest not. */
export function scrapeGzipDamagedFinding(damage: GzipDamageProblem): Finding {
  return scrapeGzipDamagedFindingOf(
    gzipDamageText(damage.gzipDamaged.logBytes, damage.gzipDamaged.zlibMessage, 'scrape'),
  );
}

/** scrapeGzipDamagedFinding by its damage sentence (gzipDamageText of a scrape), as a session stores it. */
export function scrapeGzipDamagedFindingOf(damageText: string): Finding {
  return {
    code: 'input-gzip-damaged',
    severity: 'warning',
    stageId: null,
    requestIds: [],
    requestCount: 0,
    message: gzipDamagedFindingText(damageText, SERIES_BEFORE_BREAK_READ),
  };
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
export function gzipDamageProblem(logBytes: number, zlibMessage: string): GzipDamageProblem {
  return { line: 0, message: gzipDamageText(logBytes, zlibMessage), gzipDamaged: { logBytes, zlibMessage } };
}

/**
 * The damage a saved session stored (its problem's sentence, a gzipDamageText, and the log bytes
 * before the break) as the parse problem it was: zlib's word is what follows the sentence's first ": ".
 */
export function storedGzipDamage(message: string, logBytes: number): GzipDamageProblem {
  const colon = message.indexOf(': ');
  return gzipDamageProblem(logBytes, colon < 0 ? message : message.slice(colon + 2));
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
