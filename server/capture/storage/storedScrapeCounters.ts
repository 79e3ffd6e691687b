// The shape check of a stored scrape-counters.json: the last endpoint or imported scrape's
// preemption and speech stream counters, so that a reopened session exports what `analyze`
// prints for the same scrape. A file of another shape reads as no counters (unknown, not 0).
import { preemptionsFromJson, type PreemptionCount } from '../../core/metricsText/preemptions';
import { speechStreamsFromJson, type SpeechStreamCounts } from '../../core/metricsText/speechStreams';

export interface ScrapeCounters {
  /** null: the scrape has no vllm:num_preemptions_total family (unknown, not 0). */
  readonly preemptions: PreemptionCount[] | null;
  readonly speechStreams: SpeechStreamCounts[];
}

export const NO_SCRAPE_COUNTERS: ScrapeCounters = { preemptions: null, speechStreams: [] };

export function scrapeCountersFromJson(raw: unknown): ScrapeCounters {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return NO_SCRAPE_COUNTERS;
  const r = raw as Record<string, unknown>;
  return {
    preemptions: preemptionsFromJson(r['preemptions']),
    speechStreams: speechStreamsFromJson(r['speechStreams']),
  };
}
