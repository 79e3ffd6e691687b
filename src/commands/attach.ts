// Attach to Running Server..., Attach to Log File..., Attach to Metrics URL..., Import Log...
import * as vscode from 'vscode';
import * as path from 'node:path';
import type { StageLensClient } from '../client';
import { portSetting, scrapeIntervalSetting } from '../settings';

export async function attachToProcess(client: StageLensClient): Promise<void> {
  const processes = await client.request('stageLens/listServingProcesses', {});
  if (processes.length === 0) {
    void vscode.window.showInformationMessage('Stage Lens found no running vLLM-Omni server (vllm serve … --omni) on this machine. You can attach to its log file or its /metrics URL instead.', 'Attach to Log File...', 'Attach to Metrics URL...').then((choice) => {
      if (choice === 'Attach to Log File...') void vscode.commands.executeCommand('stageLens.attachLogFile');
      if (choice === 'Attach to Metrics URL...') void vscode.commands.executeCommand('stageLens.attachMetrics');
    });
    return;
  }
  const picked = await vscode.window.showQuickPick(
    processes.map((p) => ({
      label: `pid ${p.pid}${p.port === null ? '' : ` · port ${p.port}`}`,
      description: p.deployConfig === null ? '' : path.basename(p.deployConfig),
      detail: `${p.argv.join(' ')}  (stdout: ${p.stdout})`,
      pid: p.pid,
    })),
    { title: 'Stage Lens: attach to a running server', matchOnDetail: true },
  );
  if (picked === undefined) return;
  const info = await client.request('stageLens/attach', { pid: picked.pid });
  client.setCurrent(info.id);
  if (info.lastError !== null) void vscode.window.showWarningMessage(`Stage Lens: ${info.lastError}`);
}

export async function attachToLogFile(client: StageLensClient): Promise<void> {
  const chosen = await vscode.window.showOpenDialog({ canSelectMany: false, title: 'Stage Lens: server log to follow', filters: { Logs: ['log', 'txt', 'out'], 'All files': ['*'] } });
  const file = chosen?.[0];
  if (file === undefined) return;
  const fromStart = await vscode.window.showQuickPick(['Read it from the start', 'Only what is written from now on'], { title: 'Stage Lens: the log file already has content' });
  if (fromStart === undefined) return;
  const info = await client.request('stageLens/tail', { path: file.fsPath, fromStart: fromStart.startsWith('Read') });
  client.setCurrent(info.id);
}

export async function attachToMetrics(client: StageLensClient): Promise<void> {
  const port = portSetting();
  const intervalMs = scrapeIntervalSetting();
  const url = await vscode.window.showInputBox({
    title: 'Stage Lens: /metrics URL to scrape',
    value: `http://127.0.0.1:${port}/metrics`,
    validateInput: (v) => (/^https?:\/\/[^\s]+$/.test(v.trim()) ? undefined : 'An http:// or https:// URL, e.g. http://127.0.0.1:8000/metrics'),
  });
  if (url === undefined) return;
  const info = await client.request('stageLens/scrape', { url: url.trim(), intervalMs });
  client.setCurrent(info.id);
}

export async function importLog(client: StageLensClient, uri?: vscode.Uri): Promise<string | null> {
  const file = uri ?? (await vscode.window.showOpenDialog({ canSelectMany: false, title: 'Stage Lens: import a server log' }))?.[0];
  if (file === undefined) return null;
  const info = await client.request('stageLens/import', { path: file.fsPath });
  client.setCurrent(info.id);
  await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Importing ${path.basename(file.fsPath)}`, cancellable: true },
    (progress, token) =>
      new Promise<void>((resolve) => {
        let reported = 0;
        const sub = client.onNotification('stageLens/importProgress', (p) => {
          if (p.sessionId !== info.id) return;
          const pct = p.totalBytes > 0 ? (p.bytesRead / p.totalBytes) * 100 : 0;
          progress.report({ increment: pct - reported, message: `${(p.bytesRead / 1048576).toFixed(1)} of ${(p.totalBytes / 1048576).toFixed(1)} MB` });
          reported = pct;
          if (p.done) finish();
        });
        const cancel = token.onCancellationRequested(() => {
          void client.request('stageLens/stop', { sessionId: info.id }).finally(finish);
        });
        const done = client.onDidUpdateSession((s) => {
          if (s.id === info.id && s.status !== 'running' && s.status !== 'starting') finish();
        });
        function finish(): void {
          sub.dispose();
          cancel.dispose();
          done.dispose();
          resolve();
        }
      }),
  );
  return info.id;
}
