// The request behind "Show This Session's Numbers in This Deploy Config...": a deploy config
// shows one session's numbers, so matching a session to it takes the file from the sessions
// that had it; a session whose stage ids are not the config's is refused unless the user
// accepted that, and a refused match changes nothing (no session is renamed). The config's
// stages are those of its editor buffer when it is open (unsaved edits are what the user
// sees), else of the file on disk. The same check answers whether a session fits a config
// without matching it (a code lens's Latency Details).
import * as path from 'node:path';
import type { DeployStageMismatch, MatchDeployConfigParams, MatchDeployConfigResult, SessionInfo } from '../protocol';
import { deployStageMismatch } from '../core/deploy/stageFit';
import { stageRolesOf } from '../core/stageRoles';
import { sessionForDeployConfig } from '../core/deployConfigSession';
import { deployConfigStageIds, logStageIds } from './deployEvidence';
import type { Session } from './session';
import type { SessionRegistry } from './sessionRegistry';

/** The stage ids of the session's requests (replicas together). */
function sessionStageIds(session: Session): number[] {
  return logStageIds(session.summary(0));
}

/** The stage ids of a deploy config as open in an editor (null: not one whose stages can be told), or undefined when it is not open. */
export type OpenConfigStageIds = (deployConfig: string) => Promise<readonly number[] | null> | undefined;

const samePath = (a: string | null, b: string): boolean => a !== null && path.resolve(a) === path.resolve(b);

/**
 * Why the session's numbers do not fit the deploy config (its stage ids, or its pipeline, are
 * not the config's), or null when they fit or either side's stages are not known yet.
 */
export async function sessionConfigMismatch(
  registry: SessionRegistry,
  sessionId: string,
  file: string,
  openStageIds: OpenConfigStageIds = () => undefined,
): Promise<DeployStageMismatch | null> {
  const session = await registry.open(sessionId);
  const open = openStageIds(path.resolve(file));
  const configIds = open === undefined ? deployConfigStageIds(file) : await open;
  return configIds === null
    ? null
    : deployStageMismatch(file, configIds, stageRolesOf(path.basename(file)), {
        title: session.info.title,
        stageIds: sessionStageIds(session),
        // Named by its source alone (a log's path, a command line): its deploy file may be the wrong one.
        roles: stageRolesOf(session.info.description),
      });
}

export async function matchDeployConfig(
  registry: SessionRegistry,
  params: MatchDeployConfigParams,
  openStageIds: OpenConfigStageIds = () => undefined,
): Promise<MatchDeployConfigResult> {
  const file = params.deployConfig;
  if (file === null)
    return {
      matched: true,
      session: registry.matchDeployConfig(params.sessionId, null),
      replaced: [],
      shownBefore: null,
    };
  if (params.acceptStageMismatch !== true) {
    const mismatch = await sessionConfigMismatch(registry, params.sessionId, file, openStageIds);
    if (mismatch !== null) return { matched: false, stageMismatch: mismatch };
  }
  // What the file showed until now, by the same rule as its hints: "instead of" names only that one.
  const shown = sessionForDeployConfig(registry.list(), (f) => samePath(f, file));
  const replaced: SessionInfo[] = [];
  for (const other of registry.list())
    if (other.id !== params.sessionId && samePath(other.deployConfig, file))
      replaced.push(registry.matchDeployConfig(other.id, null));
  const session = registry.matchDeployConfig(params.sessionId, file);
  const shownBefore = shown === undefined ? null : (replaced.find((s) => s.id === shown.id) ?? null);
  return { matched: true, session, replaced, shownBefore };
}
