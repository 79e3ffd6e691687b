// A tailed or imported log names the deploy config its server loaded, but that path is not a
// deploy config on this machine (a log copied from a server): the server ties nothing, and here
// a workspace file of the same name is offered in a notification, tied only when the user
// clicks it. A file of the same name may be another config, so nothing is tied unasked.
import * as vscode from 'vscode';
import type { StageLensClient } from '../client';
import type { SessionInfo } from '../../server/protocol';
import { showSessionInConfig } from './matchDeployConfig';

/** The last segment of a path from any machine, / or \ separated. */
const fileName = (p: string): string => p.slice(Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\')) + 1);

/** The workspace's files named `name` (a YAML name only: no glob is built from log text). */
async function workspaceFilesNamed(name: string): Promise<vscode.Uri[]> {
  if (!/\.ya?ml$/i.test(name)) return [];
  const yaml = await vscode.workspace.findFiles('**/*.{yaml,yml}', '**/node_modules/**', 5000);
  return yaml.filter((uri) => fileName(uri.fsPath) === name);
}

/** Offers the workspace file named as the deploy config `session`'s log names, when the server tied none. */
async function offer(client: StageLensClient, session: SessionInfo, logged: string): Promise<void> {
  const name = fileName(logged);
  const candidates = await workspaceFilesNamed(name);
  if (candidates.length === 0) return;
  const only = candidates.length === 1 ? candidates[0] : undefined;
  const button = only === undefined ? 'Choose a File...' : `Show Numbers in ${vscode.workspace.asRelativePath(only)}`;
  const choice = await vscode.window.showInformationMessage(
    `Stage Lens: ${session.title} names the deploy config ${logged}, which is not on this machine. ${
      only === undefined
        ? `The workspace has ${candidates.length} files named ${name}: show its numbers in one of them?`
        : `Show its numbers in ${vscode.workspace.asRelativePath(only)}, a file of that name?`
    }`,
    button,
  );
  if (choice !== button) return;
  const file =
    only ??
    (
      await vscode.window.showQuickPick(
        candidates.map((uri) => ({ label: vscode.workspace.asRelativePath(uri), uri })),
        { title: `Stage Lens: show the numbers of ${session.title} in` },
      )
    )?.uri;
  if (file === undefined) return;
  const current = client.allSessions().find((s) => s.id === session.id) ?? session;
  await showSessionInConfig(client, current, file);
}

/**
 * Watches a new tail or import session until its log names a deploy config (or it ends), and
 * offers a workspace file of that name if the server did not tie the one named.
 */
export function offerLoggedDeployConfig(client: StageLensClient, sessionId: string): void {
  let done = false;
  const check = (s: SessionInfo): void => {
    if (done || s.id !== sessionId) return;
    const ended = s.status !== 'running' && s.status !== 'starting';
    if (s.loggedDeployConfig === undefined && !ended) return;
    done = true;
    sub.dispose();
    if (s.loggedDeployConfig !== undefined && s.deployConfig === null) void offer(client, s, s.loggedDeployConfig);
  };
  const sub = client.onDidUpdateSession(check);
  const now = client.allSessions().find((s) => s.id === sessionId);
  if (now !== undefined) check(now);
}
