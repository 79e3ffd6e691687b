// Run-level summaries printed as dicts or blocks rather than [Overall Summary] tables: omni.py's
// `[Summary] {...}` (before February 2026), the single-line summary dict (December 2025) and the
// "Omni Metrics Summary" block of the unmerged vllm-omni#3069, and the summary records of
// log_utils.py's JSON stats files (legacyDict.ts). They name no request, yet they are
// all such a log says about the run (requests served, total and average times, per-stage
// totals, queue waits), so every output shows them as printed; they never become a request's
// values. A value printed as `None` is kept as null: "the server said None" is not "the server
// did not print it" (no key). The latest few are kept: each offline generate() call prints one.
import type { LegacyDictRecord } from '../records';
import { METRICS_SUMMARY_FORMAT } from '../log/metricsSummary';
import { isSafeKey } from '../log/strings';
import type { RunSummaries, RunSummariesJson, RunSummary } from './types';
import { nonFiniteText } from '../values';
import { countOf } from '../numberText';
import { runSummaryStageEntries, runSummaryTransferEntries } from '../runSummaryStages';
import { totalsInCsv } from './overallSummaries';

/** How both summary readers keep a printed None. */
const NONE = 'None';

/** Summaries kept (the latest); the others are counted. */
export const MAX_RUN_SUMMARIES = 20;

const TITLES: ReadonlyMap<string, string> = new Map([
  ['omni [Summary]', "omni.py's [Summary] dict (vLLM-Omni before February 2026)"],
  ['summary dict', 'the single-line summary dict (vLLM-Omni, December 2025)'],
  [METRICS_SUMMARY_FORMAT, 'the "Omni Metrics Summary" block (layout of the unmerged vLLM-Omni PR #3069)'],
  [
    'log_utils orchestrator_summary',
    "log_utils.py's orchestrator_summary record (<log file>.orchestrator.stats.jsonl, vLLM-Omni before February 2026)",
  ],
  [
    'log_utils overall_summary',
    "log_utils.py's overall_summary record (<log file>.overall.stats.jsonl, vLLM-Omni before February 2026)",
  ],
]);
/** Of those records, the map of every request's final stage: one value per request, none the run's. */
const PER_REQUEST_PREFIX = 'final_stage_id.';

/** What a person calls the summary format `format`; null for a format that is no run summary. */
export function runSummaryTitle(format: string): string | null {
  return TITLES.get(format) ?? null;
}

export class RunSummaryCollector {
  private readonly kept: RunSummary[] = [];
  private count = 0;

  /** Keeps `record` when it is a run summary; whether it was one. */
  add(record: LegacyDictRecord): boolean {
    const title = runSummaryTitle(record.format);
    if (title === null) return false;
    const values: Record<string, number | null> = {};
    for (const key in record.values) {
      const v = record.values[key];
      if (!isSafeKey(key) || (record.json === true && key.startsWith(PER_REQUEST_PREFIX))) continue;
      // Both readers keep a printed None as its text (pythonLiteral.ts, metricsSummary.ts).
      if (typeof v === 'number') values[key] = v;
      else if (v === NONE) values[key] = null;
    }
    this.count += 1;
    if (this.kept.length === MAX_RUN_SUMMARIES) this.kept.shift();
    this.kept.push({
      format: record.format,
      title,
      line: record.line,
      printedAt: record.header?.timestamp ?? null,
      complete: record.complete,
      values,
      stageEntries: runSummaryStageEntries(values),
      transferEntries: runSummaryTransferEntries(values),
    });
    return true;
  }

  /** The summaries read, the latest MAX_RUN_SUMMARIES of them in log order; null before any. */
  summaries(): RunSummaries | null {
    return this.count === 0 ? null : { count: this.count, kept: [...this.kept] };
  }
}

/** One line for the CSV, which has a row per request and stage only: what the summaries are and where they are shown. */
export function runSummaryCsvNote(summaries: RunSummaries, requestRows: boolean): string {
  const latest = summaries.kept[summaries.kept.length - 1];
  const what = latest === undefined ? '' : ` (the latest: ${latest.title}, line ${latest.line})`;
  return `the input has ${countOf(summaries.count, 'run summary', 'run summaries')}${what}: the run's totals, no request's, ${totalsInCsv(requestRows)}; --format table shows the latest as printed, --format json the latest ${summaries.kept.length} (runSummaries)`;
}

/** The summaries as JSON carries them: null stays a printed None, a nan / inf the text printed (JSON would make it null). */
export function runSummariesJson(s: RunSummaries): RunSummariesJson {
  return {
    count: s.count,
    kept: s.kept.map((k) => {
      const values: Record<string, number | string | null> = {};
      for (const key in k.values) {
        const v = k.values[key] ?? null;
        values[key] = v === null ? null : (nonFiniteText(v) ?? v);
      }
      return { ...k, values };
    }),
  };
}
