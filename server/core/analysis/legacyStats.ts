// Logs in vLLM-Omni's format before February 2026 (vllm-omni#891): pprinted dicts
// (request_level_metrics, transfer stats, [Summary], ...) instead of the stats tables. Their
// numbers are read (legacyRequests.ts), but that format has no phase split: this finding says so,
// and what prints one, wherever findings are shown. The version of log_utils.py that writes its
// records as JSON lines to files beside the log (`<log file>.overall.stats.jsonl`,
// `.orchestrator.stats.jsonl`) is said apart: those files are no log, and stats were on.
import { countOf } from '../numberText';
import { inScopeText } from './requestScope';
import type { Finding } from './types';

export const LEGACY_STATS_FIX =
  'a current vLLM-Omni (February 2026 or later) prints [StageRequestStats] tables with --log-stats at VLLM_LOGGING_LEVEL=DEBUG';

/** What the requests of that format carry. */
const READ =
  "each stage's stage_gen_time_ms and token counts, the end-to-end time (e2e_time_ms), the transfer totals and each edge's transfer_total_stats";

/** Requests whose request_level_metrics dict is read with the tables printed after it (the vllm-omni#891 branch). */
function withTablesText(withTables: number): string {
  return `${countOf(withTables, 'request')} ${withTables === 1 ? 'is' : 'are'} read from ${withTables === 1 ? 'its' : 'their'} tables and the request_level_metrics dict printed before them (vLLM-Omni PR #891's branch prints both): one request each, the tables' value kept where both print one`;
}

function whatWasRead(legacyRequests: number, withTables: number): string {
  const read: string[] = [];
  if (legacyRequests > 0)
    read.push(
      `${countOf(legacyRequests, 'request')} ${legacyRequests === 1 ? 'is' : 'are'} read from its request_level_metrics dicts (${READ}), with no queued / prefill / decode / TTFT split: that format prints none`,
    );
  if (withTables > 0) read.push(withTablesText(withTables));
  return read.length === 0
    ? 'none of them is a request_level_metrics dict, so no request is read from them'
    : read.join('; ');
}

/** Where that version writes what, so a reader of one file knows what the other holds. */
const JSON_FILES =
  "the stats files log_utils.py of vLLM-Omni before February 2026 writes beside its log when stats are on: <log file>.overall.stats.jsonl (per request each stage's stage_gen_time_ms and num_tokens_out, e2e_time_ms and the transfer totals) and <log file>.orchestrator.stats.jsonl (per request e2e_time_ms and each edge's transfer_total_stats)";

/** How the two files' records of a request are read: `joined` requests had both. */
function joinText(joined: number): string {
  return joined > 0
    ? ` (${countOf(joined, 'request')} from both files, each one's overall_request and orchestrator_request_e2e joined into one request, the overall_request's value kept where both measure one)`
    : '';
}

function jsonText(records: number, requests: number | null, joined: number): string {
  const read =
    requests === null
      ? ''
      : requests === 0
        ? ': none of them is an overall_request or orchestrator_request_e2e record, so no request is read from them'
        : `: ${countOf(requests, 'request')} ${requests === 1 ? 'is' : 'are'} read from its overall_request and orchestrator_request_e2e records${joinText(joined)}, with no queued / prefill / decode / TTFT split: that version measures none`;
  return `${countOf(records, 'JSON record')} of ${JSON_FILES}${read}`;
}

/** Where only one file's requests were read: the other file holds the rest of each request. */
const JOIN_ADVICE =
  "The two files of one run read as one input (cat <log file>.overall.stats.jsonl <log file>.orchestrator.stats.jsonl | stage-lens analyze -) give each request once, with the overall file's stage times and the orchestrator file's edges. ";

/**
 * The "Omni Metrics Summary" blocks of vllm-omni#3069 are read as dicts too, but they are no
 * older format: that pull request was closed unmerged, so only a server built from its branch
 * prints them. They are said apart, so neither kind is called the other.
 */
function unmergedText(blocks: number): string {
  return `${countOf(blocks, '"Omni Metrics Summary" block')}, the layout of vLLM-Omni PR #3069, which was closed unmerged (only a server built from that branch prints it): run totals, no request and no queued / prefill / decode / TTFT split`;
}

