// How a view's header names a session. A launched command is shown with its absolute
// paths cut to file names (`node cli.js simulate …`, `--deploy-config qwen3_tts.yaml`):
// the header has room for a few words, and the full command line is its tooltip. DOM-free.
import type { SessionInfo } from '../../server/protocol';

const ABSOLUTE_PATH = /^\/(?:[^/\s]+\/)*([^/\s]+)$/;

export function sessionTitle(session: Pick<SessionInfo, 'kind' | 'description'>): string {
  if (session.kind !== 'launch') return session.description;
  return session.description
    .split(' ')
    .map((token) => ABSOLUTE_PATH.exec(token)?.[1] ?? token)
    .join(' ');
}
