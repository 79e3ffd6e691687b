// The capture side of the language server: a session registry over the storage folder
// the client passes (initializationOptions.storageDir, or --storage <dir>, or a default
// under the user's state directory for standalone use), its requests and notifications.
import { homedir } from 'node:os';
import path from 'node:path';
import { MessageType, ShowMessageNotification, type Connection } from 'vscode-languageserver';
import { SessionRegistry } from '../capture/sessionRegistry';
import { realSourceFactories } from '../capture/sourceFactories';
import { registerRequests, requestHandlers } from './requestTable';
import { notify } from './typedRequests';
import { withoutLinks } from '../core/plainText';
import type { RetentionLimits } from '../capture/retention';
import type { OpenConfigStageIds } from '../capture/deployConfigMatch';
import type { SessionInfo } from '../protocol';

export function defaultStorageDir(argv: readonly string[] = process.argv): string {
  const i = argv.indexOf('--storage');
  if (i >= 0 && argv[i + 1] !== undefined) return path.resolve(argv[i + 1]);
  const state = process.env['XDG_STATE_HOME'] ?? path.join(homedir(), '.local', 'state');
  return path.join(state, 'stage-lens');
}

export function storageDirFrom(initializationOptions: unknown): string {
  if (
    typeof initializationOptions === 'object' &&
    initializationOptions !== null &&
    'storageDir' in initializationOptions
  ) {
    const dir = (initializationOptions as { storageDir: unknown }).storageDir;
    if (typeof dir === 'string' && dir !== '') return dir;
  }
  return defaultStorageDir();
}

export function startSessionBackend(
  connection: Connection,
  storageDir: string,
  onSessionChanged?: (info: SessionInfo) => void,
  retention?: RetentionLimits,
  openStageIds?: OpenConfigStageIds,
): SessionRegistry {
  const registry = new SessionRegistry(
    storageDir,
    realSourceFactories((progress) => notify(connection, 'stageLens/importProgress', progress)),
    {
      sessionChanged: (session) => {
        notify(connection, 'stageLens/sessionChanged', { session });
        onSessionChanged?.(session);
      },
      rawOutput: (sessionId, stream, text) => notify(connection, 'stageLens/rawOutput', { sessionId, stream, text }),
      storageProblem: (problem) => {
        connection.console.warn(`Stage Lens: ${problem.path}: ${problem.message}`);
        // A notification (window/showMessage), not a request: nothing to answer, nothing to fail.
        // VS Code draws `[label](target)` in it as a link; the problem quotes file text and paths.
        void connection.sendNotification(ShowMessageNotification.type, {
          type: MessageType.Warning,
          message: withoutLinks(`Stage Lens: ${problem.message} (${problem.path})`),
        });
      },
    },
  );
  registerRequests(connection, requestHandlers(registry, openStageIds));
  registry.onSessionsRemoved((sessionIds) => notify(connection, 'stageLens/sessionsRemoved', { sessionIds }));
  // The client's limits before the saved sessions are read: retention applies as they load.
  if (retention !== undefined) registry.setRetention(retention);
  // Listed from their metadata only: a saved session is replayed when it is opened.
  const listed = registry.loadSaved();
  connection.console.info(`Stage Lens: ${listed.length} saved session(s) in ${storageDir}`);
  connection.onShutdown(() => registry.dispose());
  return registry;
}
