// A saved session folder as the language server leaves one (its meta and the bytes it captured,
// written by server/capture/sessionFiles.ts), for the tests that give one to the CLI.
import { SessionFiles } from '../../../server/capture/sessionFiles';
import type { SessionInfo } from '../../../server/protocol';

/** When the saved capture started: 2026-10-22 09:00:00 UTC. */
export const SAVED_STARTED_AT = Date.UTC(2026, 9, 22, 9, 0, 0);

/** A stopped session's info with the fields given; no deploy config, error, exit or problem unless given. */
export function stoppedSession(
  fields: Pick<SessionInfo, 'id' | 'kind' | 'description' | 'requestCount'> & Partial<SessionInfo>,
): SessionInfo {
  return {
    startedAt: SAVED_STARTED_AT,
    status: 'stopped',
    deployConfig: null,
    lastError: null,
    exit: null,
    problemCount: 0,
    title: '',
    ...fields,
  };
}

/**
 * Writes the session folder `dir`: `info` as its meta, and `bytes` as captured from a growing
 * file in `reads` reads of equal size, a second apart. Its files, to rewrite the meta.
 */
export function writeSavedSession(dir: string, info: SessionInfo, bytes: Buffer, reads = 2): SessionFiles {
  const files = SessionFiles.atFolder(dir);
  files.writeMeta({ info });
  for (let i = 0; i < reads; i++) {
    const part = bytes.subarray(Math.floor((bytes.length * i) / reads), Math.floor((bytes.length * (i + 1)) / reads));
    files.append({ stream: 'file', bytes: part, capturedAt: SAVED_STARTED_AT + 1000 * (i + 1) });
  }
  files.close();
  return files;
}
