// The words the CLI's table and the editor's panels share for a run summary (a summary dict or
// block the server printed, analysis/runSummaries.ts): where its numbers come from and what they
// are. A module of its own so the browser bundles take these words without the log parser.
import { NO_NUMBER_WORD } from './values';

/** What a run summary's numbers are. */
export const RUN_SUMMARY_SCOPE = "the run's figures, not any one request's";

/** A value the summary printed as `None`: its own row, in the words the analyze table uses for None, never 0. */
export const RUN_SUMMARY_NONE = `${NO_NUMBER_WORD.notMeasured} (None)`;

/** What a cut-off run summary leaves unknown. */
export const RUN_SUMMARY_CUT_OFF = 'the values after the cut are unknown, not 0';

/** Where a run summary's numbers come from: the summary the server printed, read as printed. */
export function runSummarySource(summary: { readonly title: string; readonly line: number }): string {
  return `From ${summary.title} at line ${summary.line}, as printed`;
}

/** Where a run summary was printed: `line 2, 12-27 22:03:23` (the log's time when the line has one). */
export function runSummaryWhere(summary: { readonly line: number; readonly printedAt: string | null }): string {
  return summary.printedAt === null ? `line ${summary.line}` : `line ${summary.line}, ${summary.printedAt}`;
}

/**
 * The summaries printed before the latest (one per benchmark run or offline generate() call):
 * `2 earlier run summaries: line 40, 12-27 22:05:10; line 2, 12-27 22:03:23`, latest first, the
 * ones not kept counted.
 */
export function runSummaryEarlier(
  count: number,
  kept: readonly { readonly line: number; readonly printedAt: string | null }[],
): string {
  const listed = kept.map(runSummaryWhere).join('; ');
  const dropped = count - kept.length;
  const more = dropped > 0 ? `; ${dropped} before them not kept` : '';
  return `${count} earlier ${count === 1 ? 'run summary' : 'run summaries'} in the log: ${listed}${more}`;
}
