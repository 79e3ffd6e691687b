// What a run could show, for the findings diff: a finding read from the stats tables cannot
// appear in a log that printed none (a server at INFO: [OmniTiming] lines only), a log's
// finding in a scrape alone, a scrape's in a run without one. Its absence there is no change.
import { readFromStatsTables } from '../analysis/tablesMissing';
import type { FindingCheckability, UncheckableReason } from './findingsDiff';
import type { FindingCount, RunData, RunSamples } from './types';

/** Every request of the log lacks a stage table (stage-tables-missing counts them all). */
function printedNoStatsTables(samples: RunSamples): boolean {
  const missing = samples.findings.find((f) => f.code === 'stage-tables-missing')?.requestCount ?? 0;
  return samples.requestCount > 0 && missing >= samples.requestCount;
}

function uncheckableIn(run: RunData): UncheckableReason {
  const noTables = run.samples !== null && printedNoStatsTables(run.samples);
  // A log with DEBUG lines did not run at INFO: its stats logger was set above DEBUG, or the tables were cut out (tablesMissing.ts).
  const why =
    run.samples?.debugLines === true
      ? 'it printed no stats tables, only [OmniTiming] lines, though its log has DEBUG lines'
      : 'it printed no stats tables (a server at INFO logs [OmniTiming] lines only)';
  return (f: FindingCount) => {
    if (f.fromScrape === true) return run.histograms === null ? 'it has no /metrics scrape' : null;
    if (run.samples === null) return 'it has no log, only a /metrics scrape';
    if (noTables && readFromStatsTables(f.code)) return why;
    return null;
  };
}

export function findingCheckability(baseline: RunData, candidate: RunData): FindingCheckability {
  return { baseline: uncheckableIn(baseline), candidate: uncheckableIn(candidate) };
}
