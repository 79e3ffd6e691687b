// How many requests a /metrics scrape has seen: the count of a histogram the server observes
// once per finished request (e2e latency, else TTFT, queue, prefill, decode, gen time), never
// of a per-token one (ITL, TPOT count tokens). Also whether a session reads /metrics only, with
// no per-request log. DOM-free; used by the side panel, Latency Details and the status bar.
import type { HistogramSummary, SessionInfo } from '../../server/protocol';
import { countOf } from '../../server/shared';

/** Families observed once per finished request, in the order a count is taken from. */
export const PER_REQUEST_FAMILIES: readonly string[] = [
  'vllm:e2e_request_latency_seconds',
  'vllm:time_to_first_token_seconds',
  'vllm:request_queue_time_seconds',
  'vllm:request_prefill_time_seconds',
  'vllm:request_decode_time_seconds',
  'vllm_omni:stage_gen_time_s',
];

export interface ScrapeRequestCount {
  readonly count: number;
  /** The family counted. */
  readonly family: string;
}

/** One series set's (a stage, a replica) request count: the first per-request family with a usable count. */
export function scrapeRequestCount(series: ReadonlyMap<string, HistogramSummary>): ScrapeRequestCount | null {
  for (const family of PER_REQUEST_FAMILIES) {
    const s = series.get(family);
    // A series known to lie (a codec TTFT stuck at 0) counts nothing.
    if (s === undefined || s.count === null || (s.caveat ?? null) !== null) continue;
    return { count: s.count, family };
  }
  return null;
}

/**
 * The server's requests in a scrape: per stage, its replicas' counts added (each from the
 * stage's first usable per-request family); the stage that counts most (every request passes
 * the first stage; a later one may not have finished them all). Null when no such family is exposed.
 */
export function scrapeRequestTotal(histograms: readonly HistogramSummary[]): ScrapeRequestCount | null {
  const stages = new Map<string, HistogramSummary[]>();
  for (const h of histograms) {
    const stage = h.labels['stage'] ?? '';
    const list = stages.get(stage);
    if (list === undefined) stages.set(stage, [h]);
    else list.push(h);
  }
  let best: ScrapeRequestCount | null = null;
  for (const series of stages.values()) {
    const byFamily = new Map<string, HistogramSummary[]>();
    for (const s of series) {
      const list = byFamily.get(s.family);
      if (list === undefined) byFamily.set(s.family, [s]);
      else list.push(s);
    }
    for (const family of PER_REQUEST_FAMILIES) {
      const list = byFamily.get(family) ?? [];
      if (list.length === 0 || list.some((s) => s.count === null || (s.caveat ?? null) !== null)) continue;
      const count = list.reduce((sum, s) => sum + (s.count ?? 0), 0);
      if (best === null || count > best.count) best = { count, family };
      break;
    }
  }
  return best;
}

/** A session of /metrics alone (Attach to Metrics URL, an imported scrape): no per-request log. */
export function metricsOnly(session: Pick<SessionInfo, 'kind' | 'importedScrape'>): boolean {
  return session.kind === 'scrape' || session.importedScrape === true;
}

/** What the views say instead of waiting for a request that a /metrics-only session never gets. */
export const METRICS_ONLY_TEXT =
  "This session has only the server's /metrics: it has no per-request log, so no per-request table, headline or request list. What it has: the server's histograms, per stage in the side panel's From /metrics table (bucket estimates since the server started), and its gauges (running, waiting, KV cache) in Latency Details → Over Time. For per-request numbers, attach to or import the server's log instead.";

/** `129 requests in /metrics`, or null when no per-request family is exposed. */
export function scrapeCountText(histograms: readonly HistogramSummary[]): string | null {
  const total = scrapeRequestTotal(histograms);
  if (total === null) return null;
  return `${countOf(total.count, 'request')} in /metrics`;
}
