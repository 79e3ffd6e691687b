// A deploy config's code lens "Latency Details for stage N" inside a real VS Code, the lens's
// own command and arguments run with the warning and pick list answered by the test: it shows
// the session matched to that config; the session on screen when its stages are the config's;
// and for a session of another pipeline (a three-stage Qwen3-Omni log on qwen3_tts.yaml) a
// warning naming both, offering to pick a session or to show it anyway, never a silent switch;
// nor an empty view for a session on screen that read no request.
// Of several sessions tied to the config, the live one, else the latest.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { StageLensApi } from '../../../src/extension';
import type { StageLensClient } from '../../../src/client';
import { SHOW_ANYWAY } from '../../../src/commands/matchDeployConfig';
import { PICK_SESSION } from '../../../src/commands/configLatency';
import { importedFixture, openFixture, stageLensExtension, waitFor, withAnsweredDialogs } from './helpers';

const PANEL = 'Stage Lens: Latency Details';

const panelOpen = (): boolean => vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.label === PANEL));

/** Runs the stage-0 lens of qwen3_tts.yaml with the warning answered by `warning` and the pick list by `pick`; the warnings shown. */
async function clickLens(answers: { warning?: string; pick?: string }): Promise<string[]> {
  const editor = await openFixture('qwen3_tts.yaml');
  const lenses = await waitFor('the Latency Details lens of stage 0', async () => {
    const all = await vscode.commands.executeCommand<vscode.CodeLens[]>(
      'vscode.executeCodeLensProvider',
      editor.document.uri,
    );
    return all.find((l) => l.command?.title === 'Latency Details for stage 0');
  });
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await waitFor('no panel open', () => !panelOpen());
  const command = lenses.command as vscode.Command;
  const args: unknown[] = command.arguments ?? [];
  return withAnsweredDialogs(answers, () => vscode.commands.executeCommand(command.command, ...args));
}

/** Unties every session from `file`, so a test starts with none shown there. */
async function unmatchAll(client: StageLensClient, file: string): Promise<void> {
  for (const s of await client.refreshSessions())
    if (s.deployConfig !== null && path.resolve(s.deployConfig) === path.resolve(file))
      await client.request('stageLens/matchDeployConfig', { sessionId: s.id, deployConfig: null });
}

