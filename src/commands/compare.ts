// Compare Sessions...: pick a baseline and a candidate (a session, or a log / scrape /
// saved session folder on disk) and open the comparison panel. With arguments (tests,
// other commands) the pickers are skipped.
import * as vscode from 'vscode';
import type { StageLensClient } from '../client';
import type { CompareRunName, CompareTarget, SessionInfo } from '../../server/protocol';
import { runNameOfPath, runNameOfSession } from '../../server/shared';
import type { ComparePanel, ShownComparison } from '../views/comparePanel';
import { sessionPickDescription } from '../sessionPickText';

export interface CompareArgs {
  readonly baseline: CompareTarget;
  readonly candidate: CompareTarget;
  readonly excludeCold?: boolean;
}

type Pick = vscode.QuickPickItem & { readonly target: CompareTarget | 'file' };

function sessionItem(s: SessionInfo): Pick {
  return {
    target: { sessionId: s.id },
    label: s.title,
    description: sessionPickDescription(s),
    detail: s.description,
  };
}

async function pickTarget(
  sessions: readonly SessionInfo[],
  step: string,
  exclude: CompareTarget | null,
): Promise<CompareTarget | undefined> {
  const items: Pick[] = [
    ...sessions
      .filter((s) => exclude === null || !('sessionId' in exclude) || exclude.sessionId !== s.id)
      .map(sessionItem),
    {
      target: 'file',
      label: '$(file) Choose a file or folder…',
      detail: 'A server log, a /metrics scrape, or a saved session folder',
    },
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: `Stage Lens: compare (${step})`,
    placeHolder: step.startsWith('1') ? 'The baseline: the run to compare against' : 'The candidate: the run to judge',
    matchOnDetail: true,
  });
  if (picked === undefined) return undefined;
  if (picked.target !== 'file') return picked.target;
  const uris = await vscode.window.showOpenDialog({
    title: `Stage Lens: compare (${step})`,
    canSelectFiles: true,
    canSelectFolders: true,
    canSelectMany: false,
    openLabel: step.startsWith('1') ? 'Baseline' : 'Candidate',
  });
  const uri = uris?.[0];
  return uri === undefined ? undefined : { path: uri.fsPath };
}

function nameOf(target: CompareTarget, sessions: readonly SessionInfo[]): CompareRunName {
  if ('path' in target) return runNameOfPath(target.path);
  const session = sessions.find((s) => s.id === target.sessionId);
  return session === undefined
    ? { name: target.sessionId, imported: false, detail: target.sessionId }
    : runNameOfSession(session);
}

/** Runs the comparison in the panel; resolves with what was compared and drawn (undefined when a picker was cancelled). */
export async function compareSessions(
  client: StageLensClient,
  panel: ComparePanel,
  args?: CompareArgs,
): Promise<ShownComparison | undefined> {
  const sessions = await client.refreshSessions();
  let baseline = args?.baseline;
  let candidate = args?.candidate;
  if (baseline === undefined) baseline = await pickTarget(sessions, '1/2: baseline', null);
  if (baseline === undefined) return undefined;
  if (candidate === undefined) candidate = await pickTarget(sessions, '2/2: candidate', baseline);
  if (candidate === undefined) return undefined;
  return panel.show(
    { baseline, candidate, excludeCold: args?.excludeCold === true },
    { baseline: nameOf(baseline, sessions), candidate: nameOf(candidate, sessions) },
  );
}
