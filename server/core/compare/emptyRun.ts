// A run that holds nothing to compare (no request read, no /metrics histogram): compared
// with it every metric is "one run only", no rule can be evaluated, and a CI gate that
// took that for a pass would pass on a broken or empty capture. Said, with why.
import { unreadableInputFinding } from '../analysis/unreadableInput';
import type { RunData } from './types';
import { noRequestStatsWhy } from './noRequestStats';

/** Why `run` holds nothing to compare, or null when it holds requests or histograms. */
export function emptyRunReason(run: RunData): string | null {
  if ((run.histograms?.length ?? 0) > 0) return null;
  if (run.samples !== null && run.samples.requestCount > 0) return null;
  const unreadable = run.samples === null ? undefined : unreadableInputFinding(run.samples.findings);
  if (unreadable !== undefined) return unreadable.message;
  if (run.samples === null && run.histograms !== null) return 'a /metrics scrape with no histogram series';
  if (run.samples === null) return 'neither a captured log nor a /metrics scrape';
  return `0 requests read: ${noRequestStatsWhy(run.samples)}`;
}
