// The language client stops quietly with a deploy YAML open and its hovers, inlay hints, code
// actions and lenses in flight (a window closing, the extension deactivating): every provider
// call settles, nothing is written to the client's log once that is closed (VS Code's channel
// throws "Channel has been closed", which the extension host log showed as "provider FAILED"),
// and no promise is left rejected. A client of its own, with its own server and storage, so the
// extension's client stays up for the other suites; the shutdown is the extension's own sequence
// (src/shutdown.ts), and LSP tracing is on so that a log closed too early is written to for sure.
// (The client logs its server process's exit after its stop has resolved: a log closed then
// would throw from an event handler, an uncaught error.)
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { StageLensClient } from '../../../src/client';
import { closableLog, closeClientThenLog } from '../../../src/shutdown';
import { openFixture, stageLensExtension, waitFor } from './helpers';

/** A log output channel that records what is written to it after dispose (VS Code then throws). */
function watchedLog(): { log: vscode.LogOutputChannel; late: string[]; closed: () => boolean } {
  const real = vscode.window.createOutputChannel('Stage Lens shutdown test', { log: true });
  const late: string[] = [];
  let closed = false;
  const log = new Proxy(real, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]): unknown => {
        if (key === 'dispose') closed = true;
        else if (closed) late.push(`${String(key)}: ${String(args[0]).slice(0, 120)}`);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { log, late, closed: () => closed };
}

describe('language client shutdown', () => {
  it('with provider calls in flight: all settle, the closed log is not written to, nothing rejects', async function () {
    this.timeout(60_000);
    const ext = stageLensExtension();
    await ext.activate();
    const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-shutdown-'));
    const context = {
      asAbsolutePath: (relative: string) => path.join(ext.extensionPath, relative),
      globalStorageUri: vscode.Uri.file(storage),
    } as unknown as vscode.ExtensionContext;
    const settings = vscode.workspace.getConfiguration('stageLens');
    await settings.update('trace.server', 'messages', vscode.ConfigurationTarget.Workspace);
    const rejected: string[] = [];
    const onRejection = (reason: unknown): void => {
      rejected.push(reason instanceof Error ? reason.message : String(reason));
    };
    process.on('unhandledRejection', onRejection);
    const { log: channel, late, closed } = watchedLog();
    // As activate() makes it.
    const log = closableLog(channel);
    try {
      const client = new StageLensClient(context, log);
      await client.start();
      const document = (await openFixture('qwen3_tts.yaml')).document;
      const keyAt = document.positionAt(document.getText().indexOf('stage_id') + 2);
      const whole = new vscode.Range(0, 0, document.lineCount, 0);
      // The server answers this document's hovers before the test goes on.
      await waitFor(
        'a hover over stage_id',
        async () =>
          (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', document.uri, keyAt))
            .length > 0,
        20_000,
      );
      const calls: Thenable<unknown>[] = [];
      const ask = (): void => {
        for (let line = 0; line < Math.min(document.lineCount, 12); line++) {
          calls.push(
            vscode.commands.executeCommand('vscode.executeHoverProvider', document.uri, new vscode.Position(line, 2)),
          );
        }
        calls.push(
          vscode.commands.executeCommand('vscode.executeInlayHintProvider', document.uri, whole),
          vscode.commands.executeCommand('vscode.executeCodeActionProvider', document.uri, whole),
          vscode.commands.executeCommand('vscode.executeCodeLensProvider', document.uri),
        );
      };
      ask();
      // What VS Code does to the extension's subscriptions when the window closes.
      closeClientThenLog(client, log).dispose();
      ask();
      const settled = await Promise.allSettled(calls);
      await client.stop();
      await waitFor('the log closed after the client stopped', () => closed(), 5_000);
      // The server process exits after the stop resolved; the client logs that too.
      await new Promise((r) => setTimeout(r, 1000));
      assert.deepEqual(late, [], 'written to the log after it was closed');
      assert.deepEqual(rejected, [], 'unhandled rejections');
      // VS Code cancels a command whose providers went away meanwhile (it logs no cancellation);
      // anything else is a provider failure.
      const failures = settled
        .filter((s): s is PromiseRejectedResult => s.status === 'rejected')
        .map((s) => String(s.reason))
        .filter((reason) => reason !== 'Canceled: Canceled');
      assert.deepEqual(failures, []);
    } finally {
      process.off('unhandledRejection', onRejection);
      await settings.update('trace.server', undefined, vscode.ConfigurationTarget.Workspace);
      fs.rmSync(storage, { recursive: true, force: true });
    }
  });
});
