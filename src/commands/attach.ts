// Attach to Running Server..., Attach to Log File..., Attach to Metrics URL..., Import Log...
import * as vscode from 'vscode';
import { showError, showInformation, showStatusMessage, showWarning, withTitledProgress } from '../notify';
import { showPick } from '../quickPick';
import * as path from 'node:path';
import * as fsp from 'node:fs/promises';
import type { StageLensClient } from '../client';
import type { ServerContainer, StatsTablesOutlook } from '../../server/protocol';
import { portSetting, scrapeIntervalSetting } from '../settings';
import { importProgressText } from '../importProgressText';
import { importName, importOrder } from '../importFiles';
import { deployConfigOnScreen, offerDeployConfig } from './offerDeployConfig';
import { compressedFormatOf, containerName, gzipNotFollowedText, unreadableInputFinding } from '../../server/shared';

function tablesWord(outlook: StatsTablesOutlook): string {
  return outlook.tables === 'yes'
    ? 'stats tables: yes (DEBUG)'
    : outlook.tables === 'no'
      ? 'no stats tables (not DEBUG): [OmniTiming] only'
      : 'stats tables: unknown';
}

/** ` · in Docker container 3f2a1b9c0d4e, its log <file>`; '' outside a container. */
function containerWords(container: ServerContainer | null): string {
  if (container === null) return '';
  const log =
    container.logFile === null ? '' : `, its log ${container.logFile}${container.logReadable ? '' : ' (not readable)'}`;
  return ` · in ${containerName(container)}${log}`;
}

/** Shows the session's views (the Latency Summary and Latency Details), as Start Demo Server does. */
export type RevealViews = () => Promise<void>;

export async function attachToProcess(client: StageLensClient, reveal: RevealViews): Promise<void> {
  const processes = await client.request('stageLens/listServingProcesses', {});
  if (processes.length === 0) {
    void showInformation(
      'Stage Lens found no running vLLM-Omni server (vllm serve … --omni) on this machine. You can attach to its log file or its /metrics URL instead.',
      'Attach to Log File...',
      'Attach to Metrics URL...',
    ).then((choice) => {
      if (choice === 'Attach to Log File...') void vscode.commands.executeCommand('stageLens.attachLogFile');
      if (choice === 'Attach to Metrics URL...') void vscode.commands.executeCommand('stageLens.attachMetrics');
    });
    return;
  }
  const picked = await showPick(
    processes.map((p) => ({
      iconPath: new vscode.ThemeIcon(
        p.statsTables.tables === 'yes' ? 'check' : p.statsTables.tables === 'no' ? 'warning' : 'question',
      ),
      label: `pid ${p.pid}${p.port === null ? '' : ` · port ${p.port}`}`,
      description: `${p.deployConfig === null ? '' : `${path.basename(p.deployConfig)} · `}${tablesWord(p.statsTables)}`,
      detail: `${p.argv.join(' ')}  (stdout: ${p.stdout}${containerWords(p.container ?? null)}; ${p.statsTables.reason})`,
      process: p,
    })),
    { title: 'Stage Lens: attach to a running server', matchOnDetail: true, matchOnDescription: true },
  );
  if (picked === undefined) return;
  // Said before attaching: without the DEBUG tables there is no phase split to capture.
  const outlook = picked.process.statsTables;
  if (outlook.tables !== 'yes') {
    const choice = await showWarning(
      outlook.tables === 'no'
        ? `pid ${picked.process.pid} prints no stats tables, so there will be no queued / prefill / decode / TTFT split.`
        : `Stage Lens cannot tell whether pid ${picked.process.pid} prints its stats tables.`,
      {
        modal: true,
        detail: `${outlook.reason}. vLLM-Omni logs its per-request tables at DEBUG; at INFO a server prints only [OmniTiming] lines. Attached, Stage Lens shows what that gives: per-stage wall time, end to end, and the /metrics histograms. For the phase split, restart the server with VLLM_LOGGING_LEVEL=DEBUG in its environment (Launch Server... sets it).`,
      },
      'Attach Anyway',
    );
    if (choice !== 'Attach Anyway') return;
  }
  const info = await client.request('stageLens/attach', { pid: picked.process.pid });
  client.setCurrent(info.id);
  if (info.lastError !== null) void showWarning(`Stage Lens: ${info.lastError}`);
  await reveal();
}

export async function attachToLogFile(client: StageLensClient, reveal: RevealViews): Promise<void> {
  const onScreen = deployConfigOnScreen();
  const chosen = await vscode.window.showOpenDialog({
    canSelectMany: false,
    title: 'Stage Lens: server log to follow',
    filters: { Logs: ['log', 'txt', 'out', 'jsonl'], 'All files': ['*'] },
  });
  const file = chosen?.[0];
  if (file === undefined) return;
  // A gzip file is a rotated log, done growing: followed, it would show nothing. Imported whole, and said so.
  if (await isGzip(file.fsPath)) {
    const how = 'imported whole (as Import Log... reads it)';
    void showInformation(`Stage Lens: ${gzipNotFollowedText(path.basename(file.fsPath), how)}.`);
    await importLog(client, reveal, file);
    return;
  }
  // An empty (or not yet existing) file has nothing to skip: no question.
  const size = (await fsp.stat(file.fsPath).catch(() => null))?.size ?? 0;
  const fromStart =
    size === 0
      ? 'Read it from the start'
      : await showPick(['Read it from the start', 'Only what is written from now on'], {
          title: 'Stage Lens: the log file already has content',
        });
  if (fromStart === undefined) return;
  const info = await client.request('stageLens/tail', { path: file.fsPath, fromStart: fromStart.startsWith('Read') });
  client.setCurrent(info.id);
  offerDeployConfig(client, info.id, onScreen);
  await reveal();
}

