// Stage Lens features as VS Code shows them: Start Demo Server captures the simulator end
// to end through the language server; the deploy YAML gets hovers, diagnostics, inlay
// hints and code lenses from the same server.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { StageLensApi } from '../../../src/extension';
import type { SessionInfo } from '../../../server/protocol';
import { RUN_DEMO_SCENARIO } from '../../../src/commands/launch';
import { openFixture, stageLensExtension, waitFor, workspaceFile } from './helpers';

async function api(): Promise<StageLensApi> {
  const ext = stageLensExtension();
  return (await ext.activate()) as StageLensApi;
}

describe('Stage Lens', () => {
  it('Start Demo Server: simulator -> capture -> live numbers, codec TTFT shown as not recorded', async function () {
    this.timeout(60_000);
    const { client } = await api();
    // The simulator runs the config open in the editor: one that turns talker_first_audio on.
    await openFixture('qwen3_tts_high_concurrency_mrv2_single_gpu.yaml');
    await vscode.commands.executeCommand('stageLens.startDemo');
    const session = await waitFor(
      'a demo session with requests',
      () => {
        const s = client.currentSession();
        return s !== null && s.requestCount >= 3 ? s : undefined;
      },
      45_000,
    );
    assert.equal(session.kind, 'launch');
    assert.match(session.description, /simulate/);
    const summary = await client.request('stageLens/summary', { sessionId: session.id });
    const codec = summary.stages.find((s) => s.stageKey === '1');
    assert.ok(codec !== undefined);
    assert.equal(codec.splitStates.ttftMs.notRecorded, codec.requestCount);
    const signature = summary.findings.find((f) => f.code === 'ttft-not-recorded' && f.stageId === 1);
    assert.match(signature?.message ?? '', /The deploy config qwen3_tts_high_concurrency_mrv2_single_gpu\.yaml agrees/);

    const out = path.join(os.tmpdir(), `stage-lens-export-${Date.now()}.json`);
    const exported = await client.request('stageLens/export', { sessionId: session.id, format: 'json', path: out });
    assert.ok(exported.requestCount >= 3);
    const json = JSON.parse(fs.readFileSync(out, 'utf8')) as { schema: number };
    assert.equal(json.schema, 1);

    await vscode.commands.executeCommand('stageLens.stopCapture');
    await waitFor(
      'capture stopped',
      () => {
        const s = client.currentSession();
        return s !== null && s.status !== 'running' && s.status !== 'starting' ? s : undefined;
      },
      15_000,
    );
  });

  it('Start Demo Server on a deploy config without talker_first_audio simulates that config: no finding says the session ran another', async function () {
    this.timeout(60_000);
    const { client } = await api();
    const editor = await openFixture('qwen3_tts.yaml');
    await vscode.commands.executeCommand('stageLens.startDemo');
    const session = await waitFor(
      'a demo session with requests',
      () => {
        const s = client.currentSession();
        return s !== null && s.deployConfig === editor.document.uri.fsPath && s.requestCount >= 3 ? s : undefined;
      },
      45_000,
    );
    assert.match(session.description, /--deploy-config \S*qwen3_tts\.yaml/);
    assert.doesNotMatch(session.description, /--talker-first-audio/);
    const summary = await client.request('stageLens/summary', { sessionId: session.id });
    // The codec's TTFT is recorded: without talker first audio there is no codec first-audio signature.
    const codec = summary.stages.find((s) => s.stageKey === '1');
    assert.equal(codec?.splitStates.ttftMs.notRecorded, 0);
    const contradictions = summary.findings.filter((f) =>
      /check that the session ran this config|is not the config this server ran/.test(f.message),
    );
    assert.deepEqual(contradictions, []);
    assert.ok(summary.findings.some((f) => / The deploy config qwen3_tts\.yaml agrees/.test(f.message)));

    await vscode.commands.executeCommand('stageLens.stopCapture');
    await waitFor(
      'capture stopped',
      async () => {
        const s = (await client.refreshSessions()).find((x) => x.id === session.id);
        return s !== undefined && s.status !== 'running' && s.status !== 'starting' ? s : undefined;
      },
      15_000,
    );
    await client.request('stageLens/matchDeployConfig', { sessionId: session.id, deployConfig: null });
  });

  it("Start Demo Server on a deploy config the simulator cannot run says why before launching; only the user's choice runs the demo scenario", async function () {
    this.timeout(60_000);
    const { client } = await api();
    // Four stages: no pipeline of the simulator has four (a name of neither TTS, Omni nor GLM-Image reads as Qwen3-Omni, three).
    const uri = workspaceFile('demo-four-stages.yaml');
    const stage = (id: number): string => `  - stage_id: ${id}\n    engine_args:\n      max_num_seqs: 4\n`;
    fs.writeFileSync(uri.fsPath, `stages:\n${[0, 1, 2, 3].map(stage).join('')}`);
    const window = vscode.window as { -readonly [K in keyof typeof vscode.window]: (typeof vscode.window)[K] };
    const original = window.showWarningMessage;
    const warnings: string[] = [];
    let answer: string | undefined;
    window.showWarningMessage = ((message: string, options: vscode.MessageOptions) => {
      warnings.push(`${message}\n${options.detail ?? ''}`);
      return Promise.resolve(answer);
    }) as unknown as typeof vscode.window.showWarningMessage;
    let launched: SessionInfo | undefined;
    try {
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
      const sessionsBefore = (await client.refreshSessions()).map((s) => s.id);
      const terminalsBefore = vscode.window.terminals.length;

      // Dismissed: nothing runs.
      await vscode.commands.executeCommand('stageLens.startDemo');
      assert.equal(warnings.length, 1);
      assert.match(warnings[0] ?? '', /^Stage Lens: the demo simulator cannot run demo-four-stages\.yaml\.\n/);
      assert.match(warnings[0] ?? '', /demo-four-stages\.yaml has 4 stages; scenario qwen3-omni runs 3/);
      assert.match(warnings[0] ?? '', new RegExp(`${RUN_DEMO_SCENARIO} simulates the demo's own scenario instead`));
      await new Promise((r) => setTimeout(r, 1_000));
      assert.deepEqual(
        (await client.refreshSessions()).map((s) => s.id),
        sessionsBefore,
        'no session was started',
      );
      assert.equal(vscode.window.terminals.length, terminalsBefore, 'no terminal was opened');

      // Chosen: the demo's own scenario, not matched to the file.
      answer = RUN_DEMO_SCENARIO;
      await vscode.commands.executeCommand('stageLens.startDemo');
      assert.equal(warnings.length, 2);
      launched = await waitFor(
        'the demo scenario launched',
        async () => (await client.refreshSessions()).find((s) => !sessionsBefore.includes(s.id)),
        20_000,
      );
      assert.match(launched.description, /simulate --scenario cold-start --talker-first-audio/);
      assert.doesNotMatch(launched.description, /--deploy-config/);
      assert.equal(launched.deployConfig, null);
    } finally {
      window.showWarningMessage = original;
      if (launched !== undefined) await client.request('stageLens/stop', { sessionId: launched.id });
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      fs.rmSync(uri.fsPath, { force: true });
    }
  });

  it('hovers explain talker_first_audio and async_chunk in a deploy YAML', async function () {
    this.timeout(30_000);
    const editor = await openFixture('qwen3_tts.yaml');
    const text = editor.document.getText();
    const at = text.indexOf('async_chunk');
    assert.ok(at >= 0);
    const hovers = await waitFor(
      'a hover',
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
    const content = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
    assert.match(content, /input/i);
  });

  it('code lenses: launch with this config and show latency per stage', async function () {
    this.timeout(30_000);
    const editor = await openFixture('qwen3_tts.yaml');
    const lenses = await waitFor(
      'code lenses',
      async () => {
        const l = await vscode.commands.executeCommand<vscode.CodeLens[]>(
          'vscode.executeCodeLensProvider',
          editor.document.uri,
        );
        return l.length > 0 ? l : undefined;
      },
      20_000,
    );
    const commands = lenses.map((l) => l.command?.command);
    assert.ok(commands.includes('stageLens.launchWithDeployConfig'));
    assert.ok(commands.includes('stageLens.openLatencyView'));
  });

  it('diagnostics: talker_first_audio without async_chunk is a warning; real configs stay clean', async function () {
    this.timeout(30_000);
    const clean = await openFixture('qwen3_tts_high_concurrency_mrv2_single_gpu.yaml');
    await new Promise((r) => setTimeout(r, 1500));
    assert.deepEqual(
      vscode.languages.getDiagnostics(clean.document.uri).map((d) => d.message),
      [],
    );
    const broken = workspaceFile('broken-first-audio.yaml');
    fs.writeFileSync(
      broken.fsPath,
      [
        'async_chunk: false',
        'model_runner: v2',
        'connectors:',
        '  connector_of_shared_memory:',
        '    name: SharedMemoryConnector',
        '    extra:',
        '      talker_first_audio: true',
        '      initial_codec_chunk_frames: 1',
        'stages:',
        '  - stage_id: 0',
        '    output_connectors:',
        '      to_stage_1: connector_of_shared_memory',
        '  - stage_id: 1',
        '    input_connectors:',
        '      from_stage_0: connector_of_shared_memory',
        '',
      ].join('\n'),
    );
    const doc = await vscode.workspace.openTextDocument(broken);
    await vscode.window.showTextDocument(doc);
    const diags = await waitFor(
      'a talker_first_audio diagnostic',
      () => {
        const d = vscode.languages.getDiagnostics(broken);
        return d.some((x) => /async_chunk/.test(x.message)) ? d : undefined;
      },
      20_000,
    );
    assert.ok(diags.every((d) => d.severity !== vscode.DiagnosticSeverity.Error || /yaml/i.test(d.message)));
  });
});
