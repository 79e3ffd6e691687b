// A log and its rotations in the workspace, imported as a person would: select the three files in
// the Explorer, right-click, Import Log.... They are read as one log, oldest first (a table cut by
// a rotation read whole): the side panel shows the 25 requests of the whole log, named by the
// current log and the files before it. A file that is no log has no such entry.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { uiTest } from '../harness/ui';
import { explorerRow, importFromContextMenu, sideBarWebview, waitText } from './uiHelpers';

const SAMPLE = path.resolve(__dirname, '../../../samples/qwen3-tts-first-audio-cold-start.log');

uiTest(
  'Explorer: a log and its rotations selected together and imported are read as one log, oldest first',
  async (wb) => {
    await wb.page.setViewportSize({ width: 1400, height: 900 });
    const lines = fs.readFileSync(SAMPLE, 'utf8').split(/(?<=\n)/);
    const parts = [lines.slice(0, 503), lines.slice(503, 977), lines.slice(977)].map((p) => p.join(''));
    const names = ['server.log.2', 'server.log.1', 'server.log'];
    names.forEach((name, i) => fs.writeFileSync(path.join(wb.workspace, name), parts[i] ?? ''));
    for (const name of names) await explorerRow(wb, name);
    const row = (name: string) => wb.page.getByRole('treeitem', { name, exact: true });
    const selected = wb.page.locator('.explorer-folders-view .monaco-list-row[aria-selected="true"]');
    // The three rows are next to each other: a click on the first, Shift+click on the last. A tree
    // that refreshes between the clicks (the watcher reporting a file late) drops the anchor, so
    // the two clicks are made again until the three rows are selected.
    for (let tries = 1; ; tries++) {
      await row('server.log').click();
      await wb.page.waitForTimeout(500);
      await row('server.log.2').click({ modifiers: ['Shift'] });
      const deadline = Date.now() + 5_000;
      while ((await selected.count()) !== 3 && Date.now() < deadline) await wb.page.waitForTimeout(200);
      if ((await selected.count()) === 3) break;
      if (tries === 4) throw new Error(`${await selected.count()} files selected, not 3`);
    }
    await importFromContextMenu(wb, row('server.log.2'));

    const view = await sideBarWebview(wb, 60_000);
    const title = await waitText(
      view,
      '[data-testid="session-title"]',
      (t) => t.startsWith('server.log') && t.includes('logged'),
      'the imported log as the current session',
    );
    assert.match(title, /^server\.log(?: \(\d+\))? \+ 2 earlier files · logged 08-21 /);
    await waitText(view, '[data-testid="session-meta"]', (t) => /imported · 25 requests/.test(t), 'the 25 requests');
    await wb.screenshot('rotated-logs-imported');

    // Only logs have the entry: a deploy YAML's context menu does not.
    await wb.runCommand('View: Show Explorer');
    await row('qwen3_tts.yaml').click({ button: 'right' });
    await wb.page.locator('.monaco-menu .action-item', { hasText: 'Copy Path' }).waitFor({ state: 'visible' });
    const item = wb.page.locator('.monaco-menu .action-item', { hasText: 'Import Log...' });
    assert.equal(await item.count(), 0, 'Import Log... on a YAML file');
    await wb.page.keyboard.press('Escape');
  },
  { timeoutMs: 120_000 },
);
