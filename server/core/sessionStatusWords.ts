// A session's status in words for its kind, wherever a session is named (the views' headers,
// the session pickers, the status bar, a deploy YAML's hover): an import that read its file to
// the end is "imported", not "exited" (a process exits; a file does not). Structural types: the
// core does not import the protocol.

export interface SessionState {
  readonly kind: string;
  readonly status: string;
  readonly exit: { readonly code: number | null; readonly signal: string | null } | null;
}

export function statusWords(session: SessionState): string {
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

/**
 * `title (exited, exit code 0)`: a session named with its status after it, one pair of
 * parentheses (statusWords' own, around the exit code, become a comma).
 */
export function titleWithStatus(title: string, session: SessionState): string {
  return `${title} (${statusWords(session).replace(/ \((.*)\)$/, ', $1')})`;
}
