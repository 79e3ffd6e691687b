// The session a deploy config file shows (server/core/deployConfigSession.ts chooses among the
// sessions tied to it), paths compared resolved: the extension may resolve paths, the core may not.
import * as path from 'node:path';
import type { SessionInfo } from '../../server/protocol';
import { sessionForDeployConfig } from '../../server/shared';

export function sessionShownIn(sessions: readonly SessionInfo[], file: string): SessionInfo | undefined {
  const resolved = path.resolve(file);
  return sessionForDeployConfig(sessions, (tied) => path.resolve(tied) === resolved);
}
