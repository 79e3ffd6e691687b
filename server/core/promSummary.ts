// A /metrics scrape as the CLI and the sessions report it: one row per histogram
// series of every family (stage/replica labels kept), quantiles as PromQL's
// histogram_quantile. A series that is absent stays absent: not measured.
import { parseExposition } from './prom';
import type { ParsedExposition } from './prom/model';
import { summarizeHistogramSeries } from './prom/stageHistograms';
import type { ParseProblem } from './records';
import type { HistogramSummary } from '../protocol';

/** One parse of a scrape body: its histogram rows and the lines that could not be read. */
export function summarizeScrape(body: string): { histograms: HistogramSummary[]; problems: ParseProblem[] } {
  const parsed = parseExposition(body);
  return { histograms: histogramSummariesOf(parsed), problems: parsed.problems.map((p) => ({ line: p.line, message: `metrics: ${p.message}` })) };
}

export function histogramSummariesOf(parsed: ParsedExposition): HistogramSummary[] {
  const out: HistogramSummary[] = [];
  for (const family of parsed.families) {
    if (family.type !== 'histogram') continue;
    for (const series of family.series) {
      const row = summarizeHistogramSeries(family.name, series);
      out.push({ family: row.family, labels: row.labels, count: row.count ?? 0, sum: row.sum ?? 0, p50: row.p50, p90: row.p90, p99: row.p99 });
    }
  }
  return out;
}
