// What a run could show, for the findings diff: a finding read from the stats tables cannot
// appear in a log that printed none (a server at INFO: [OmniTiming] lines only), a log's
// finding in a scrape alone, a scrape's in a run without one, nor in a scrape cut short before
// it read the finding's families whole (of a check read series by series, the finding's stage's
// series of them). Its absence there is no change.
import { readFromStatsTables } from '../analysis/tablesMissing';
import { unreadFamily, type FamilyRead, type ScrapeCutFamilies } from '../metricsText/scrapeCut';
import type { FindingCheckability, UncheckableReason } from './findingsDiff';
import { scrapeFindingReads } from './scrapeFindings';
import type { FindingCount, RunData, RunSamples } from './types';

type Role = 'baseline' | 'candidate';

/** Every request of the log lacks a stage table (stage-tables-missing counts them all). */
function printedNoStatsTables(samples: RunSamples): boolean {
  const missing = samples.findings.find((f) => f.code === 'stage-tables-missing')?.requestCount ?? 0;
  return samples.requestCount > 0 && missing >= samples.requestCount;
}

/**
 * "inside A and before B": the families a finding is read from that a scrape cut short did not
 * read whole (or, for a check read series by series, not the finding's stage's series of them);
 * '' when the finding's families are not known; null: it read them all.
 */
function whereCut(cut: ScrapeCutFamilies, reads: readonly FamilyRead[] | null, stageId: number | null): string | null {
  if (reads === null) return '';
  const unread = reads.flatMap((read) => {
    const missed = unreadFamily(cut, read, stageId);
    return missed === null ? [] : [missed];
  });
  if (unread.length === 0) return null;
  const inside = unread.filter((u) => u.inside).map((u) => u.name);
  const before = unread.filter((u) => !u.inside).map((u) => u.name);
  return [
    ...(inside.length === 0 ? [] : [`inside ${inside.join(' and ')}`]),
    ...(before.length === 0 ? [] : [`before ${before.join(' and ')}`]),
  ].join(' and ');
}

/**
 * Why a scrape cut short could not show a finding of a scrape: it did not read whole a family the
 * finding is read from (the one it broke off in, or one after it); null when it read them all.
 */
function cutShortReason(cut: ScrapeCutFamilies, f: FindingCount, role: Role): string | null {
  const where = whereCut(cut, scrapeFindingReads(f), f.stageId);
  if (where === null) return null;
  // The run lacking it: in the candidate it would read as gone, in the baseline as new.
  const not = role === 'candidate' ? 'not a finding gone' : 'not a new finding';
  const families = where === '' ? '' : ` ${where}, which this finding is read from`;
  return `the ${role}'s scrape is cut short${families}, so it is unknown there (a capture cut short, ${not}): take the ${role}'s scrape again`;
}

function uncheckableIn(run: RunData, role: Role): UncheckableReason {
  const noTables = run.samples !== null && printedNoStatsTables(run.samples);
  // A log with DEBUG lines did not run at INFO: its stats logger was set above DEBUG, or the tables were cut out (tablesMissing.ts).
  const why =
    run.samples?.debugLines === true
      ? 'it printed no stats tables, only [OmniTiming] lines, though its log has DEBUG lines'
      : 'it printed no stats tables (a server at INFO logs [OmniTiming] lines only)';
  return (f: FindingCount) => {
    if (f.fromScrape === true) {
      if (run.histograms === null) return 'it has no /metrics scrape';
      return run.scrapeCut === undefined ? null : cutShortReason(run.scrapeCut, f, role);
    }
    if (run.samples === null) return 'it has no log, only a /metrics scrape';
    if (noTables && readFromStatsTables(f.code)) return why;
    return null;
  };
}

export function findingCheckability(baseline: RunData, candidate: RunData): FindingCheckability {
  return { baseline: uncheckableIn(baseline, 'baseline'), candidate: uncheckableIn(candidate, 'candidate') };
}
