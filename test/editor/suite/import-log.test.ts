// Import Log... inside a real VS Code: when the file is read, the session's views open (the
// Latency Details panel), as after Start Demo Server, instead of only the status bar changing.
// A log naming a deploy config that is not on this machine is tied to nothing until the user
// takes the notification's offer of the workspace file of that name; a log naming none, opened
// with a deploy YAML on screen, is offered that YAML when its stages fit it and the YAML shows
// no session yet (never another pipeline's YAML). A file that is not a log
// (here a deploy config) says why nothing was read, instead of the check mark of an import.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { StageLensApi } from '../../../src/extension';
import { openFixture, stageLensExtension, takeOffers, waitFor, workspaceFile } from './helpers';

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
    const offers: string[] = [];
    const restore = takeOffers(offers);
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
      restore();
      fs.rmSync(dir, { recursive: true, force: true });
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });

  it('offers the deploy YAML on screen to a log that names none when its stages fit, and only then', async function () {
    this.timeout(120_000);
    const ext = stageLensExtension();
    const { client } = (await ext.activate()) as StageLensApi;
    const logOf = (name: string): vscode.Uri =>
      vscode.Uri.file(path.join(ext.extensionPath, 'test', 'fixtures', 'upstream-rendered', name));
    const config = workspaceFile('qwen3_omni_moe.yaml').fsPath;
    const offers: string[] = [];
    const restore = takeOffers(offers);
    /** Imports `log` with the YAML on screen; resolves once the client has seen the import end and the server answered after that. */
    const importWithConfigShown = async (log: string): Promise<string> => {
      await openFixture('qwen3_omni_moe.yaml');
      const id = await vscode.commands.executeCommand<string | null>('stageLens.importLog', logOf(log));
      assert.ok(typeof id === 'string');
      await waitFor('the import ended', () => {
        const s = client.allSessions().find((x) => x.id === id);
        return s !== undefined && s.status !== 'running' && s.status !== 'starting';
      });
      await client.request('stageLens/deployConfigFit', { sessionId: id, deployConfig: config });
      await new Promise((r) => setTimeout(r, 300));
      return id;
    };
    const tied: string[] = [];
    try {
      // Qwen3-TTS (talker -> code2wav) is not the Qwen3-Omni YAML's pipeline: no offer.
      const tts = await importWithConfigShown('qwen3tts-talker-first-audio-after-fix.log');
      assert.deepEqual(offers, []);
      assert.equal(client.allSessions().find((s) => s.id === tts)?.deployConfig, null);

      // Thinker -> talker -> code2wav: offered, and tied when the button is clicked.
      const omni = await importWithConfigShown('qwen3-omni-three-stage-transfers.log');
      await waitFor('the offered YAML tied', async () => {
        const s = (await client.refreshSessions()).find((x) => x.id === omni);
        return s?.deployConfig === config ? s : undefined;
      });
      tied.push(omni);
      assert.equal(offers.length, 1, offers.join('\n'));
      // Named as it was when offered (the YAML's name joins its title once tied).
      assert.match(
        offers[0] ?? '',
        /^Stage Lens: qwen3-omni-three-stage-transfers\.log(?: \(\d+\))? · logged 10-22 09:30:53 – 09:31:58 has the stages of qwen3_omni_moe\.yaml, open in the editor\. Show its numbers there\? \[Show Numbers in qwen3_omni_moe\.yaml\]$/,
      );

      // The YAML shows that session now: a second import of the same pipeline is not offered it.
      const again = await importWithConfigShown('qwen3-omni-three-stage-transfers.log');
      assert.equal(offers.length, 1, offers.join('\n'));
      assert.equal(client.allSessions().find((s) => s.id === again)?.deployConfig, null);
    } finally {
      restore();
      for (const id of tied) await client.request('stageLens/matchDeployConfig', { sessionId: id, deployConfig: null });
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

  it('of a log and its rotations selected together reads them as one log, oldest first, and says so', async function () {
    this.timeout(60_000);
    const ext = stageLensExtension();
    const { client } = (await ext.activate()) as StageLensApi;
    const sample = path.join(ext.extensionPath, 'samples', 'qwen3-tts-first-audio-cold-start.log');
    const lines = fs.readFileSync(sample, 'utf8').split(/(?<=\n)/);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-rotated-import-'));
    // Cut inside tables, as copytruncate cuts: read in the wrong order, they are not the whole log.
    const parts = [lines.slice(0, 503), lines.slice(503, 977), lines.slice(977)].map((p) => p.join(''));
    const names = ['server.log.2', 'server.log.1', 'server.log'];
    names.forEach((name, i) => fs.writeFileSync(path.join(dir, name), parts[i] ?? ''));
    const window = vscode.window as { showInformationMessage: typeof vscode.window.showInformationMessage };
    const original = window.showInformationMessage;
    const notes: string[] = [];
    window.showInformationMessage = ((message: string) => {
      notes.push(message);
      return Promise.resolve(undefined);
    }) as unknown as typeof vscode.window.showInformationMessage;
    try {
      // As the Explorer gives a command its selection: the file clicked, then every file selected (its order).
      const selected = ['server.log', 'server.log.2', 'server.log.1'].map((n) => vscode.Uri.file(path.join(dir, n)));
      const id = await vscode.commands.executeCommand<string | null>('stageLens.importLog', selected[0], selected);
      assert.ok(typeof id === 'string');
      const session = await waitFor('the import to end', () =>
        client.allSessions().find((s) => s.id === id && s.status === 'exited'),
      );
      assert.equal(session.requestCount, 25);
      assert.equal(session.earlierFiles, 2);
      assert.match(session.title, /^server\.log \+ 2 earlier files · logged /);
      assert.deepEqual(notes, [
        'Stage Lens: imported server.log.2, server.log.1, server.log as one log, in this order (oldest first).',
      ]);
    } finally {
      window.showInformationMessage = original;
      fs.rmSync(dir, { recursive: true, force: true });
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });
});
