// The known lies of one scrape, per histogram series: the codec TTFT signature, a
// one-output stage's prefill/decode, a downstream stage's queue time, a family registered but
// stuck at 0 (found by explain/metricNotReporting.ts, handed in). Shared by the scrape
// summary (per series) and the comparison (series of a stage's replicas added), so both
// mark the same series with the same words.
import { CODEC_TTFT_FAMILIES, findCodecTtftSignature } from './codecTtftSignature';
import { downstreamQueueCaveat, QUEUE_TIME_FAMILY } from './downstreamQueueTime';
import { labelsKey, stageIdOf, withoutLabels } from './labels';
import { canonicalMetricName } from './metricNames';
import type { Labels, ParsedExposition } from './model';
import { findOneOutputStages, ONE_OUTPUT_FAMILIES } from './oneOutputSignature';

/**
 * A family registered but reading 0 while requests finish (a metric-not-reporting finding):
 * its series' zeros are not measurements. `stageId` null: every stage's series.
 */
export interface NotReportingMark {
  readonly family?: string;
  readonly stageId: number | null;
  readonly message: string;
}

export class SeriesCaveats {
  private readonly codec = new Map<string, string>();
  private readonly oneOutput = new Map<string, string>();
  private readonly notReporting: readonly NotReportingMark[];

  /**
   * `aggregatedAway`: labels a caller adds series over (replica): a stage is marked when any of its series shows a lie.
   * `notReporting`: the scrape's families stuck at 0 (metricNotReportingInScrape's findings).
   */
  constructor(
    parsed: ParsedExposition,
    private readonly aggregatedAway: readonly string[] = [],
    notReporting: readonly NotReportingMark[] = [],
  ) {
    this.notReporting = notReporting.filter((m) => m.family !== undefined);
    for (const s of findCodecTtftSignature(parsed)) this.codec.set(this.key(s.labels), s.message);
    for (const s of findOneOutputStages(parsed))
      if (!this.oneOutput.has(this.key(s.labels))) this.oneOutput.set(this.key(s.labels), s.message);
  }

  private key(labels: Labels): string {
    return labelsKey(withoutLabels(labels, this.aggregatedAway));
  }

  /** Whether the series is a one-output stage's prefill, decode or time per output token. */
  isOneOutput(family: string, labels: Labels): boolean {
    return ONE_OUTPUT_FAMILIES.has(family) && this.oneOutput.has(this.key(labels));
  }

  /** Why the series (canonical family name) is known to mislead; null when no lie is known. */
  caveatOf(family: string, labels: Labels): string | null {
    const found: string[] = [];
    const codec = CODEC_TTFT_FAMILIES.has(family) ? this.codec.get(this.key(labels)) : undefined;
    if (codec !== undefined) found.push(codec);
    // The codec signature already says why that stage's TTFT is empty.
    if (codec === undefined) {
      const stage = stageIdOf(labels);
      for (const m of this.notReporting)
        if (canonicalMetricName(m.family ?? '') === family && (m.stageId === null || m.stageId === stage))
          found.push(m.message);
    }
    if (ONE_OUTPUT_FAMILIES.has(family)) {
      const one = this.oneOutput.get(this.key(labels));
      if (one !== undefined) found.push(one);
    }
    if (family === QUEUE_TIME_FAMILY) {
      const queue = downstreamQueueCaveat(labels);
      if (queue !== null) found.push(queue);
    }
    return found.length === 0 ? null : found.join(' ');
  }
}
