// Where a run's gzip input broke off, a log's or a scrape's alike: the comparison is of what
// was read before it, and says so (the report's notes, the CLI's stderr).
import type { RunData } from './types';

/** The sentence of the run's input-gzip-damaged finding, or undefined when its input was read whole. */
export function inputBreakOf(run: RunData): string | undefined {
  return run.samples?.findings.find((f) => f.code === 'input-gzip-damaged')?.message ?? run.scrapeBreak;
}
