// Import Log... inside a real VS Code: when the file is read, the session's views open (the
// Latency Details panel), as after Start Demo Server, instead of only the status bar changing.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { StageLensApi } from '../../../src/extension';
import { stageLensExtension, waitFor } from './helpers';

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
});
