// Where a run's input broke off, a log's gzip data or a scrape cut short alike: the comparison is
// of what was read before it, and says so (the report's notes, the CLI's stderr).
import type { RunData } from './types';

/** The sentence of the run's input-gzip-damaged (or a scrape's input-cut-short) finding, or undefined when its input was read whole. */
export function inputBreakOf(run: RunData): string | undefined {
  return run.samples?.findings.find((f) => f.code === 'input-gzip-damaged')?.message ?? run.scrapeBreak;
}
