// The known lies of one scrape, per histogram series: the codec TTFT signature, a
// one-output stage's prefill/decode, a downstream stage's queue time. Shared by the scrape
// summary (per series) and the comparison (series of a stage's replicas added), so both
// mark the same series with the same words.
import { CODEC_TTFT_FAMILIES, findCodecTtftSignature } from './codecTtftSignature';
import { downstreamQueueCaveat, QUEUE_TIME_FAMILY } from './downstreamQueueTime';
import { labelsKey, withoutLabels } from './labels';
import type { Labels, ParsedExposition } from './model';
import { findOneOutputStages, ONE_OUTPUT_FAMILIES } from './oneOutputSignature';

export class SeriesCaveats {
  private readonly codec = new Map<string, string>();
  private readonly oneOutput = new Map<string, string>();

  /** `aggregatedAway`: labels a caller adds series over (replica): a stage is marked when any of its series shows a lie. */
  constructor(
    parsed: ParsedExposition,
    private readonly aggregatedAway: readonly string[] = [],
  ) {
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
    if (CODEC_TTFT_FAMILIES.has(family)) {
      const codec = this.codec.get(this.key(labels));
      if (codec !== undefined) found.push(codec);
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
