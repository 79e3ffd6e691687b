// --boot of analyze and explain, --baseline-boot and --candidate-boot of compare: one server boot
// of a log that holds several (the analysis numbers them from the log's boot markers; 0 holds
// the requests before the first one).
import type { BootCounts } from '../core/analysis/streamAnalysis';
import { andList } from '../core/andList';
import { countOf } from '../core/numberText';

/** The boot asked for; null when none was; a message when it is not a boot number. `flag`: the option's name. */
export function bootOption(text: string | undefined, flag = '--boot'): number | null | string {
  if (text === undefined) return null;
  return /^\d{1,9}$/.test(text.trim())
    ? Number(text.trim())
    : `${flag} '${text}' is not a boot number (1 for the log's first server start, 0 for requests before any)`;
}

/** The boots a log has, in words: "1 (6 requests) and 2 (3 requests)". */
export function bootListText(boots: BootCounts['boots']): string {
  return andList(boots.map((b) => `${b.boot} (${countOf(b.requests, 'request')})`));
}

/** Why --boot read nothing: the log has no such boot (with the boots it has); null when it has it. */
export function unknownBootProblem(counts: BootCounts | null): string | null {
  if (counts === null || counts.boots.some((b) => b.boot === counts.boot)) return null;
  if (counts.boots.length === 0) return `the log has no boot ${counts.boot}: it has no request`;
  return `the log has no boot ${counts.boot}: its boots with requests are ${bootListText(counts.boots)}`;
}

/** The boot kept and what it left out, in words (null: no boot selected). */
export function bootNoteOf(counts: BootCounts | null): string | null {
  if (counts === null || unknownBootProblem(counts) !== null) return null;
  const others = counts.boots.filter((b) => b.boot !== counts.boot);
  return (
    `Boot ${counts.boot}: the requests of server boot ${counts.boot} only; ` +
    (others.length === 0
      ? 'the log has no other boot.'
      : `${countOf(counts.outside, 'request')} of boot${others.length === 1 ? '' : 's'} ${andList(others.map((b) => b.boot))} left out.`)
  );
}
