// A request's preprocessing before its first stage: the `input_preprocess_time_ms` of the
// [Overall Summary] printed with it alone (3 decimals), else [OmniTiming]'s `preprocess=` (10 ms
// steps). The stages are placed after it: the breakdown's parts, the waterfall and the trace
// put a stage without a measured position at the same place.
import { numberOf } from '../values';
import type { AnalyzedRequest } from './types';

/** How [OmniTiming] prints its times (its `preprocess=`, a stage's time). */
export const OMNI_TIMING_SECONDS = 'printed by [OmniTiming] in seconds with 2 decimals (10 ms resolution)';

/** The preprocessing time with where it was read, or null when neither record printed it. */
export function preprocessOf(request: AnalyzedRequest): { ms: number; note: string } | null {
  const summary = request.overallSummary?.fields ?? null;
  if (summary !== null && numberOf(summary, 'e2e_requests') === 1) {
    const ms = numberOf(summary, 'input_preprocess_time_ms');
    if (ms !== undefined)
      return { ms, note: 'input_preprocess_time_ms of the [Overall Summary] printed with this request' };
  }
  const s = request.timing?.preprocessS ?? null;
  return s === null ? null : { ms: s * 1000, note: `preprocess ${OMNI_TIMING_SECONDS}` };
}
