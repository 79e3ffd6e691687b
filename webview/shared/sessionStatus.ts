// A session's status in words for its kind (server/core/sessionStatusWords.ts: an import that
// read its file to the end is "imported", not "exited"); its headline latency; the mark of a log
// whose gzip data broke off. DOM-free; used by the webviews and the extension (quick picks,
// status bar).
import type { SessionInfo, SummaryResult } from '../../server/protocol';
import {
  outputsAudio,
  partialLogMark,
  partialLogText,
  roleOfStage,
  statusWords,
  targetLabel,
} from '../../server/shared';
import { formatDurationMs } from './format';
import { headlineFigure } from './headlineFigure';
import { overallCountText, overallOnly, sessionCountText } from './overallOnly';
import { metricsOnly, scrapeRequestTotal } from './scrapeRequests';
import { mayStillGetRequests } from './noRequests';

export { statusWords };

/** A running session with a log and no request read yet: its first request may still come. */
export function waitingForFirstRequest(
  session: Pick<SessionInfo, 'kind' | 'importedScrape' | 'status' | 'requestCount'>,
): boolean {
  return mayStillGetRequests(session) && session.requestCount === 0 && !metricsOnly(session);
}

/**
 * One latency for the status bar, the side panel trend's figure (headlineFigure.ts) written as
 * the side panel's headline writes a duration ("96.7 ms", "2.04 s"): the time to first output p50
 * of the last stage that measured one (what a TTS or omni user waits for: "1st audio" where the
 * stage's role outputs audio, as the side panel and explain name it), else end to end p50 (an
 * INFO-level log has no stage tables), else the last stage's gen time p50, else, for a log of
 * [Overall Summary] tables only, their e2e_wall_time_ms (one table's value, or the p50 over
 * several); null before any measured value.
 */
export function statusHeadline(
  summary: Pick<SummaryResult, 'stages' | 'endToEnd' | 'overallSummaries'> | null,
  stageNames: Readonly<Record<string, string>> = {},
): string | null {
  return headlineWords(summary, stageNames)?.text ?? null;
}

/**
 * The status bar's latency, its whole name for the tooltip, `p50 time to first audio (stage 1 ·
 * code2wav)` (targetLabel's words, the side panel trend's), and the short name the text gives a
 * stage's first output (`1st audio`; null for the others); null before any measured value.
 */
export function headlineWords(
  summary: Pick<SummaryResult, 'stages' | 'endToEnd' | 'overallSummaries'> | null,
  stageNames: Readonly<Record<string, string>> = {},
): { readonly text: string; readonly name: string; readonly short: string | null } | null {
  if (summary === null) return null;
  // The side panel trend's figure (headlineFigure.ts).
  const figure = headlineFigure(summary);
  if (figure === null) return null;
  const d = figure.ms;
  switch (figure.kind) {
    case 'firstOutput': {
      const short = outputsAudio(roleOfStage(figure.stageKey, stageNames)) ? '1st audio' : '1st output';
      return {
        text: `${short} p50 ${formatDurationMs(d.p50)}`,
        short,
        name: `p50 ${targetLabel(`stage${figure.stageKey}.firstOutput`, stageNames)}`,
      };
    }
    case 'e2e':
      return { text: `e2e p50 ${formatDurationMs(d.p50)}`, name: `p50 ${targetLabel('e2e')}`, short: null };
    case 'genTime': {
      const role = roleOfStage(figure.stageKey, stageNames);
      return {
        text: `gen time p50 ${formatDurationMs(d.p50)}`,
        name: `p50 stage ${figure.stageKey} gen time${role === '' ? '' : ` (${role})`}`,
        short: null,
      };
    }
    case 'overallWall':
      return d.count === 1
        ? {
            text: `summary e2e wall ${formatDurationMs(d.max)}`,
            name: 'e2e wall time of the [Overall Summary] table',
            short: null,
          }
        : {
            text: `summary e2e wall p50 ${formatDurationMs(d.p50)} (${d.count} summaries)`,
            name: `p50 e2e wall time over ${d.count} [Overall Summary] tables`,
            short: null,
          };
  }
}

/** The one boot whose numbers stand in for the headline, and its summary (null: not come yet). */
export interface HeadlineBoot {
  readonly boot: number;
  readonly summary: Pick<SummaryResult, 'stages' | 'endToEnd' | 'overallSummaries'> | null;
}

/**
 * The status bar's words after its icon, and as read out: `12 req · <headline>`; for a session
 * of [Overall Summary] tables only, what they cover instead of its requests, which have no number.
 * With `boot`: the headline is that boot's (`12 req · boot 2: <headline>`), none until it comes.
 * `stageNames`: the session's stage roles, which name the figure (`1st audio`).
 */
export function statusBarWords(
  session: Pick<SessionInfo, 'kind' | 'importedScrape' | 'status' | 'exit' | 'requestCount'>,
  summary: Pick<SummaryResult, 'stages' | 'endToEnd' | 'overallSummaries' | 'histograms'> | null,
  boot?: HeadlineBoot,
  stageNames: Readonly<Record<string, string>> = {},
): { readonly text: string; readonly label: string } {
  const ofBoot = boot === undefined ? null : statusHeadline(boot.summary, stageNames);
  const headline =
    boot === undefined ? statusHeadline(summary, stageNames) : ofBoot === null ? null : `boot ${boot.boot}: ${ofBoot}`;
  const shown = (count: string): string => `${count}${headline === null ? '' : ` · ${headline}`}`;
  const read = (count: string): string =>
    `Stage Lens: ${statusWords(session)}, ${count}${headline === null ? '' : `, ${headline}`}`;
  const overall = overallOnly(summary);
  if (overall !== null) return { text: shown(overallCountText(overall)), label: read(overallCountText(overall)) };
  const n = session.requestCount;
  if (n === 0 && metricsOnly(session)) {
    // No log to count: the scrape's requests, from a per-request histogram.
    const scraped = summary === null ? null : scrapeRequestTotal(summary.histograms);
    if (scraped !== null)
      return { text: shown(`${scraped.count} req (/metrics)`), label: read(sessionCountText(n, summary, session)) };
  }
  return { text: shown(`${n} req`), label: read(`${n} requests`) };
}

/** The mark beside a session's numbers when its gzip data broke off (they are of the log before the break); null for a whole input. */
export function partialMark(
  session: Pick<SessionInfo, 'gzipDamaged'>,
): { readonly text: string; readonly title: string } | null {
  const damage = session.gzipDamaged;
  return damage === undefined
    ? null
    : { text: partialLogMark(damage.logBytes), title: partialLogText(damage.logBytes) };
}
