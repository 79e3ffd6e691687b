// Logs in vLLM-Omni's format before February 2026 (vllm-omni#891): pprinted dicts
// (request_level_metrics, [Summary], ...) instead of the stats tables. The parser recognises
// them but the analysis takes no request from them, so without this finding a JSON or editor
// user could not tell such a log from an empty one.
import { countOf } from '../numberText';
import type { Finding } from './types';

export const LEGACY_STATS_FIX =
  'a current vLLM-Omni prints [StageRequestStats] tables with --log-stats at VLLM_LOGGING_LEVEL=DEBUG';

/** The finding for `dicts` legacy stats dicts in a log that gave `requests` requests; null without dicts. */
export function legacyStatsFinding(dicts: number, requests: number): Finding | null {
  if (dicts === 0) return null;
  return {
    code: 'legacy-stats-format',
    severity: requests === 0 ? 'warning' : 'info',
    stageId: null,
    requestIds: [],
    requestCount: 0,
    message: `The log has ${countOf(dicts, 'stats dict')} in vLLM-Omni's format before February 2026 (request_level_metrics and [Summary] dicts, printed at INFO, without a phase split): they are recognised, but no request, stage or number is taken from them. For a phase split, ${LEGACY_STATS_FIX}.`,
  };
}

/** One line for outputs without findings (the CSV); null when the log gave requests or had no dicts. */
export function legacyStatsNote(dicts: number, requests: number): string | null {
  if (dicts === 0 || requests > 0) return null;
  return `no requests: the input has ${countOf(dicts, 'stats dict')} in vLLM-Omni's format before February 2026 (recognised, not analyzed); ${LEGACY_STATS_FIX}`;
}
