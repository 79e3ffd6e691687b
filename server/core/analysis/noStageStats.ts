// What a finished input with no per-request stage statistics says instead of a table: the
// CLI's analyze and the views' empty states use the same words. The input's findings tell
// which case it is: not a text log at all, the older stats format, or no stats tables.
import type { FindingCode } from './types';
import { unreadableInputFinding } from './unreadableInput';

export const NO_STAGE_STATS_TEXT =
  'No per-request stage statistics found. vLLM-Omni prints them with --log-stats; its stats tables need VLLM_LOGGING_LEVEL=DEBUG.';

interface CodedFinding {
  readonly code: FindingCode;
  readonly message: string;
}

/** Why the input has no per-request stage statistics, in one sentence or two. */
export function noStageStatsText(findings: readonly CodedFinding[]): string {
  const unreadable = unreadableInputFinding(findings);
  if (unreadable !== undefined) {
    if (unreadable.code === 'input-gzip-damaged')
      return 'No per-request stage statistics before the gzip data broke off (see Findings).';
    if (unreadable.code === 'input-deploy-config')
      return 'No per-request stage statistics: the input is a deploy config (YAML), not a server log (see Findings).';
    const what = unreadable.code === 'input-compressed' ? 'a compressed file' : 'binary data';
    return `No per-request stage statistics: the input is ${what}, not a text log (see Findings).`;
  }
  const legacy = findings.find((f) => f.code === 'legacy-stats-format');
  if (legacy !== undefined) return `No per-request stage statistics in the current format. ${legacy.message}`;
  return NO_STAGE_STATS_TEXT;
}
