// A window that opens a workspace with no deploy config and takes no Stage Lens action costs
// nothing: Stage Lens is not activated at startup (no onStartupFinished), a YAML file that is not
// a deploy config activates it (onLanguage:yaml) but starts no language server, and the first
// deploy config does. Runs only in the harness's second window, on a workspace holding a compose
// file, a CI workflow and a Kubernetes manifest (STAGE_LENS_EDITOR_WINDOW=light).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { StageLensApi } from '../../../src/extension';
import { stageLensExtension, waitFor, workspaceFile } from './helpers';
import { readProcesses } from '../harness/processTree';

/** Language servers this extension host started: its child processes running dist/server.js. */
function languageServers(): number[] {
  return readProcesses()
    .filter((p) => p.ppid === process.pid && p.argv.some((arg) => arg.endsWith(`${path.sep}dist${path.sep}server.js`)))
    .map((p) => p.pid);
}

async function open(name: string): Promise<vscode.TextEditor> {
  return vscode.window.showTextDocument(await vscode.workspace.openTextDocument(workspaceFile(name)));
}

const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('light window', () => {
  it('is not activated at startup', async function () {
    this.timeout(20_000);
    // The workbench has been up for a while when the tests run; give startup activations time.
    await pause(3000);
    assert.equal(stageLensExtension().isActive, false, 'Stage Lens activated although nothing asked for it');
    assert.deepEqual(languageServers(), []);
  });

  it('a YAML file that is not a deploy config activates Stage Lens but starts no language server', async function () {
    this.timeout(30_000);
    // (VS Code gives compose.yaml its own language id, dockercompose.)
    for (const name of ['compose.yaml', 'ci.yml', 'k8s.yaml']) await open(name);
    assert.equal((await open('k8s.yaml')).document.languageId, 'yaml');
    const ext = stageLensExtension();
    await waitFor('activation on a YAML file', () => ext.isActive, 15_000);
    const api = ext.exports as StageLensApi;
    await pause(2000);
    assert.equal(api.client.isStarted, false, 'the language server was started');
    assert.deepEqual(languageServers(), [], 'a language server process runs');
    // An edit that does not make it a deploy config changes nothing.
    const editor = await open('ci.yml');
    await editor.edit((b) => b.insert(new vscode.Position(0, 0), '# stages of the rollout\n'));
    await pause(1000);
    assert.equal(api.client.isStarted, false);
    assert.deepEqual(languageServers(), []);
  });

  it('the first deploy config starts the language server, which then serves it', async function () {
    this.timeout(60_000);
    const file = workspaceFile('deploy.yaml');
    fs.writeFileSync(
      file.fsPath,
      'async_chunk: true\nstages:\n  - stage_id: 0\n    engine_args:\n      model_stage: talker\n  - stage_id: 1\n    engine_args:\n      model_stage: code2wav\n',
    );
    const editor = await open('deploy.yaml');
    const api = stageLensExtension().exports as StageLensApi;
    const servers = await waitFor(
      'a language server process',
      () => (languageServers().length > 0 ? languageServers() : undefined),
      20_000,
    );
    assert.equal(servers.length, 1);
    assert.equal(api.client.isStarted, true);
    const at = editor.document.getText().indexOf('async_chunk');
    const hovers = await waitFor(
      'a hover from the language server',
      async () => {
        const h = await vscode.commands.executeCommand<vscode.Hover[]>(
          'vscode.executeHoverProvider',
          editor.document.uri,
          editor.document.positionAt(at + 2),
        );
        return h.length > 0 ? h : undefined;
      },
      20_000,
    );
    assert.ok(hovers.length > 0);
  });
});
