// The status bar item when the language server does not answer: the server (the extension
// host's own child, dist/server.js) is frozen with SIGSTOP while the item asks for the summary
// of another session; after the wait the item says its numbers are not current and why. Then
// the server is killed: the client starts it again, and its first summary makes the item
// current, with the numbers of that session.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { StageLensApi } from '../../../src/extension';
import { importedFixture, stageLensExtension, waitFor } from './helpers';

/** The language server this extension host started (its child running our dist/server.js). */
function languageServerPid(extensionPath: string): number {
  const server = path.join(extensionPath, 'dist', 'server.js');
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const argv = fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      if (ppid === process.pid && argv.includes(server)) return Number(name);
    } catch {
      // gone meanwhile
    }
  }
  throw new Error(`no child of the extension host runs ${server}`);
}

describe('status bar when the language server does not answer', () => {
  it('says the numbers are not current, with the reason, and is current again once the server answers', async function () {
    this.timeout(120_000);
    const ext = stageLensExtension();
    const api = (await ext.activate()) as StageLensApi;
    const { client } = api;
    const a = await importedFixture(client, ext.extensionPath, 'qwen3tts-talker-first-audio-after-fix.log');
    const b = await importedFixture(client, ext.extensionPath, 'qwen3-omni-three-stage-transfers.log');
    client.setCurrent(a.id);
    await waitFor(
      'the item with the numbers of A',
      () => api.statusBar()?.text.startsWith(`$(history) ${a.requestCount} req · 1st audio p50 `) || undefined,
      20_000,
    );

    const server = languageServerPid(ext.extensionPath);
    process.kill(server, 'SIGSTOP');
    try {
      // B is put on screen: the item asks the frozen server for its summary.
      client.setCurrent(b.id);
      const stale = await waitFor(
        'the item marked not current',
        () => {
          const shown = api.statusBar();
          return shown !== null && shown.text.endsWith(' · not current') ? shown : undefined;
        },
        30_000,
      );
      assert.equal(stale.text, `$(warning) ${b.requestCount} req · not current`);
      assert.match(
        stale.tooltip,
        /\nNot current: the language server is not answering \(no answer within 10 s\); these are the last numbers it gave\.\n/,
      );
      process.kill(server, 'SIGKILL');
    } finally {
      try {
        process.kill(server, 'SIGCONT');
      } catch {
        // killed
      }
    }

    // The client starts the server again; B's first summary from it makes the item current.
    const current = await waitFor(
      'the item current again',
      () => {
        const shown = api.statusBar();
        return shown !== null && !shown.text.includes('not current') && shown.text.includes('p50') ? shown : undefined;
      },
      60_000,
    );
    // B's last stage: 33.7 s, as the side panel writes it.
    assert.match(current.text, new RegExp(`^\\$\\(history\\) ${b.requestCount} req · 1st audio p50 33\\.7 s$`));
    assert.doesNotMatch(current.tooltip, /Not current/);
    assert.notEqual(languageServerPid(ext.extensionPath), server);
  });
});
