// Stop Capture stops the session on screen, says what it stopped, and never stops a background
// capture silently: when the session on screen is not capturing, the user picks which one.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SessionInfo } from '../../../server/protocol';
import type { StageLensApi } from '../../../src/extension';
import { stageLensExtension, waitFor } from './helpers';

const isLive = (s: SessionInfo | undefined): boolean =>
  s !== undefined && (s.status === 'running' || s.status === 'starting');

describe('Stop Capture', () => {
  let dir = '';
  after(() => {
    if (dir !== '') fs.rmSync(dir, { recursive: true, force: true });
  });

  it('stops the session on screen, not a background one; with none on screen, asks which', async function () {
    this.timeout(60_000);
    const { client } = (await stageLensExtension().activate()) as StageLensApi;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-stop-'));
    const logA = path.join(dir, 'a.log');
    const logB = path.join(dir, 'b.log');
    fs.writeFileSync(logA, '');
    fs.writeFileSync(logB, '');
    const a = await client.request('stageLens/tail', { path: logA, fromStart: true });
    const b = await client.request('stageLens/tail', { path: logB, fromStart: true });
    const byId = (id: string): SessionInfo | undefined => client.allSessions().find((s) => s.id === id);
    await waitFor('both captures running', () => isLive(byId(a.id)) && isLive(byId(b.id)), 15_000);

    // B was started last, A is on screen: A stops, B keeps capturing.
    client.setCurrent(a.id);
    const stopped = await vscode.commands.executeCommand<SessionInfo | undefined>('stageLens.stopCapture');
    assert.equal(stopped?.id, a.id, 'Stop Capture stopped another session than the one on screen');
    assert.match(stopped?.title ?? '', /^log a\.log · /, 'the stopped session is named by its title');
    await waitFor('A stopped', () => !isLive(byId(a.id)), 10_000);
    assert.equal(isLive(byId(b.id)), true, 'the background capture was stopped');

    // A (on screen) is no longer capturing: the user is asked; accepting the one offered stops B.
    const running = vscode.commands.executeCommand<SessionInfo | undefined>('stageLens.stopCapture');
    let answered: SessionInfo | undefined | 'pending' = 'pending';
    void running.then((r) => {
      answered = r;
    });
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(answered, 'pending', 'a background capture was stopped without asking');
    assert.equal(isLive(byId(b.id)), true);
    const result = await waitFor(
      'the pick to be accepted',
      async () => {
        await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
        return answered === 'pending' ? undefined : answered;
      },
      15_000,
      300,
    );
    assert.equal(result?.id, b.id);
    await waitFor('B stopped', () => !isLive(byId(b.id)), 10_000);
  });
});
