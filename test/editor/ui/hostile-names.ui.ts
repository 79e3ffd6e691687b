// Text from a log shown in VS Code's own UI keeps the form it was written in. A log file named
// `$(zap) run.log` is said imported in the status bar and listed by Open Session... as that
// name, not with a lightning icon; a log
// that says it loaded `[Fix](command:workbench.action.openSettings)/qwen3_tts.yaml` is offered
// the workspace's qwen3_tts.yaml in a notification that shows that path as text, with no link
// that would run the command.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { uiTest } from '../harness/ui';
import { explorerRow, importFromContextMenu, sideBarWebview, waitText } from './uiHelpers';

const SAMPLE = path.resolve(__dirname, '../../../samples/qwen3-tts-first-audio-cold-start.log');
const DEPLOY = path.resolve(__dirname, '../../fixtures/deploy/qwen3_tts.yaml');
const LOG_NAME = '$(zap) run.log';
const LOGGED_CONFIG = '[Fix](command:workbench.action.openSettings)/qwen3_tts.yaml';

uiTest(
  "Icons and links in a log's names are shown as text: Open Session... and the deploy-config offer",
  async (wb) => {
    await wb.page.setViewportSize({ width: 1400, height: 900 });
    const [first, ...rest] = fs.readFileSync(SAMPLE, 'utf8').split('\n');
    const loaded = `(APIServer pid=4242) INFO 08-21 18:00:00 [vllm_omni/config/stage_config.py:120] Loaded deploy config from ${LOGGED_CONFIG}`;
    fs.writeFileSync(path.join(wb.workspace, LOG_NAME), [first, loaded, ...rest].join('\n'));
    fs.copyFileSync(DEPLOY, path.join(wb.workspace, 'qwen3_tts.yaml'));
    await importFromContextMenu(wb, await explorerRow(wb, LOG_NAME));
    // The status bar's word of the import (shown for 10 s): the name as written.
    const imported = wb.page.locator('.part.statusbar .statusbar-item', { hasText: 'Stage Lens imported' });
    await imported.waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal((await imported.innerText()).trim(), `Stage Lens imported ${LOG_NAME}`);

    const view = await sideBarWebview(wb, 60_000);
    await waitText(view, '[data-testid="session-meta"]', (t) => /imported · 25 requests/.test(t), 'the 25 requests');

    // The offer of the workspace's file of the logged name: the path as written, no link in it.
    const offer = wb.page.locator('.notifications-toasts .notification-list-item-message', {
      hasText: 'which is not on this machine',
    });
    await offer.waitFor({ state: 'visible', timeout: 30_000 });
    const offerText = (await offer.innerText()).replace(/\u200b/g, '');
    assert.ok(offerText.includes(`names the deploy config ${LOGGED_CONFIG}, which`), offerText);
    assert.ok(offerText.includes(LOG_NAME), offerText);
    assert.equal(await offer.locator('a').count(), 0, 'a link in the notification');
    await wb.screenshot('hostile-names-offer');

    // Open Session...: the imported log's row reads its file name, with no icon drawn.
    await wb.runCommandOpeningPicker('Stage Lens: Open Session...');
    const list = wb.page.locator('.quick-input-widget .quick-input-list');
    const row = list.locator('.monaco-list-row', { hasText: 'run.log' }).first();
    await row.waitFor({ state: 'visible', timeout: 10_000 });
    const label = await row.locator('.label-name').first().innerText();
    assert.ok(label.startsWith(LOG_NAME), `the row's label: ${label}`);
    assert.equal(await list.locator('.codicon-zap').count(), 0, 'a zap icon in the session list');
    await wb.screenshot('hostile-names-open-session');
    await wb.page.keyboard.press('Escape');
  },
  { timeoutMs: 150_000 },
);
