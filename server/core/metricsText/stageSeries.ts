// The per-stage latency families the known-lie signatures read (codecTtftSignature.ts,
// oneOutputSignature.ts), and a family's histogram series by their labels.
import { labelsKey } from './labels';
import type { HistogramSeries, ParsedExposition } from './model';
import { findFamily } from './metricNames';

export const TTFT_FAMILY = 'vllm:time_to_first_token_seconds';
/** The inter-token latency, under its newer name first. */
export const ITL_FAMILIES: readonly string[] = [
  'vllm:inter_token_latency_seconds',
  'vllm:time_per_output_token_seconds',
];
export const PREFILL_FAMILY = 'vllm:request_prefill_time_seconds';
export const DECODE_FAMILY = 'vllm:request_decode_time_seconds';
/** A request's mean time per output token: its decode time over its tokens, so as wrong as the decode time. */
export const REQUEST_TPOT_FAMILY = 'vllm:request_time_per_output_token_seconds';

/** The histogram series of family `name` by their labels' key; empty when the family is absent or no histogram. */
export function seriesByLabels(exposition: ParsedExposition, name: string): Map<string, HistogramSeries> {
  const map = new Map<string, HistogramSeries>();
  const family = findFamily(exposition, name);
  if (family?.type !== 'histogram') return map;
  for (const series of family.series) map.set(labelsKey(series.labels), series);
  return map;
}

/** The inter-token latency series of the first ITL family the scrape has. */
export function itlSeries(exposition: ParsedExposition): Map<string, HistogramSeries> {
  for (const name of ITL_FAMILIES) {
    const map = seriesByLabels(exposition, name);
    if (map.size > 0) return map;
  }
  return new Map();
}
