// Launch With This Deploy Config through the user's own command setting, in a real VS Code:
// the command (an argument vector in stageLens.serverCommand) runs the simulator WITHOUT
// --debug-tables, so, like a real vLLM-Omni server, it prints its stats tables only because
// the product launches it with stageLens.serverEnv's VLLM_LOGGING_LEVEL=DEBUG. The phase
// split must appear; if the product stopped setting the level, only [OmniTiming] lines would.
import assert from 'node:assert/strict';
import * as net from 'node:net';
import * as vscode from 'vscode';
import type { StageLensApi } from '../../../src/extension';
import { openFixture, stageLensExtension, waitFor } from './helpers';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

describe("Launch through the user's command setting", () => {
  const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('stageLens');

  after(async () => {
    await config().update('serverCommand', undefined, vscode.ConfigurationTarget.Workspace);
    await config().update('port', undefined, vscode.ConfigurationTarget.Workspace);
  });

  it('shows the phase split: the product launches the server at DEBUG', async function () {
    this.timeout(90_000);
    const { client } = (await stageLensExtension().activate()) as StageLensApi;
    const port = await freePort();
    const cli = vscode.Uri.joinPath(stageLensExtension().extensionUri, 'dist', 'cli.js').fsPath;
    // The user's command: an argument vector with ${port}; no --debug-tables, no environment.
    await config().update(
      'serverCommand',
      [
        process.execPath,
        cli,
        'simulate',
        '--scenario',
        'qwen3-tts',
        '--rps',
        '8',
        '--speed',
        '4',
        '--seed',
        '5',
        '--port',
        '${port}',
      ],
      vscode.ConfigurationTarget.Workspace,
    );
    await config().update('port', port, vscode.ConfigurationTarget.Workspace);
    assert.deepEqual(config().get('serverEnv'), { VLLM_LOGGING_LEVEL: 'DEBUG' }, 'the default environment');

    const editor = await openFixture('qwen3_tts.yaml');
    await vscode.commands.executeCommand('stageLens.launchWithDeployConfig', editor.document.uri);
    const session = await waitFor(
      'the launched session with 4 requests',
      () => {
        const s = client.currentSession();
        return s !== null && s.kind === 'launch' && s.requestCount >= 4 ? s : undefined;
      },
      60_000,
      250,
    );
    assert.match(session.description, /simulate --scenario qwen3-tts/);
    assert.doesNotMatch(session.description, /--debug-tables/);
    assert.equal(session.deployConfig, editor.document.uri.fsPath);

    try {
      await checkPhaseSplit(client, session.id);
    } finally {
      await vscode.commands.executeCommand('stageLens.stopCapture');
      await waitFor(
        'capture stopped',
        () => {
          const s = client.currentSession();
          return s !== null && s.status !== 'running' && s.status !== 'starting' ? s : undefined;
        },
        15_000,
      );
    }
  });

  async function checkPhaseSplit(client: StageLensApi['client'], sessionId: string): Promise<void> {
    const summary = await client.request('stageLens/summary', { sessionId });
    assert.equal(summary.tablesMissing, null, `the stats tables were printed: ${summary.tablesMissing?.message ?? ''}`);
    const talker = summary.stages.find((s) => s.stageKey === '0');
    const codec = summary.stages.find((s) => s.stageKey === '1');
    assert.ok(talker !== undefined && codec !== undefined);
    // The demo's talker emits one output (Model Runner V2 + async chunk): its prefill is kept as prefill+decode.
    assert.ok(
      (talker.split.prefillMs?.count ?? 0) + (talker.prefillDecodeMs?.count ?? 0) >= 4,
      'talker prefill (or prefill+decode) measured',
    );
    assert.ok((talker.split.queuedMs?.count ?? 0) >= 4, 'talker queued measured');
    assert.ok((codec.split.inputWaitMs?.count ?? 0) >= 4, 'codec input wait measured');
    // The metrics URL came from the checked port setting.
    await waitFor(
      'a /metrics scrape',
      async () => ((await client.request('stageLens/summary', { sessionId })).histograms.length > 0 ? true : undefined),
      20_000,
      250,
    );
  }

  it('a bad port is refused with the setting named, and nothing is launched', async function () {
    this.timeout(30_000);
    const { client } = (await stageLensExtension().activate()) as StageLensApi;
    await config().update('port', '1@evil.example', vscode.ConfigurationTarget.Workspace);
    const before = client.allSessions().length;
    const editor = await openFixture('qwen3_tts.yaml');
    // The command reports the error itself (a message with Open Settings) and resolves.
    await vscode.commands.executeCommand('stageLens.launchWithDeployConfig', editor.document.uri);
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(client.allSessions().length, before, 'no session was started');
    await config().update('port', undefined, vscode.ConfigurationTarget.Workspace);
  });
});
