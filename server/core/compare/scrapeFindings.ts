// What a run's /metrics scrape shows to be wrong, as findings a comparison can diff like a
// log's: the codec TTFT signature per stage (the series marked !), the diffusion
// pre-processing zeros, and families registered but stuck at 0 while requests finish. The
// codec TTFT bug disappearing after the fix is then said, not just a ! fewer in a table.
import type { ParsedExposition } from '../metricsText/model';
import { DIFFUSION_PREPROCESS_FAMILY } from '../metricsText/preprocessZeros';
import { metricNotReportingInScrape, notReportingReads } from '../explain/metricNotReporting';
import { CODEC_TTFT_SIGNATURE_READS } from '../metricsText/codecTtftSignature';
import { caveatBesidesCut, WHOLE_INPUT, type FamilyRead, type ScrapeEnd } from '../metricsText/scrapeCut';
import type { FindingCount, HistogramRow } from './types';

const TTFT_FAMILY = 'vllm:time_to_first_token_seconds';

function stageOf(row: HistogramRow): number | null {
  const stage = row.labels['stage'];
  return stage === undefined || !/^\d+$/.test(stage) ? null : Number(stage);
}

/**
 * Findings of a scrape's rows (their caveats) and, when the exposition is at hand, of its families
 * stuck at 0. `end`: how its input ended (the family a cut scrape breaks off in is not judged).
 */
export function scrapeFindings(
  rows: readonly HistogramRow[],
  parsed: ParsedExposition | null,
  end: ScrapeEnd = WHOLE_INPUT,
): FindingCount[] {
  const byKey = new Map<string, FindingCount>();
  for (const row of rows) {
    // A series cut short is unknown, not one of these lies: only what its caveat says besides the cut counts.
    const caveat = caveatBesidesCut(row.caveat);
    if (caveat === null) continue;
    // The codec signature marks the stage's TTFT (a one-output stage's marks its prefill, decode
    // and time per output token instead: not this finding).
    const code =
      row.family === TTFT_FAMILY
        ? 'ttft-not-recorded'
        : row.family === DIFFUSION_PREPROCESS_FAMILY
          ? 'diffusion-zero-ambiguous'
          : null;
    if (code === null) continue;
    const stageId = stageOf(row);
    const key = `${code}|${stageId ?? ''}`;
    if (!byKey.has(key))
      byKey.set(key, {
        code,
        severity: code === 'ttft-not-recorded' ? 'warning' : 'info',
        stageId,
        requestCount: 0,
        message: caveat,
        fromScrape: true,
      });
  }
  const out = [...byKey.values()];
  const codecStages = new Set(out.filter((f) => f.code === 'ttft-not-recorded').map((f) => f.stageId));
  for (const f of parsed === null ? [] : metricNotReportingInScrape(parsed, null, end)) {
    // The codec stage's empty TTFT is the signature above, said once.
    if (f.family === TTFT_FAMILY && codecStages.has(f.stageId)) continue;
    out.push({
      code: f.code,
      severity: f.severity,
      stageId: f.stageId,
      requestCount: 0,
      message: f.message,
      fromScrape: true,
      ...(f.family === undefined ? {} : { family: f.family }),
    });
  }
  return out;
}

/**
 * The /metrics families a finding of scrapeFindings is read from (FamilyRead): a scrape that did
 * not read one of them (or its stage's series of it) whole could not show it. null: a finding
 * these do not give (its families not known).
 */
export function scrapeFindingReads(f: FindingCount): readonly FamilyRead[] | null {
  switch (f.code) {
    case 'ttft-not-recorded':
      return CODEC_TTFT_SIGNATURE_READS;
    case 'diffusion-zero-ambiguous':
      return [{ names: [DIFFUSION_PREPROCESS_FAMILY], perSeries: true }];
    case 'metric-not-reporting':
      return notReportingReads(f);
    default:
      return null;
  }
}