describe('Latency Details for stage N (code lens)', () => {
  it("never shows another pipeline's session for the config without saying so", async function () {
    this.timeout(120_000);
    const ext = stageLensExtension();
    const { client } = (await ext.activate()) as StageLensApi;
    const file = (await openFixture('qwen3_tts.yaml')).document.uri.fsPath;
    const unmatch = (): Promise<void> => unmatchAll(client, file);
    await unmatch();
    const tts = await importedFixture(client, ext.extensionPath, 'qwen3tts-talker-first-audio-before-fix.log');
    const omni = await importedFixture(client, ext.extensionPath, 'qwen3-omni-three-stage-transfers.log');

    // The Omni session on screen, the warning dismissed: nothing shown, nothing switched.
    client.setCurrent(omni.id);
    let warnings = await clickLens({});
    assert.equal(warnings.length, 1, 'a warning instead of the Omni numbers');
    assert.match(warnings[0] ?? '', /the session on screen, .*three-stage.*, did not run qwen3_tts\.yaml/);
    assert.match(warnings[0] ?? '', /qwen3_tts\.yaml has stages 0 and 1; the session .* has stages 0, 1 and 2/);
    assert.equal(client.currentSession()?.id, omni.id);
    await new Promise((r) => setTimeout(r, 1_000));
    assert.ok(!panelOpen(), 'no panel opened');

    // "Show Anyway": the user chose it.
    warnings = await clickLens({ warning: SHOW_ANYWAY });
    assert.equal(warnings.length, 1);
    assert.equal(client.currentSession()?.id, omni.id);
    await waitFor(`${PANEL} open`, panelOpen, 5_000);

    // "Pick a Session...": the TTS session picked is matched to the config and shown.
    warnings = await clickLens({ warning: PICK_SESSION, pick: tts.id });
    assert.equal(warnings.length, 1, 'the pick of a fitting session asks nothing more');
    assert.equal(client.currentSession()?.id, tts.id);
    assert.equal(client.currentSession()?.deployConfig, file);
    await waitFor(`${PANEL} open`, panelOpen, 5_000);

    // The config has its session: the lens shows it, whatever is on screen.
    client.setCurrent(omni.id);
    warnings = await clickLens({});
    assert.deepEqual(warnings, []);
    assert.equal(client.currentSession()?.id, tts.id);
    await waitFor(`${PANEL} open`, panelOpen, 5_000);

    // No session matched, the one on screen has the config's stages: shown, no warning.
    await unmatch();
    warnings = await clickLens({});
    assert.deepEqual(warnings, []);
    assert.equal(client.currentSession()?.id, tts.id);
    await waitFor(`${PANEL} open`, panelOpen, 5_000);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('never opens an empty view for the config: a session on screen that read no request asks first', async function () {
    this.timeout(120_000);
    const ext = stageLensExtension();
    const { client } = (await ext.activate()) as StageLensApi;
    const file = (await openFixture('qwen3_tts.yaml')).document.uri.fsPath;
    await unmatchAll(client, file);
    const tts = await importedFixture(client, ext.extensionPath, 'qwen3tts-talker-first-audio-after-fix.log');
    // A deploy YAML imported by mistake: a finished session with no request and no stage.
    const started = await client.request('stageLens/import', {
      path: path.join(ext.extensionPath, 'test', 'fixtures', 'deploy', 'glm_image.yaml'),
    });
    const empty = await waitFor('the import of glm_image.yaml', async () => {
      const s = (await client.refreshSessions()).find((x) => x.id === started.id);
      return s !== undefined && s.status !== 'starting' && s.status !== 'running' ? s : undefined;
    });
    assert.equal(empty.requestCount, 0);

    client.setCurrent(empty.id);
    let warnings = await clickLens({});
    assert.equal(warnings.length, 1, 'a warning instead of an empty view');
    assert.match(
      warnings[0] ?? '',
      /the session on screen, glm_image\.yaml, has no requests to show for qwen3_tts\.yaml/,
    );
    assert.match(warnings[0] ?? '', /ended without a request read/);
    assert.equal(client.currentSession()?.id, empty.id);
    await new Promise((r) => setTimeout(r, 1_000));
    assert.ok(!panelOpen(), 'no panel opened');

    warnings = await clickLens({ warning: PICK_SESSION, pick: tts.id });
    assert.equal(warnings.length, 1);
    assert.equal(client.currentSession()?.id, tts.id);
    await waitFor(`${PANEL} open`, panelOpen, 5_000);
    await unmatchAll(client, file);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('shows the live session tied to the config, else the one imported last (as its inlay numbers do)', async function () {
    this.timeout(120_000);
    const ext = stageLensExtension();
    const { client } = (await ext.activate()) as StageLensApi;
    const file = (await openFixture('qwen3_tts.yaml')).document.uri.fsPath;
    await unmatchAll(client, file);
    const log = (name: string): string => path.join(ext.extensionPath, 'test', 'fixtures', 'upstream-rendered', name);
    // A log being followed (live until stopped), then another run imported after it, both with the config.
    const followed = await client.request('stageLens/tail', {
      path: log('qwen3tts-talker-first-audio-before-fix.log'),
      fromStart: true,
      deployConfig: file,
    });
    const imported = await client.request('stageLens/import', {
      path: log('qwen3tts-talker-first-audio-after-fix.log'),
      deployConfig: file,
    });
    const statusOf = async (id: string): Promise<string | undefined> =>
      (await client.refreshSessions()).find((s) => s.id === id)?.status;
    await waitFor('the import read whole', async () => (await statusOf(imported.id)) === 'exited');
    // The small import can end before the follow has opened its file (a loaded machine): both settled.
    await waitFor('the followed log being read', async () => (await statusOf(followed.id)) === 'running');

    client.setCurrent(imported.id);
    assert.deepEqual(await clickLens({}), []);
    assert.equal(client.currentSession()?.id, followed.id, 'the live session, though imported earlier');
    await waitFor(`${PANEL} open`, panelOpen, 5_000);

    await client.request('stageLens/stop', { sessionId: followed.id });
    await waitFor('the followed log stopped', async () => (await statusOf(followed.id)) === 'stopped');
    assert.deepEqual(await clickLens({}), []);
    assert.equal(client.currentSession()?.id, imported.id, 'the latest once none is live');
    await waitFor(`${PANEL} open`, panelOpen, 5_000);
    await unmatchAll(client, file);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});
