// Start Demo Server under a DESKTOP VS Code: the simulator ships inside the extension and is
// run with the extension host's own executable, which in a desktop VS Code is Electron, made to
// behave as Node by ELECTRON_RUN_AS_NODE=1 (src/commands/launch.ts). Only a desktop VS Code can
// check it: run the editor tests with STAGE_LENS_VSCODE_EXECUTABLE (test-electron); in the
// code-server harness (plain Node extension host) this test is skipped.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { StageLensApi } from '../../../src/extension';
import { stageLensExtension, waitFor } from './helpers';

describe('demo on a desktop VS Code', () => {
  it('the simulator runs on the Electron executable with ELECTRON_RUN_AS_NODE and is captured', async function () {
    if (process.versions.electron === undefined) {
      this.skip(); // not a desktop VS Code: the extension host is plain Node
      return;
    }
    this.timeout(90_000);
    const { client } = (await stageLensExtension().activate()) as StageLensApi;
    const id = await vscode.commands.executeCommand<string | null>('stageLens.startDemo');
    assert.ok(typeof id === 'string', 'Start Demo Server started no session');
    const session = await waitFor(
      'demo requests',
      () => {
        const s = client.allSessions().find((x) => x.id === id);
        return s !== undefined && s.requestCount >= 3 ? s : undefined;
      },
      60_000,
    );
    assert.ok(
      session.description.startsWith(process.execPath),
      `the demo did not run on ${process.execPath}: ${session.description}`,
    );
    // The simulator process: Electron's executable, running as Node (checked where /proc exists).
    const pids = (fs.existsSync('/proc') ? fs.readdirSync('/proc') : []).filter((p) => /^\d+$/.test(p));
    const simulator = pids.find((p) => {
      try {
        const argv = fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0');
        return argv[0] === process.execPath && argv.includes('simulate');
      } catch {
        return false;
      }
    });
    if (simulator !== undefined)
      assert.match(fs.readFileSync(`/proc/${simulator}/environ`, 'utf8'), /(^|\0)ELECTRON_RUN_AS_NODE=1(\0|$)/);
    await vscode.commands.executeCommand('stageLens.stopCapture');
  });
});