/**
 * What the log holds: `dicts` stats dicts, `unmerged` of them PR #3069 blocks and `json` of them
 * JSON lines; `legacyRequests` requests read from them.
 */
function holdings(
  dicts: number,
  unmerged: number,
  legacyRequests: number,
  json: number,
  joined: number,
  withTables: number,
): string {
  const older = dicts - unmerged - json;
  const parts: string[] = [];
  if (older > 0)
    parts.push(
      `${countOf(older, 'stats dict')} in vLLM-Omni's format before February 2026 (request_level_metrics, transfer and [Summary] dicts, printed at INFO): ${whatWasRead(legacyRequests, withTables)}`,
    );
  if (json > 0) parts.push(jsonText(json, older > 0 ? null : legacyRequests, joined));
  if (unmerged > 0) parts.push(unmergedText(unmerged));
  return parts.join('; and ');
}

/**
 * The finding for `dicts` legacy stats dicts (`unmerged` of them PR #3069 blocks, `json` of them
 * JSON lines), which gave `legacyRequests` of the log's `requests` requests (`joined` of them
 * from both stats files; `withTables` more read with their tables); null without dicts. A warning when no request has a phase split.
 */
export function legacyStatsFinding(
  dicts: number,
  legacyRequests: number,
  requests: number,
  unmerged = 0,
  json = 0,
  joined = 0,
  withTables = 0,
): Finding | null {
  if (dicts === 0) return null;
  const advice = json > 0 && legacyRequests > 0 && joined === 0 ? JOIN_ADVICE : '';
  return {
    code: 'legacy-stats-format',
    severity: legacyRequests >= requests ? 'warning' : 'info',
    stageId: null,
    requestIds: [],
    requestCount: 0,
    message: `The ${json === dicts ? 'input' : 'log'} has ${holdings(dicts, unmerged, legacyRequests, json, joined, withTables)}. ${advice}For a phase split, ${LEGACY_STATS_FIX}.`,
  };
}

/** Of the log's requests read from its dicts, those a view (a boot, a window) holds, with its name in words. */
export interface LegacyRequestsInScope {
  /** requestScopeWords: "boot 2", "the window". */
  readonly words: string;
  readonly legacyRequests: number;
  readonly withTables: number;
}

/**
 * One line for outputs without findings (the CSV); null when the log had no dicts. Its figures
 * are the log's; `within` a view of some of its requests, it says how many of them the view holds.
 */
export function legacyStatsNote(
  dicts: number,
  legacyRequests: number,
  unmerged = 0,
  json = 0,
  withTables = 0,
  within: LegacyRequestsInScope | null = null,
): string | null {
  if (dicts === 0) return null;
  const older = dicts - unmerged - json;
  const inView = (logRequests: number, requests: number): string =>
    within === null ? '' : ` (${inScopeText(logRequests, { words: within.words, requests })})`;
  const alone =
    legacyRequests === 0
      ? withTables > 0
        ? ''
        : 'no request_level_metrics dict, so no request'
      : `${countOf(legacyRequests, 'request')} read from them${inView(legacyRequests, within?.legacyRequests ?? 0)}, with no phase split (that format prints none: the split columns are empty)`;
  const read =
    withTables === 0
      ? alone
      : `${alone}${alone === '' ? '' : '; '}${countOf(withTables, 'request')} read from ${withTables === 1 ? 'its' : 'their'} tables and the request_level_metrics dict before them${inView(withTables, within?.withTables ?? 0)}, as one request each`;
  const parts: string[] = [];
  if (older > 0) parts.push(`${countOf(older, 'stats dict')} in vLLM-Omni's format before February 2026: ${read}`);
  if (json > 0) {
    const jsonRead =
      legacyRequests === 0 ? 'no overall_request or orchestrator_request_e2e record, so no request' : read;
    const what = `${countOf(json, 'JSON record')} of log_utils.py's stats files (vLLM-Omni before February 2026)`;
    parts.push(older > 0 ? what : `${what}: ${jsonRead}`);
  }
  if (unmerged > 0) parts.push(unmergedText(unmerged));
  return `the input has ${parts.join('; and ')}; ${LEGACY_STATS_FIX}`;
}
