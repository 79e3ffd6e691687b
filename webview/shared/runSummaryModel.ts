// What the panels show of a log's run summary (a summary dict or block vLLM-Omni printed for the
// whole run, server/core/analysis/runSummaries.ts): the latest one's numbers as printed, under the
// log's own names, with where they come from; what `analyze --format table` prints of it. A key
// the server printed as None, or one after a cut, has no row: it is unknown, never 0. DOM-free.
import type { RunSummaries } from '../../server/protocol';
import {
  asPrinted,
  countOf,
  RUN_SUMMARY_CUT_OFF,
  RUN_SUMMARY_SCOPE,
  runSummarySource,
  withVisibleControls,
} from '../../server/shared';

export interface RunSummaryRow {
  /** The log's name of the value (dotted for nested ones), control characters made visible. */
  readonly field: string;
  /** As the CLI's table prints it, with `ms` on a `_ms` field. */
  readonly value: string;
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

export function runSummaryView(summaries: RunSummaries | null | undefined): RunSummaryView | null {
  const latest = summaries?.kept[summaries.kept.length - 1];
  if (summaries === null || summaries === undefined || latest === undefined) return null;
  const rows: RunSummaryRow[] = [];
  for (const name in latest.values) {
    const v = latest.values[name] as number;
    const field = withVisibleControls(name);
    rows.push({
      field,
      value: name.endsWith('_ms') ? `${asPrinted(name, v)} ms` : asPrinted(name, v),
      title: `${field} = ${String(v)}, as the server printed it at line ${latest.line}`,
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
