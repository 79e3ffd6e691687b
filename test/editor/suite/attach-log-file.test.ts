// Attach to Log File... inside a real VS Code: an empty file has nothing to skip, so it is
// followed from its start without the question "the log file already has content"; a file
// with content still asks. Once attached, the session's views open, as after Start Demo Server
// and Import Log..., instead of only the status bar changing. A .gz (a rotated log, done growing)
// is not followed: it is imported whole, with a message that says so; cut short, its status bar
// item says its numbers are partial, and where its data was cut. A followed log that names no
// deploy config, attached with a deploy YAML on screen, is offered that YAML once a request of it
// fits its stages.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import * as vscode from 'vscode';
import type { StageLensApi } from '../../../src/extension';
import { openFixture, stageLensExtension, takeOffers, waitFor, workspaceFile } from './helpers';

const PANEL = 'Stage Lens: Latency Details';

const panelOpen = (): boolean => vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.label === PANEL));

type Window = typeof vscode.window;

/**
 * Runs the command with the open dialog answering `file` and every pick list cancelled; the pick
 * lists' titles. `informed`: the information messages shown meanwhile.
 */
async function attachAnswering(file: string, informed: string[] = []): Promise<string[]> {
  const window = vscode.window as { -readonly [K in keyof Window]: Window[K] };
  const original = {
    showOpenDialog: window.showOpenDialog,
    showQuickPick: window.showQuickPick,
    showInformationMessage: window.showInformationMessage,
  };
  const asked: string[] = [];
  window.showInformationMessage = ((message: string) => {
    informed.push(message);
    return Promise.resolve(undefined);
  }) as Window['showInformationMessage'];
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

  it('imports a .gz whole instead of following it, says so, and a cut one reads "partial" in the status bar', async function () {
    this.timeout(60_000);
    const ext = stageLensExtension();
    const api = (await ext.activate()) as StageLensApi;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-attach-gz-'));
    const log = fs.readFileSync(
      path.join(
        ext.extensionPath,
        'test',
        'fixtures',
        'upstream-rendered',
        'qwen3tts-talker-first-audio-after-fix.log',
      ),
    );
    const gz = zlib.gzipSync(log);
    const file = path.join(dir, 'server.log.1.gz');
    fs.writeFileSync(file, gz.subarray(0, gz.length >> 1));
    const informed: string[] = [];
    // No "already has content" question: nothing will be written to it.
    assert.deepEqual(await attachAnswering(file, informed), []);
    assert.deepEqual(informed, [
      'Stage Lens: server.log.1.gz is gzip-compressed, a rotated log that no longer grows: imported whole (as Import Log... reads it), not followed.',
    ]);
    const session = api.client.currentSession();
    assert.equal(session?.kind, 'import');
    const shown = await waitFor(
      'the status bar to say the numbers are partial',
      () => {
        const item = api.statusBar();
        return item !== null && item.text.endsWith(' · partial') ? item : undefined;
      },
      30_000,
    );
    assert.match(shown.text, /^\$\(history\) 2 req · 1st output p50 \d+(\.\d+)? (ms|s) · partial$/);
    assert.match(shown.tooltip, /\nPartial log: the gzip data broke off after 14 KB of log \(input-gzip-damaged\)\. /);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('offers the deploy YAML on screen once the followed log has a request that fits its stages', async function () {
    this.timeout(60_000);
    const ext = stageLensExtension();
    const { client } = (await ext.activate()) as StageLensApi;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-attach-log-'));
    const log = path.join(dir, 'server.log');
    fs.writeFileSync(log, '');
    const config = workspaceFile('qwen3_omni_moe.yaml').fsPath;
    await openFixture('qwen3_omni_moe.yaml');
    const window = vscode.window as { -readonly [K in keyof Window]: Window[K] };
    const originalOpenDialog = window.showOpenDialog;
    const offers: string[] = [];
    window.showOpenDialog = (() => Promise.resolve([vscode.Uri.file(log)])) as Window['showOpenDialog'];
    const restore = takeOffers(offers);
    let id: string | undefined;
    try {
      await vscode.commands.executeCommand('stageLens.attachLogFile');
      id = client.currentSession()?.id;
      assert.equal(client.currentSession()?.kind, 'tail');
      assert.deepEqual(offers, [], 'nothing offered before a request is read');
      fs.appendFileSync(
        log,
        fs.readFileSync(
          path.join(ext.extensionPath, 'test', 'fixtures', 'upstream-rendered', 'qwen3-omni-three-stage-transfers.log'),
        ),
      );
      await waitFor(
        'the offered YAML tied',
        async () => (await client.refreshSessions()).find((x) => x.id === id)?.deployConfig === config,
        30_000,
      );
      assert.equal(offers.length, 1, offers.join('\n'));
      assert.match(
        offers[0] ?? '',
        / has the stages of qwen3_omni_moe\.yaml, open in the editor\. Show its numbers there\? \[Show Numbers in qwen3_omni_moe\.yaml\]$/,
      );
    } finally {
      window.showOpenDialog = originalOpenDialog;
      restore();
      if (id !== undefined) {
        await client.request('stageLens/stop', { sessionId: id });
        await client.request('stageLens/matchDeployConfig', { sessionId: id, deployConfig: null });
      }
      fs.rmSync(dir, { recursive: true, force: true });
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });
});
