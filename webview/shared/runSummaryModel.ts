// What the panels show of a log's run summary (a summary dict or block vLLM-Omni printed for the
// whole run, server/core/analysis/runSummaries.ts): the latest one's numbers as printed, under the
// log's own names, with where they come from; what `analyze --format table` prints of it. A key
// the server printed as None has a row that says not measured (never 0); a key it did not print,
// or one after a cut, has none. DOM-free.
import type { RunSummariesJson } from '../../server/protocol';
import {
  asPrinted,
  countOf,
  RUN_SUMMARY_CUT_OFF,
  RUN_SUMMARY_NONE,
  RUN_SUMMARY_SCOPE,
  runSummarySource,
  withVisibleControls,
} from '../../server/shared';

export interface RunSummaryRow {
  /** The log's name of the value (dotted for nested ones), control characters made visible. */
  readonly field: string;
  /** As the CLI's table prints it, with `ms` on a `_ms` field; RUN_SUMMARY_NONE for a printed None. */
  readonly value: string;
  /** `notMeasured`: the server printed None. */
  readonly state: 'measured' | 'notMeasured';
  /** Every digit the server printed, and where. */
  readonly title: string;
}

export interface RunSummaryView {
  /** Changes when what is shown changes (a newer summary, or more of it read). */
  readonly key: string;
  /** Where the numbers come from and what they are. */
  readonly source: string;
  /** How many the log printed, when more than the one shown; else null. */
  readonly which: string | null;
  /** What a cut-off summary leaves unknown; null for a whole one. */
  readonly cutOff: string | null;
  readonly rows: readonly RunSummaryRow[];
}

export function runSummaryView(summaries: RunSummariesJson | null | undefined): RunSummaryView | null {
  const latest = summaries?.kept[summaries.kept.length - 1];
  if (summaries === null || summaries === undefined || latest === undefined) return null;
  const rows: RunSummaryRow[] = [];
  for (const name in latest.values) {
    const v = latest.values[name] ?? null;
    const field = withVisibleControls(name);
    const at = `as the server printed it at line ${latest.line}`;
    if (v === null) {
      rows.push({ field, value: RUN_SUMMARY_NONE, state: 'notMeasured', title: `${field} = None, ${at}` });
      continue;
    }
    // A printed nan / inf arrives as its text (runSummariesJson): shown as printed.
    const text = typeof v === 'string' ? v : asPrinted(name, v);
    rows.push({
      field,
      value: typeof v === 'number' && name.endsWith('_ms') ? `${text} ms` : text,
      state: 'measured',
      title: `${field} = ${String(v)}, ${at}`,
    });
  }
  const n = summaries.count;
  return {
    key: `${n}:${latest.line}:${latest.complete}:${rows.length}`,
    source: `${runSummarySource(latest)}: ${RUN_SUMMARY_SCOPE}.`,
    which: n === 1 ? null : `The latest of ${countOf(n, 'run summary', 'run summaries')} in the log.`,
    cutOff: latest.complete ? null : `It was cut off: ${RUN_SUMMARY_CUT_OFF}.`,
    rows,
  };
}
