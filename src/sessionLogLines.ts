// What the Output channel says about a session as it changes: that it began (what it reads),
// each change of status with what it had read by then, and each new error. A session's
// request count alone changes often and is not logged. A name or error from a file or a process
// is one line here (its control characters shown as symbols). Free of the VS Code API (unit-tested).
import type { SessionInfo } from '../server/protocol';
import { statusWords } from '../webview/shared/sessionStatus';
import { countOf, withVisibleControls } from '../server/shared';

export interface SessionLogLine {
  readonly level: 'info' | 'warn' | 'error';
  readonly text: string;
}

type Logged = Pick<
  SessionInfo,
  'title' | 'description' | 'kind' | 'status' | 'exit' | 'lastError' | 'requestCount' | 'problemCount'
>;

function counts(session: Logged): string {
  const requests = countOf(session.requestCount, 'request');
  if (session.problemCount === 0) return requests;
  return `${requests}, ${countOf(session.problemCount, 'input problem')}`;
}

function ended(session: Logged): boolean {
  return session.status === 'crashed' || session.status === 'error';
}

/** The lines to log for `now`, given the same session as last logged (undefined: not seen before). */
export function sessionLogLines(previous: Logged | undefined, now: Logged): SessionLogLine[] {
  const lines: SessionLogLine[] = [];
  const status = statusWords(now);
  const title = withVisibleControls(now.title);
  if (previous === undefined)
    lines.push({ level: 'info', text: `session ${title}: ${withVisibleControls(now.description)} (${status})` });
  else if (statusWords(previous) !== status)
    lines.push({
      level: ended(now) ? 'error' : 'info',
      text: `session ${title}: ${status}, ${counts(now)}`,
    });
  if (now.lastError !== null && now.lastError !== previous?.lastError)
    // A source's error while it still runs (a scrape before the server listens) is a warning; one that ended it, an error.
    lines.push({
      level: ended(now) ? 'error' : 'warn',
      text: `session ${title}: ${withVisibleControls(now.lastError)}`,
    });
  return lines;
}
