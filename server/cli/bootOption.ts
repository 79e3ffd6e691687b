// --boot of analyze and explain, --baseline-boot and --candidate-boot of compare: one server boot
// of a log that holds several (the analysis numbers them from the log's boot markers; 0 holds
// the requests before the first one).
export { bootListText, bootNoteOf, unknownBootProblem } from '../core/analysis/bootWords';

/** The boot asked for; null when none was; a message when it is not a boot number. `flag`: the option's name. */
export function bootOption(text: string | undefined, flag = '--boot'): number | null | string {
  if (text === undefined) return null;
  return /^\d{1,9}$/.test(text.trim())
    ? Number(text.trim())
    : `${flag} '${text}' is not a boot number (1 for the log's first server start, 0 for requests before any)`;
}
