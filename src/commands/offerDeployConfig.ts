// Ties offered for a tailed or imported log, never made unasked. The log names the deploy config
// its server loaded, but that path is not a deploy config on this machine (a log copied from a
// server): a workspace file of the same name is offered (it may be another config of that name).
// The log names none, and a deploy YAML was on screen when it was opened: once its stages are
// known and fit that YAML's, and no session shows its numbers there yet, that YAML is offered
// (the user opened it to read the log against it; another pipeline's YAML is not).
import * as vscode from 'vscode';
import { showInformation } from '../notify';
import { showPick } from '../quickPick';
import type { StageLensClient } from '../client';
import type { SessionInfo } from '../../server/protocol';
import { showSessionInConfig } from './matchDeployConfig';
import { mayBeDeployConfig } from '../../server/shared';
import { sessionShownIn } from './sessionShownIn';

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
  const choice = await showInformation(
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
      await showPick(
        candidates.map((uri) => ({ label: vscode.workspace.asRelativePath(uri), uri })),
        { title: `Stage Lens: show the numbers of ${session.title} in` },
      )
    )?.uri;
  if (file === undefined) return;
  const current = client.allSessions().find((s) => s.id === session.id) ?? session;
  await showSessionInConfig(client, current, file);
}

/** The deploy YAML the user is looking at: the active editor's, else the one visible editor's; undefined when none or several. */
export function deployConfigOnScreen(): vscode.Uri | undefined {
  const isDeployConfig = (d: vscode.TextDocument): boolean =>
    d.uri.scheme === 'file' && d.languageId === 'yaml' && mayBeDeployConfig(d.getText());
  const active = vscode.window.activeTextEditor?.document;
  if (active !== undefined && isDeployConfig(active)) return active.uri;
  const visible = new Map<string, vscode.Uri>();
  for (const e of vscode.window.visibleTextEditors)
    if (isDeployConfig(e.document)) visible.set(e.document.uri.toString(), e.document.uri);
  return visible.size === 1 ? [...visible.values()][0] : undefined;
}

/** Offers the deploy YAML that was on screen when the log was opened, when `session`'s stages fit it and it shows no session. */
async function offerOnScreen(client: StageLensClient, session: SessionInfo, file: vscode.Uri): Promise<void> {
  if (sessionShownIn(client.allSessions(), file.fsPath) !== undefined) return;
  const fit = await client
    .request('stageLens/deployConfigFit', { sessionId: session.id, deployConfig: file.fsPath })
    .catch(() => null);
  if (fit === null || fit.stageMismatch !== null) return;
  const name = vscode.workspace.asRelativePath(file);
  const button = `Show Numbers in ${name}`;
  const choice = await showInformation(
    `Stage Lens: ${session.title} has the stages of ${name}, open in the editor. Show its numbers there?`,
    button,
  );
  if (choice !== button) return;
  const current = client.allSessions().find((s) => s.id === session.id) ?? session;
  if (current.deployConfig === null) await showSessionInConfig(client, current, file);
}

/**
 * Watches a new tail or import session until its log names a deploy config (or it ends), and
 * offers a workspace file of that name if the server did not tie the one named. A log that names
 * none: once a tail has a request, or an import has ended with some, offers `onScreen` (the deploy
 * YAML on screen when the log was opened) if the stages fit it.
 */
export function offerDeployConfig(client: StageLensClient, sessionId: string, onScreen?: vscode.Uri): void {
  let done = false;
  const check = (s: SessionInfo): void => {
    if (done || s.id !== sessionId) return;
    const ended = s.status !== 'running' && s.status !== 'starting';
    // An import's offer waits for its end: a notification over its progress would be read before the numbers.
    const stagesKnown = s.requestCount > 0 && (ended || s.kind !== 'import');
    if (s.loggedDeployConfig === undefined && !ended && !(stagesKnown && onScreen !== undefined)) return;
    done = true;
    sub.dispose();
    if (s.deployConfig !== null) return;
    if (s.loggedDeployConfig !== undefined) void offer(client, s, s.loggedDeployConfig);
    else if (onScreen !== undefined && s.requestCount > 0) void offerOnScreen(client, s, onScreen);
  };
  const sub = client.onDidUpdateSession(check);
  const now = client.allSessions().find((s) => s.id === sessionId);
  if (now !== undefined) check(now);
}
