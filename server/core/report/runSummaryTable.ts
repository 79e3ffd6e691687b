// The run-level summary dicts and blocks of a log (analysis/runSummaries.ts) in `analyze
// --format table`: the latest one's numbers as printed, under the log's own names (dotted for
// nested values), so a reader finds them in the log. They are the run's figures, not a request's.
// A value printed as None has its row, worded as not measured; a key never printed has none.
// A `stages.<n>.*` row says which stage its entry is, a `transfers.<n>.*` row which edge
// (runSummaryStages.ts): n is a list position.
// The earlier summaries (one per benchmark run or offline generate() call) are counted, with
// where they are, and left to the JSON.
import type { RunSummaries, RunSummary } from '../analysis/types';
import { textTable, withVisibleControls } from '../textTable';
import { asPrinted } from './overallSummaryTable';
import { nonFiniteText } from '../values';
import {
  RUN_SUMMARY_CUT_OFF,
  RUN_SUMMARY_NONE,
  RUN_SUMMARY_SCOPE,
  runSummaryEarlier,
  runSummarySource,
} from '../runSummaryWords';
import { hasRunSummaryEntries, runSummaryEntryNotes, runSummaryFieldEntry } from '../runSummaryStages';

export function runSummaryLines(summaries: RunSummaries, roles: Readonly<Record<string, string>> = {}): string[] {
  const latest = summaries.kept[summaries.kept.length - 1];
  if (latest === undefined) return [];
  const n = summaries.count;
  const which = n === 1 ? '' : ` (the latest of ${n})`;
  const withStage = hasRunSummaryEntries(latest);
  const rows: string[][] = [];
  for (const name in latest.values) {
    const v = latest.values[name] ?? null;
    const text = v === null ? RUN_SUMMARY_NONE : (nonFiniteText(v) ?? asPrinted(name, v));
    const field = withVisibleControls(name);
    rows.push(withStage ? [field, runSummaryFieldEntry(name, latest, roles), text] : [field, text]);
  }
  const out = [`${runSummarySource(latest)}${which}: ${RUN_SUMMARY_SCOPE} (_ms fields in ms)`];
  if (rows.length === 0) out.push('  (no number was read from it)');
  else out.push(...textTable(withStage ? ['field', 'stage', 'value'] : ['field', 'value'], rows));
  if (withStage) out.push(...runSummaryEntryNotes(latest));
  if (!latest.complete) out.push('', `It was cut off (see Input problems): ${RUN_SUMMARY_CUT_OFF}.`);
  if (n > 1)
    out.push(
      '',
      `${runSummaryEarlier(n - 1, earlierOf(summaries))}. --format json has each kept one (runSummaries.kept).`,
    );
  return out;
}

/** The kept summaries before the latest, latest first. */
function earlierOf(summaries: RunSummaries): RunSummary[] {
  return summaries.kept.slice(0, -1).reverse();
}
