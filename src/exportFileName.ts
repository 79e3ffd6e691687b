// The file name an export suggests: the session's title made file-safe, so a folder of
// exports reads by model, deploy file and time rather than by session ids. No vscode runtime.
import type { SessionInfo } from '../server/protocol';

export function exportFileName(session: Pick<SessionInfo, 'title' | 'id'>, suffix: string): string {
  const slug = session.title
    .replace(/\.ya?ml\b/g, '')
    .replace(/[^\w.]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 120);
  return `stage-lens-${slug === '' ? session.id : slug}${suffix}`;
}
