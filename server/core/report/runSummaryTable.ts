// The run-level summary dicts and blocks of a log (analysis/runSummaries.ts) in `analyze
// --format table`: the latest one's numbers as printed, under the log's own names (dotted for
// nested values), so a reader finds them in the log. They are the run's figures, not a request's.
// A value printed as None has its row, worded as not measured; a key never printed has none.
import type { RunSummaries } from '../analysis/types';
import { textTable, withVisibleControls } from '../textTable';
import { asPrinted } from './overallSummaryTable';
import { nonFiniteText } from '../values';
import { RUN_SUMMARY_CUT_OFF, RUN_SUMMARY_NONE, RUN_SUMMARY_SCOPE, runSummarySource } from '../runSummaryWords';

export function runSummaryLines(summaries: RunSummaries): string[] {
  const latest = summaries.kept[summaries.kept.length - 1];
  if (latest === undefined) return [];
  const n = summaries.count;
  const which = n === 1 ? '' : ` (the latest of ${n}; --format json has the latest ${summaries.kept.length})`;
  const rows: string[][] = [];
  for (const name in latest.values) {
    const v = latest.values[name] ?? null;
    const text = v === null ? RUN_SUMMARY_NONE : (nonFiniteText(v) ?? asPrinted(name, v));
    rows.push([withVisibleControls(name), text]);
  }
  const out = [`${runSummarySource(latest)}${which}: ${RUN_SUMMARY_SCOPE} (_ms fields in ms)`];
  if (rows.length === 0) out.push('  (no number was read from it)');
  else out.push(...textTable(['field', 'value'], rows));
  if (!latest.complete) out.push('', `It was cut off (see Input problems): ${RUN_SUMMARY_CUT_OFF}.`);
  return out;
}
