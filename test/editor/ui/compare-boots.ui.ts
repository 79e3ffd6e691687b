// Compare Sessions on a log of two server boots (a server restarted after its deploy config
// changed, appending to one log: the upstream-rendered Qwen3-TTS log before the codec TTFT fix,
// then the one after it), imported as a person imports it: after the session is picked, its
// boots are offered ("All boots", "boot 1 · 6 requests · <model>"), boot 1 is the baseline and
// boot 2 of the same session the candidate, and the Compare panel's header names both boots.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { uiTest } from '../harness/ui';
import type { Workbench } from '../harness/workbench';
import { importLog, waitText } from './uiHelpers';
import { bootsLog } from '../../integration/support/bootLog';

const MODEL = 'Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice';

/** Clicks the first row of the open picker whose text has `text`, once the row is there. */
async function pickRow(wb: Workbench, text: string): Promise<void> {
  const row = wb.page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: text }).first();
  await row.waitFor({ state: 'visible', timeout: 30_000 });
  await row.click();
}

uiTest(
  'Compare Sessions: a log of two boots offers its boots; boot 1 vs boot 2 in the header',
  async (wb) => {
    await wb.page.setViewportSize({ width: 1400, height: 900 });
    const log = path.join(wb.workspace, 'server.log');
    fs.writeFileSync(
      log,
      bootsLog([
        { model: MODEL, fixture: 'qwen3tts-talker-first-audio-before-fix.log' },
        { model: MODEL, fixture: 'qwen3tts-talker-first-audio-after-fix.log' },
      ]),
    );
    await wb.openFile('qwen3_tts.yaml');
    await importLog(wb, log);
    await wb.runCommandOpeningPicker('Stage Lens: Compare Sessions...');
    for (const boot of [1, 2]) {
      await pickRow(wb, 'server.log');
      // Both boots and the whole log are offered.
      for (const offered of ['All boots', `boot ${3 - boot} · 6 requests · ${MODEL}`])
        await wb.page
          .locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: offered })
          .first()
          .waitFor({ state: 'visible', timeout: 30_000 });
      await pickRow(wb, `boot ${boot} · 6 requests · ${MODEL}`);
    }
    const panel = await wb.webview('Stage Lens: Compare', 60_000);
    await waitText(
      panel,
      '[data-testid="compare-title"]',
      (t) => t === 'Stage Lens: server.log (boot 1) → server.log (boot 2)',
      'both boots in the title',
      60_000,
    );
    await waitText(
      panel,
      '[data-testid="compare-baseline"]',
      (t) => t.startsWith('server.log (boot 1) · 6 requests'),
      'boot 1',
    );
    await wb.screenshot('compare-boots');
  },
  { timeoutMs: 240_000 },
);
