// A boot selection in words (the CLI's --boot options and the editor's Compare alike): the boots
// a log has, why a selection read nothing, what it left out.
import type { BootCounts } from './streamAnalysis';
import { andList } from '../andList';
import { countOf } from '../numberText';

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
