// What the panels show of a log's run summaries (the summary dicts or blocks vLLM-Omni printed for
// a whole run, server/core/analysis/runSummaries.ts): the latest one's numbers as printed, under
// the log's own names, with where they come from; what `analyze --format table` prints of it; then
// the earlier ones (one per benchmark run), latest first, each with its line and time. A key the
// server printed as None has a row that says not measured (never 0); a key it did not print, or
// one after a cut, has none. A `stages.<n>` entry is named by the stage_id it printed, a
// `transfers.<n>` entry by the edge it printed, else each as a list position
// (runSummaryStages.ts). DOM-free.
import type { RunSummariesJson, RunSummaryJson } from '../../server/protocol';
import {
  asPrinted,
  countOf,
  RUN_SUMMARY_CUT_OFF,
  RUN_SUMMARY_NONE,
  RUN_SUMMARY_SCOPE,
  runSummaryEntryKey,
  runSummaryFieldEntry,
  runSummarySource,
  runSummaryWhere,
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
  /**
   * For the first value of a `stages.<n>` or `transfers.<n>` entry: what the entry is
   * (`stages.1 is stage 2 · talker`, `transfers.0 is edge 0 → 1`), shown above it; null for the others.
   */
  readonly stageHeading: string | null;
}

/** One run summary's own part: where it is from, whether it was cut, its rows. */
export interface RunSummaryPart {
  /** Changes when what is shown changes (more of it read, other stage names). */
  readonly key: string;
  /** Where the numbers come from and what they are. */
  readonly source: string;
  /** What a cut-off summary leaves unknown; null for a whole one. */
  readonly cutOff: string | null;
  readonly rows: readonly RunSummaryRow[];
}

/** An earlier summary: a heading for its collapsed section, then its part. */
export interface EarlierRunSummary extends RunSummaryPart {
  /** `line 2, 12-27 22:03:23 · omni.py's [Summary] dict (…)`. */
  readonly heading: string;
}

export interface RunSummaryView extends RunSummaryPart {
  /** How many the log printed, when more than the one shown in full; else null. */
  readonly which: string | null;
  /** The kept summaries before the latest, latest first. */
  readonly earlier: readonly EarlierRunSummary[];
}

export function runSummaryView(
  summaries: RunSummariesJson | null | undefined,
  stageNames: Readonly<Record<string, string>> = {},
): RunSummaryView | null {
  const latest = summaries?.kept[summaries.kept.length - 1];
  if (summaries === null || summaries === undefined || latest === undefined) return null;
  const n = summaries.count;
  const earlier = summaries.kept
    .slice(0, -1)
    .reverse()
    .map((s): EarlierRunSummary => ({ ...partOf(s, stageNames), heading: `${runSummaryWhere(s)} · ${s.title}` }));
  const notKept = n - summaries.kept.length;
  const which =
    n === 1
      ? null
      : `The latest of ${countOf(n, 'run summary', 'run summaries')} in the log; the earlier ones below, latest first` +
        (notKept > 0 ? ` (the first ${notKept} not kept).` : '.');
  const part = partOf(latest, stageNames);
  return { ...part, key: `${n}:${part.key}`, source: `${part.source}: ${RUN_SUMMARY_SCOPE}.`, which, earlier };
}

function partOf(summary: RunSummaryJson, stageNames: Readonly<Record<string, string>>): RunSummaryPart {
  const rows: RunSummaryRow[] = [];
  const at = `as the server printed it at ${runSummaryWhere(summary)}`;
  let entryShown: string | null = null;
  for (const name in summary.values) {
    const v = summary.values[name] ?? null;
    const field = withVisibleControls(name);
    const stage = runSummaryFieldEntry(name, summary, stageNames);
    const entry = runSummaryEntryKey(name);
    const stageHeading = stage === '' || entry === entryShown ? null : `${entry} is ${stage}`;
    entryShown = entry;
    const of = stage === '' ? '' : ` (${stage})`;
    if (v === null) {
      rows.push({
        field,
        value: RUN_SUMMARY_NONE,
        state: 'notMeasured',
        title: `${field} = None${of}, ${at}`,
        stageHeading,
      });
      continue;
    }
    // A printed nan / inf arrives as its text (runSummariesJson): shown as printed.
    const text = typeof v === 'string' ? v : asPrinted(name, v);
    rows.push({
      field,
      value: typeof v === 'number' && name.endsWith('_ms') ? `${text} ms` : text,
      state: 'measured',
      title: `${field} = ${String(v)}${of}, ${at}`,
      stageHeading,
    });
  }
  const names = [
    ...summary.stageEntries.map((e) => `${e.key}=${e.stageId ?? ''}`),
    ...summary.transferEntries.map((e) => `${e.key}=${e.fromStage ?? ''}>${e.toStage ?? ''}`),
  ].join(',');
  return {
    key: `${summary.line}:${summary.complete}:${rows.length}:${names}:${JSON.stringify(stageNames)}`,
    source: runSummarySource(summary),
    cutOff: summary.complete ? null : `It was cut off: ${RUN_SUMMARY_CUT_OFF}.`,
    rows,
  };
}
