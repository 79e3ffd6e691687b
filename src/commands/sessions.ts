// Open Session..., Stop Capture, Export Session..., and the session pick list they share.
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { showInformation, showStatusMessage, withTitledProgress } from '../notify';
import { showPick } from '../quickPick';
import { exportFileName } from '../exportFileName';
import type { StageLensClient } from '../client';
import type { ExportFormat, SessionInfo } from '../../server/protocol';
import { statusWords } from '../../webview/shared/sessionStatus';
import { sessionPickDescription } from '../sessionPickText';
import { exportedMessage, OPEN_ACTION, revealActionLabel } from '../exportMessage';
import { countOf } from '../../server/shared';
import { capturedElsewhere, capturedElsewhereMessage, ELSEWHERE_MARK, stopCaptureChoices } from '../stopCaptureChoices';

function describe(s: SessionInfo): vscode.QuickPickItem & { id: string } {
  return {
    id: s.id,
    label: s.title,
    description: sessionPickDescription(s),
    detail: s.description + (s.lastError === null ? '' : `  (error: ${s.lastError})`),
  };
}

export async function pickSession(client: StageLensClient, title: string): Promise<SessionInfo | undefined> {
  const sessions = await client.refreshSessions();
  if (sessions.length === 0) {
    void showInformation('Stage Lens has no sessions yet. Start the demo server, launch a server, or import a log.');
    return undefined;
  }
  const picked = await showPick(sessions.map(describe), { title, matchOnDetail: true });
  return sessions.find((s) => s.id === picked?.id);
}

export async function openSession(client: StageLensClient): Promise<void> {
  const s = await pickSession(client, 'Stage Lens: open a session');
  if (s !== undefined) {
    client.setCurrent(s.id);
    await vscode.commands.executeCommand('stageLens.openLatencyView');
  }
}

/**
 * Stop Capture: the session on screen when this window captures it; otherwise the user picks
 * one of the captures running in the background (never one chosen silently). Captures of
 * another window are listed apart, marked so: picking one says to stop it there. Says what it
 * stopped. Resolves with the stopped session (undefined when nothing was stopped).
 */
export async function stopCapture(client: StageLensClient): Promise<SessionInfo | undefined> {
  const current = client.currentSession();
  const { here, elsewhere } = stopCaptureChoices(client.allSessions());
  let target: SessionInfo | undefined = current !== null && here.some((s) => s.id === current.id) ? current : undefined;
  if (target === undefined) {
    if (here.length === 0 && elsewhere.length === 0) {
      void showInformation('Stage Lens: nothing is being captured.');
      return undefined;
    }
    const marked = (s: SessionInfo): vscode.QuickPickItem & { id: string } => {
      const item = describe(s);
      return { ...item, description: `${item.description ?? ''} · ${ELSEWHERE_MARK}` };
    };
    const items: (vscode.QuickPickItem & { id?: string })[] = [
      ...here.map(describe),
      ...(elsewhere.length === 0
        ? []
        : [
            { label: `${ELSEWHERE_MARK}: stop there`, kind: vscode.QuickPickItemKind.Separator },
            ...elsewhere.map(marked),
          ]),
    ];
    const onScreen =
      current === null
        ? ''
        : capturedElsewhere(current)
          ? `the session on screen is ${ELSEWHERE_MARK}; `
          : `the session on screen is not capturing (${statusWords(current)}); `;
    const picked = await showPick(items, {
      title: `Stage Lens: ${onScreen}stop which capture?`,
      matchOnDetail: true,
    });
    if (picked?.id === undefined) return undefined;
    const other = elsewhere.find((s) => s.id === picked.id);
    if (other !== undefined) {
      void showInformation(capturedElsewhereMessage(other));
      return undefined;
    }
    target = here.find((s) => s.id === picked.id);
    if (target === undefined) return undefined;
  }
  const session = target;
  const stopped = await withTitledProgress(
    { location: vscode.ProgressLocation.Window, title: `Stage Lens: stopping ${session.title}` },
    () => client.request('stageLens/stop', { sessionId: session.id }),
  );
  const what = stopped.kind === 'launch' ? 'stopped the server and its capture' : 'stopped capturing';
  const message = `Stage Lens ${what}: ${stopped.title} · ${countOf(stopped.requestCount, 'request')} kept.`;
  showStatusMessage('debug-stop', message, 10_000);
  void showInformation(message);
  return stopped;
}

const EXPORT_CHOICES: readonly (vscode.QuickPickItem & {
  format: ExportFormat;
  suffix: string;
  filter: Record<string, string[]>;
})[] = [
  {
    label: 'JSON',
    description: 'same schema as stage-lens analyze --format json',
    format: 'json',
    suffix: '.json',
    filter: { JSON: ['json'] },
  },
  {
    label: 'CSV',
    description: 'one row per request and stage',
    format: 'csv',
    suffix: '.csv',
    filter: { CSV: ['csv'] },
  },
  {
    label: 'Chrome trace',
    description: "every request's stages and phases; open in Perfetto (ui.perfetto.dev) or chrome://tracing",
    format: 'trace',
    suffix: '.trace.json',
    filter: { 'Chrome trace (JSON)': ['json'] },
  },
];

export async function exportSession(client: StageLensClient): Promise<void> {
  const s = client.currentSession() ?? (await pickSession(client, 'Stage Lens: export a session'));
  if (s === undefined) return;
  const choice = await showPick(EXPORT_CHOICES, { title: 'Stage Lens: export format' });
  if (choice === undefined) return;
  const target = await vscode.window.showSaveDialog({
    title: `Stage Lens: export session as ${choice.label}`,
    filters: choice.filter,
    defaultUri: vscode.Uri.file(
      path.join(vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? os.homedir(), exportFileName(s, choice.suffix)),
    ),
  });
  if (target === undefined) return;
  const result = await client.request('stageLens/export', {
    sessionId: s.id,
    format: choice.format,
    path: target.fsPath,
  });
  const file = vscode.Uri.file(result.path);
  const reveal = revealActionLabel(process.platform);
  // Not awaited: the command is done once the file is written; the notification may stay open.
  void showInformation(exportedMessage(result, choice.format), OPEN_ACTION, reveal).then((action) => {
    if (action === OPEN_ACTION) void vscode.commands.executeCommand('vscode.open', file);
    if (action === reveal) void vscode.commands.executeCommand('revealFileInOS', file);
  });
}
