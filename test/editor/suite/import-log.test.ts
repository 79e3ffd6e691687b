// Import Log... inside a real VS Code: when the file is read, the session's views open (the
// Latency Details panel), as after Start Demo Server, instead of only the status bar changing.
// A log naming a deploy config that is not on this machine is tied to nothing until the user
// takes the notification's offer of the workspace file of that name. A file that is not a log
// (here a deploy config) says why nothing was read, instead of the check mark of an import.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { StageLensApi } from '../../../src/extension';
import { stageLensExtension, waitFor, workspaceFile } from './helpers';

const PANEL = 'Stage Lens: Latency Details';

const panelOpen = (): boolean => vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.label === PANEL));

describe('Import Log...', () => {
  it('opens the Latency Details of the imported session once the file is read', async function () {
    this.timeout(60_000);
    const ext = stageLensExtension();
    const { client } = (await ext.activate()) as StageLensApi;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await waitFor('no editor open', () => !panelOpen());
    const log = path.join(
      ext.extensionPath,
      'test',
      'fixtures',
      'upstream-rendered',
      'qwen3tts-talker-first-audio-after-fix.log',
    );
    const id = await vscode.commands.executeCommand<string | null>('stageLens.importLog', vscode.Uri.file(log));
    assert.ok(typeof id === 'string');
    assert.equal(client.currentSession()?.id, id);
    // The tab list follows the workbench a moment after the panel is created.
    await waitFor(`${PANEL} open`, panelOpen, 5_000);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('offers the workspace file named like the deploy config a copied log names, and ties it only when clicked', async function () {
    this.timeout(60_000);
    const ext = stageLensExtension();
    const { client } = (await ext.activate()) as StageLensApi;
    const fixture = path.join(
      ext.extensionPath,
      'test',
      'fixtures',
      'upstream-rendered',
      'qwen3tts-talker-first-audio-after-fix.log',
    );
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-copied-log-'));
    const log = path.join(dir, 'copied-from-server.log');
    fs.writeFileSync(
      log,
      `Loaded deploy config from /srv/vllm-omni/deploy/qwen3_tts.yaml\n${fs.readFileSync(fixture, 'utf8')}`,
    );
    const window = vscode.window as { showInformationMessage: typeof vscode.window.showInformationMessage };
    const original = window.showInformationMessage;
    const offers: string[] = [];
    window.showInformationMessage = ((message: string, ...buttons: string[]) => {
      if (buttons.length === 0) return Promise.resolve(undefined);
      offers.push(`${message} [${buttons.join('|')}]`);
      return Promise.resolve(buttons[0]);
    }) as unknown as typeof vscode.window.showInformationMessage;
    const config = workspaceFile('qwen3_tts.yaml').fsPath;
    try {
      const id = await vscode.commands.executeCommand<string | null>('stageLens.importLog', vscode.Uri.file(log));
      assert.ok(typeof id === 'string');
      const tied = await waitFor('the offered file tied', async () => {
        const s = (await client.refreshSessions()).find((x) => x.id === id);
        return s?.deployConfig === config ? s : undefined;
      });
      assert.equal(tied.loggedDeployConfig, '/srv/vllm-omni/deploy/qwen3_tts.yaml');
      assert.equal(offers.length, 1, offers.join('\n'));
      assert.match(
        offers[0] ?? '',
        /names the deploy config \/srv\/vllm-omni\/deploy\/qwen3_tts\.yaml, which is not on this machine\. Show its numbers in qwen3_tts\.yaml, a file of that name\? \[Show Numbers in qwen3_tts\.yaml\]$/,
      );
      await client.request('stageLens/matchDeployConfig', { sessionId: id, deployConfig: null });
    } finally {
      window.showInformationMessage = original;
      fs.rmSync(dir, { recursive: true, force: true });
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });

  it('of a deploy config says why nothing was read, as a warning', async function () {
    this.timeout(60_000);
    const ext = stageLensExtension();
    await ext.activate();
    const config = path.join(ext.extensionPath, 'test', 'fixtures', 'deploy', 'qwen3_tts.yaml');
    const window = vscode.window as { showWarningMessage: typeof vscode.window.showWarningMessage };
    const original = window.showWarningMessage;
    const warnings: string[] = [];
    window.showWarningMessage = ((message: string) => {
      warnings.push(message);
      return Promise.resolve(undefined);
    }) as unknown as typeof vscode.window.showWarningMessage;
    try {
      const id = await vscode.commands.executeCommand<string | null>('stageLens.importLog', vscode.Uri.file(config));
      assert.ok(typeof id === 'string');
      assert.equal(warnings.length, 1, warnings.join('\n'));
      assert.match(
        warnings[0] ?? '',
        /^Stage Lens: qwen3_tts\.yaml: The input is a vLLM-Omni deploy config \(YAML\), not the log a server prints, so nothing in it was read\./,
      );
    } finally {
      window.showWarningMessage = original;
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });
});
