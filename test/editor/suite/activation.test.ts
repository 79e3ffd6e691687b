// The extension loads into a real VS Code and activates; the VS Code API answers.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { EXTENSION_ID, openFixture, stageLensExtension, workspaceFolder } from './helpers';

describe('activation', () => {
  it('loads the Stage Lens extension from the repo', () => {
    const ext = stageLensExtension();
    assert.equal(ext.id, EXTENSION_ID);
    const manifest: unknown = ext.packageJSON;
    assert.ok(
      typeof manifest === 'object' && manifest !== null && 'name' in manifest && manifest.name === 'stage-lens',
    );
  });

  it('activates when asked', async () => {
    const ext = stageLensExtension();
    await ext.activate();
    assert.equal(ext.isActive, true);
  });

  it('declares no startup activation and runs next to the workspace', () => {
    const manifest = stageLensExtension().packageJSON as { activationEvents?: string[]; extensionKind?: string[] };
    assert.ok(
      !(manifest.activationEvents ?? []).some((e) => e === '*' || e === 'onStartupFinished'),
      `activationEvents: ${String(manifest.activationEvents)}`,
    );
    assert.deepEqual(manifest.extensionKind, ['workspace']);
  });

  it('vscode.commands.getCommands() works', async () => {
    const commands = await vscode.commands.getCommands(true);
    assert.ok(commands.length > 100, `only ${commands.length} commands`);
    assert.ok(commands.includes('workbench.action.quickOpen'));
  });

  it('registers every command it contributes', async () => {
    const ext = stageLensExtension();
    await ext.activate();
    const manifest: unknown = ext.packageJSON;
    const contributed: string[] = [];
    if (typeof manifest === 'object' && manifest !== null && 'contributes' in manifest) {
      const { contributes } = manifest;
      if (
        typeof contributes === 'object' &&
        contributes !== null &&
        'commands' in contributes &&
        Array.isArray(contributes.commands)
      ) {
        for (const c of contributes.commands as unknown[]) {
          if (typeof c === 'object' && c !== null && 'command' in c && typeof c.command === 'string')
            contributed.push(c.command);
        }
      }
    }
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = contributed.filter((id) => !registered.has(id));
    assert.deepEqual(missing, [], `contributed in package.json but not registered: ${missing.join(', ')}`);
  });

  it('opens the test workspace with the deploy fixtures', async () => {
    const folder = workspaceFolder();
    const files = await vscode.workspace.findFiles('*.yaml');
    const names = files.map((f) => path.basename(f.fsPath));
    assert.ok(names.includes('qwen3_tts.yaml'), `workspace ${folder.uri.fsPath} has ${names.join(', ')}`);
    const editor = await openFixture('qwen3_tts.yaml');
    assert.equal(editor.document.languageId, 'yaml');
    assert.match(editor.document.getText(), /stage/i);
  });
});
