// Open Session..., Stop Capture, Export Session..., Use Session for This Deploy Config.
import * as vscode from 'vscode';
import type { StageLensClient } from '../client';
import type { ExportFormat, SessionInfo } from '../../server/protocol';
import { statusWords } from '../../webview/shared/sessionStatus';

function describe(s: SessionInfo): vscode.QuickPickItem & { id: string } {
  return {
    id: s.id,
    label: s.title,
    description: `${s.requestCount} requests · ${statusWords(s)}`,
    detail: s.description + (s.lastError === null ? '' : `  (error: ${s.lastError})`),
  };
}

async function pickSession(client: StageLensClient, title: string): Promise<SessionInfo | undefined> {
  const sessions = await client.refreshSessions();
  if (sessions.length === 0) {
    void vscode.window.showInformationMessage('Stage Lens has no sessions yet. Start the demo server, launch a server, or import a log.');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(sessions.map(describe), { title, matchOnDetail: true });
  return sessions.find((s) => s.id === picked?.id);
}

export async function openSession(client: StageLensClient): Promise<void> {
  const s = await pickSession(client, 'Stage Lens: open a session');
  if (s !== undefined) {
    client.setCurrent(s.id);
    await vscode.commands.executeCommand('stageLens.openLatencyView');
  }
}

export async function stopCapture(client: StageLensClient): Promise<void> {
  const current = client.currentSession();
  const live = client.allSessions().filter((s) => s.status === 'running' || s.status === 'starting');
  const target = current !== null && live.some((s) => s.id === current.id) ? current : live[0];
  if (target === undefined) {
    void vscode.window.showInformationMessage('Stage Lens: nothing is being captured.');
    return;
  }
  await client.request('stageLens/stop', { sessionId: target.id });
}

const EXPORT_CHOICES: readonly (vscode.QuickPickItem & { format: ExportFormat; suffix: string; filter: Record<string, string[]> })[] = [
  { label: 'JSON', description: 'same schema as stage-lens analyze --format json', format: 'json', suffix: '.json', filter: { JSON: ['json'] } },
  { label: 'CSV', description: 'one row per request and stage', format: 'csv', suffix: '.csv', filter: { CSV: ['csv'] } },
  { label: 'Chrome trace', description: 'every request\'s stages and phases; open in Perfetto (ui.perfetto.dev) or chrome://tracing', format: 'trace', suffix: '.trace.json', filter: { 'Chrome trace (JSON)': ['json'] } },
];

export async function exportSession(client: StageLensClient): Promise<void> {
  const s = client.currentSession() ?? (await pickSession(client, 'Stage Lens: export a session'));
  if (s === undefined) return;
  const choice = await vscode.window.showQuickPick(EXPORT_CHOICES, { title: 'Stage Lens: export format' });
  if (choice === undefined) return;
  const target = await vscode.window.showSaveDialog({
    title: `Stage Lens: export session as ${choice.label}`,
    filters: choice.filter,
    defaultUri: vscode.Uri.file(`${vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.cwd()}/stage-lens-${s.id}${choice.suffix}`),
  });
  if (target === undefined) return;
  const result = await client.request('stageLens/export', { sessionId: s.id, format: choice.format, path: target.fsPath });
  const hint = choice.format === 'trace' ? ' Open it in Perfetto (ui.perfetto.dev).' : '';
  void vscode.window.showInformationMessage(`Stage Lens exported ${result.requestCount} requests to ${result.path}.${hint}`);
}

/** The explicit match between a deploy YAML and a session: its live numbers then show as inlay hints. */
export async function useSessionForConfig(client: StageLensClient, uri?: vscode.Uri): Promise<void> {
  const file = uri ?? vscode.window.activeTextEditor?.document.uri;
  if (file === undefined) return;
  const s = await pickSession(client, `Stage Lens: show which session's numbers in ${vscode.workspace.asRelativePath(file)}?`);
  if (s === undefined) return;
  await client.request('stageLens/matchDeployConfig', { sessionId: s.id, deployConfig: file.fsPath });
}
