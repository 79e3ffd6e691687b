// What the status bar item says of the session on screen: requests seen, one headline latency,
// an error state, whether its numbers are current, and whether they are of a partial log (gzip
// data that broke off). The numbers come from the language server's summary; when the last one
// asked did not come (the server busy, restarting or gone, the session gone), the item keeps the
// last numbers it had and says they are not current, with the reason in its tooltip. When the
// session's server boots served different pipelines, a p50 over all of them describes none: the
// headline is the last boot's (what the server serves now), said so, and the tooltip names the
// boots. No vscode runtime (unit-tested in Node).
import type { SessionInfo, SummaryResult } from '../server/protocol';
import {
  partialLogMark,
  partialLogText,
  pipelinesDiffer,
  pipelinesText,
  stageRolesOfSession,
  type ViewBoots,
} from '../server/shared';
import { headlineWords, statusBarWords, statusWords, waitingForFirstRequest } from '../webview/shared/sessionStatus';

export interface StatusBarView {
  /** With its codicon. */
  readonly text: string;
  /** Read out (no icon name). */
  readonly label: string;
  readonly tooltip: string;
  /** The item's background: an error colour for a failed session, a warning one for numbers that are not current. */
  readonly tone: 'error' | 'warning' | null;
}

/**
 * `summary`: the last one the server gave for this session (null: none yet); `outage`: why the
 * last one asked did not come, or null when it did; `lastBoot`: the summary of the session's
 * last boot with requests, asked when its boots served different pipelines (null: not come).
 */
export function statusBarView(
  session: SessionInfo,
  summary: SummaryResult | null,
  outage: string | null,
  lastBoot: SummaryResult | null = null,
): StatusBarView {
  const boots = summary?.boots;
  // Boots of different pipelines: a p50 over all of them describes none, the last boot's is what the server serves now.
  const headlineBoot = pipelinesDiffer(boots) ? lastBootOf(boots) : null;
  const bootSummary = headlineBoot !== null && lastBoot?.boots?.selected === headlineBoot.boot ? lastBoot : null;
  // The session's stage roles name the figure as the side panel and explain name it ("1st audio").
  const roles = stageRolesOfSession(session);
  const words = statusBarWords(
    session,
    summary,
    headlineBoot === null ? undefined : { boot: headlineBoot.boot, summary: bootSummary },
    roles,
  );
  const figure = headlineWords(headlineBoot === null ? summary : bootSummary, roles);
  const failed = session.status === 'error' || session.status === 'crashed' || session.lastError !== null;
  const live = session.status === 'running' || session.status === 'starting';
  const icon = failed || outage !== null ? '$(warning)' : live ? '$(pulse)' : '$(history)';
  // A log whose gzip data broke off: its numbers are of the part before the break, said beside them.
  const damage = session.gzipDamaged ?? null;
  const partial = damage === null ? '' : ' · partial';
  return {
    text: `${icon} ${words.text}${partial}${outage === null ? '' : ' · not current'}`,
    label: [
      words.label,
      damage === null ? '' : `, ${partialLogMark(damage.logBytes)}`,
      outage === null ? '' : ', not current: the language server is not answering',
    ].join(''),
    tooltip: [
      `Stage Lens: ${session.title}`,
      `${statusWords(session)} · ${session.description}`,
      // "1st audio" in full, in the words of the side panel's trend and explain.
      figure?.short == null ? '' : `${figure.short}: ${figure.name}`,
      damage === null ? '' : partialLogText(damage.logBytes),
      waitingForFirstRequest(session)
        ? 'Waiting for the first request: a request shows once the server prints its stats, when it finishes.'
        : '',
      session.lastError === null ? '' : `Error: ${session.lastError}`,
      outage === null
        ? ''
        : `Not current: the language server is not answering (${outage}); these are the last numbers it gave.`,
      pipelinesDiffer(boots) && headlineBoot !== null ? bootsTooltip(boots, headlineBoot, bootSummary !== null) : '',
      'Click to open Latency Details.',
    ]
      .filter((l) => l !== '')
      .join('\n'),
    tone: failed ? 'error' : outage !== null ? 'warning' : null,
  };
}

/** The last boot with requests: the server's pipeline now. */
function lastBootOf(boots: ViewBoots): ViewBoots['boots'][number] | null {
  return boots.boots[boots.boots.length - 1] ?? null;
}

/** The boots' pipelines, and whose latency the item shows. */
function bootsTooltip(boots: ViewBoots, shown: ViewBoots['boots'][number], came: boolean): string {
  const whose = came
    ? `The latency is boot ${shown.boot}'s, the last boot with requests (${shown.requests} of ${boots.boots.reduce((n, b) => n + b.requests, 0)} requests):`
    : `No latency until boot ${shown.boot}'s (the last boot with requests) comes:`;
  return `${pipelinesText(boots)}\n${whose} one over every boot would mix their pipelines. Pick a boot in the side panel or Latency Details.`;
}