/** The picked files' paths in the order they are read: oldest first (importFiles.ts). */
async function readOrder(picked: readonly vscode.Uri[]): Promise<string[]> {
  if (picked.length === 1) return [(picked[0] as vscode.Uri).fsPath];
  const files = await Promise.all(
    picked.map(async (uri) => ({
      path: uri.fsPath,
      mtimeMs: (await fsp.stat(uri.fsPath).catch(() => null))?.mtimeMs ?? null,
    })),
  );
  return importOrder(files);
}

/** Whether the file's first bytes are gzip's (its name does not count); false when it cannot be read. */
async function isGzip(file: string): Promise<boolean> {
  const handle = await fsp.open(file, 'r').catch(() => null);
  if (handle === null) return false;
  try {
    const head = Buffer.alloc(2);
    const { bytesRead } = await handle.read(head, 0, 2, 0);
    return bytesRead === 2 && compressedFormatOf(head) === 'gzip';
  } catch {
    return false;
  } finally {
    await handle.close();
  }
}

export async function attachToMetrics(client: StageLensClient, reveal: RevealViews): Promise<void> {
  const port = portSetting();
  const intervalMs = scrapeIntervalSetting();
  const url = await vscode.window.showInputBox({
    title: 'Stage Lens: /metrics URL to scrape',
    value: `http://127.0.0.1:${port}/metrics`,
    validateInput: (v) =>
      /^https?:\/\/[^\s]+$/.test(v.trim())
        ? undefined
        : 'An http:// or https:// URL, e.g. http://127.0.0.1:8000/metrics',
  });
  if (url === undefined) return;
  const info = await client.request('stageLens/scrape', { url: url.trim(), intervalMs });
  client.setCurrent(info.id);
  await reveal();
}

/**
 * Import Log...: reads the whole file with a cancellable progress toast; when it is read (not
 * cancelled), `reveal` shows the session's views, as Start Demo Server does. Several files picked
 * together (a log and its rotations) are read as one log, oldest first. `uri` and `uris` are what
 * the command is given (the Explorer gives the file clicked and every file selected).
 */
export async function importLog(
  client: StageLensClient,
  reveal: RevealViews,
  uri?: vscode.Uri,
  uris?: readonly vscode.Uri[],
): Promise<string | null> {
  const onScreen = deployConfigOnScreen();
  const picked =
    uris !== undefined && uris.length > 0
      ? uris
      : uri !== undefined
        ? [uri]
        : await vscode.window.showOpenDialog({
            canSelectMany: true,
            title: 'Stage Lens: import a server log (or a log and its rotations, read as one log)',
          });
  if (picked === undefined || picked.length === 0) return null;
  const files = await readOrder(picked);
  const newest = files.at(-1) as string;
  const name = importName(files);
  const earlier = files.slice(0, -1);
  const info = await client.request('stageLens/import', {
    path: newest,
    ...(earlier.length === 0 ? {} : { earlier }),
  });
  client.setCurrent(info.id);
  offerDeployConfig(client, info.id, onScreen);
  const cancelled = await withTitledProgress(
    { location: vscode.ProgressLocation.Notification, title: `Importing ${name}`, cancellable: true },
    (progress, token) =>
      new Promise<boolean>((resolve) => {
        let reported = 0;
        const sub = client.onNotification('stageLens/importProgress', (p) => {
          if (p.sessionId !== info.id) return;
          const pct = p.totalBytes > 0 ? (p.bytesRead / p.totalBytes) * 100 : 0;
          progress.report({ increment: pct - reported, message: importProgressText(p.bytesRead, p.totalBytes) });
          reported = pct;
          if (p.done) finish(false);
        });
        const cancel = token.onCancellationRequested(() => {
          void client.request('stageLens/stop', { sessionId: info.id }).finally(() => finish(true));
        });
        const done = client.onDidUpdateSession((s) => {
          if (s.id === info.id && s.status !== 'running' && s.status !== 'starting') finish(false);
        });
        function finish(byUser: boolean): void {
          sub.dispose();
          cancel.dispose();
          done.dispose();
          resolve(byUser);
        }
      }),
  );
  if (cancelled) return info.id;
  const error = client.allSessions().find((s) => s.id === info.id)?.lastError ?? null;
  if (error !== null) {
    void showError(`Stage Lens: importing ${name} failed: ${error}`);
    return info.id;
  }
  // A file that is not a text log (compressed, binary, a deploy config) is read to its end
  // and yields nothing: say why, rather than a check mark over 0 requests.
  // Asked of the server now, not the views' memo: the session list and its summaries may not
  // have caught up with the import's end yet.
  const summary = await client.request('stageLens/summary', { sessionId: info.id }).catch(() => null);
  const unreadable =
    summary === null || summary.requestCount > 0 ? undefined : unreadableInputFinding(summary.findings);
  if (unreadable !== undefined) void showWarning(`Stage Lens: ${name}: ${unreadable.message}`);
  else if (earlier.length > 0)
    void showInformation(
      `Stage Lens: imported ${files.map((f) => path.basename(f)).join(', ')} as one log, in this order (oldest first).`,
    );
  else showStatusMessage('check', `Stage Lens imported ${name}`, 10_000);
  await reveal();
  return info.id;
}
