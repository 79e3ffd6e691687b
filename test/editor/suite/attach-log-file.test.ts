// Attach to Log File... inside a real VS Code: an empty file has nothing to skip, so it is
// followed from its start without the question "the log file already has content"; a file
// with content still asks. Once attached, the session's views open, as after Start Demo Server
// and Import Log..., instead of only the status bar changing.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { StageLensApi } from '../../../src/extension';
import { stageLensExtension, waitFor } from './helpers';

const PANEL = 'Stage Lens: Latency Details';

const panelOpen = (): boolean => vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.label === PANEL));

type Window = typeof vscode.window;

/** Runs the command with the open dialog answering `file` and every pick list cancelled; the pick lists' titles. */
async function attachAnswering(file: string): Promise<string[]> {
  const window = vscode.window as { -readonly [K in keyof Window]: Window[K] };
  const original = { showOpenDialog: window.showOpenDialog, showQuickPick: window.showQuickPick };
  const asked: string[] = [];
  window.showOpenDialog = (() => Promise.resolve([vscode.Uri.file(file)])) as Window['showOpenDialog'];
  window.showQuickPick = ((_items: unknown, options?: vscode.QuickPickOptions) => {
    asked.push(options?.title ?? '');
    return Promise.resolve(undefined);
  }) as unknown as Window['showQuickPick'];
  try {
    await vscode.commands.executeCommand('stageLens.attachLogFile');
  } finally {
    Object.assign(window, original);
  }
  return asked;
}

describe('Attach to Log File...', () => {
  it('follows an empty file from its start without asking and opens its views; a file with content is asked about', async function () {
    this.timeout(60_000);
    const { client } = (await stageLensExtension().activate()) as StageLensApi;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-attach-log-'));
    const empty = path.join(dir, 'empty.log');
    fs.writeFileSync(empty, '');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await waitFor('no editor open', () => !panelOpen());
    assert.deepEqual(await attachAnswering(empty), [], 'no question for a 0-byte file');
    const session = client.currentSession();
    assert.equal(session?.kind, 'tail');
    assert.match(session?.description ?? '', /empty\.log/);
    // The tab list follows the workbench a moment after the panel is created.
    await waitFor(`${PANEL} open`, panelOpen, 5_000);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (session !== null && session !== undefined) await client.request('stageLens/stop', { sessionId: session.id });
    const full = path.join(dir, 'full.log');
    fs.writeFileSync(full, 'INFO 12-05 00:39:54 [api_server.py:1] Starting vLLM API server on http://0.0.0.0:8000\n');
    assert.deepEqual(await attachAnswering(full), ['Stage Lens: the log file already has content']);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
