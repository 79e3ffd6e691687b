// Retention over the connection: the client sets the limits (its settings) with
// stageLens/setRetention whenever they change, and hears which saved sessions were
// deleted (stageLens/sessionsRemoved), so its session list does not name deleted ones.
import type { Connection } from 'vscode-languageserver';
import { retentionFrom } from '../capture/retention';
import type { SessionRegistry } from '../capture/sessionRegistry';
import { handle, notify } from './typedRequests';

export function registerRetentionRequests(connection: Connection, registry: SessionRegistry): void {
  registry.onSessionsRemoved((sessionIds) => notify(connection, 'stageLens/sessionsRemoved', { sessionIds }));
  handle(connection, 'stageLens/setRetention', (p) => ({ removed: registry.setRetention(retentionFrom(p, registry.retentionLimits)) }));
}

/** initializationOptions.retention, when the client sent it. */
export function retentionOption(initializationOptions: unknown): ReturnType<typeof retentionFrom> {
  const options = typeof initializationOptions === 'object' && initializationOptions !== null ? (initializationOptions as Record<string, unknown>)['retention'] : undefined;
  return retentionFrom(options);
}
