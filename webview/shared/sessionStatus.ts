// A session's status in words for its kind: an import that read its file to the end is
// "imported", not "exited" (a process exits; a file does not). DOM-free; used by the
// webviews and the extension (quick picks, status bar).
import type { SessionInfo } from '../../server/protocol';

export function statusWords(session: Pick<SessionInfo, 'kind' | 'status' | 'exit'>): string {
  if (session.kind === 'import') {
    if (session.status === 'running' || session.status === 'starting') return 'importing';
    if (session.status === 'exited') return 'imported';
    if (session.status === 'stopped') return 'import stopped';
  }
  // An ended process says how: exit code or signal.
  const exit = session.exit;
  if (exit !== null && (session.status === 'crashed' || session.status === 'exited')) {
    return `${session.status} (${exit.signal !== null ? `signal ${exit.signal}` : `exit code ${exit.code ?? '?'}`})`;
  }
  return session.status;
}
