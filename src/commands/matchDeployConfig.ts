// "Show This Session's Numbers in This Deploy Config...": the explicit match between a deploy
// YAML and a session, whose numbers then show after each stage_id. A session whose stages are
// not the config's (another pipeline) is matched only after a modal warning the user answers
// with "Show Anyway"; a cancelled or refused pick changes nothing, so no session is renamed.
import * as vscode from 'vscode';
import { showInformation, showWarning } from '../notify';
import type { StageLensClient } from '../client';
import type { MatchDeployConfigResult, SessionInfo } from '../../server/protocol';
import { pickSession } from './sessions';

export const SHOW_ANYWAY = 'Show Anyway';

function matchedMessage(result: Extract<MatchDeployConfigResult, { matched: true }>, name: string): string {
  // Only the session the file showed until now, not every other one matched to it.
  const instead = result.shownBefore === null ? '' : ` (instead of ${result.shownBefore.title})`;
  return `Stage Lens: ${name} shows the numbers of ${result.session.title}${instead}.`;
}

/** Resolves with the session matched, or undefined when nothing changed. */
export async function useSessionForConfig(client: StageLensClient, uri?: vscode.Uri): Promise<SessionInfo | undefined> {
  const file = uri ?? vscode.window.activeTextEditor?.document.uri;
  if (file === undefined) return undefined;
  const name = vscode.workspace.asRelativePath(file);
  const s = await pickSession(client, `Stage Lens: show which session's numbers in ${name}?`);
  if (s === undefined) return undefined;
  return showSessionInConfig(client, s, file);
}

/** Matches `s` to the deploy config `file`, after the warning when their stages differ; the session matched, or undefined. */
export async function showSessionInConfig(
  client: StageLensClient,
  s: SessionInfo,
  file: vscode.Uri,
): Promise<SessionInfo | undefined> {
  const name = vscode.workspace.asRelativePath(file);
  const params = { sessionId: s.id, deployConfig: file.fsPath };
  let result = await client.request('stageLens/matchDeployConfig', params);
  if (!result.matched) {
    const choice = await showWarning(
      `Stage Lens: the stages of ${s.title} are not those of ${name}.`,
      { modal: true, detail: result.stageMismatch.message },
      SHOW_ANYWAY,
    );
    if (choice !== SHOW_ANYWAY) return undefined;
    result = await client.request('stageLens/matchDeployConfig', { ...params, acceptStageMismatch: true });
    if (!result.matched) return undefined;
  }
  void showInformation(matchedMessage(result, name));
  return result.session;
}
