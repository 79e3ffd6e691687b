// A session's stage roles, from its deploy file and its source (server/core/stageRoles.ts; the
// CLI names stages from the file it reads the same way).
import type { SessionInfo } from '../server/protocol';
import { stageRolesOfSession } from '../server/shared';

export function stageRoleNames(session: SessionInfo): Readonly<Record<string, string>> {
  return stageRolesOfSession(session);
}
