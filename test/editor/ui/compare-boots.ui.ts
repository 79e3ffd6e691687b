// Compare Sessions on a log of two server boots (a server restarted after its deploy config
// changed, appending to one log: the upstream-rendered Qwen3-TTS log before the codec TTFT fix,
// then the one after it), imported as a person imports it: after the session is picked, its
// boots are offered ("All boots", "boot 1 · 6 requests · <model>"), boot 1 is the baseline and
// boot 2 of the same session the candidate, and the Compare panel's header names both boots. A
// log that merges two pods' offers its servers first, then the boots of the pod picked.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { uiTest } from '../harness/ui';
import type { Workbench } from '../harness/workbench';
import { importLog, waitText } from './uiHelpers';
import { bootsLog } from '../../integration/support/bootLog';

const MODEL = 'Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice';
const MERGED = path.resolve(__dirname, '../../fixtures/logs/merged-kubectl-two-servers-restart.log');

/** Waits for a row of the open picker whose text has `text`. */
async function waitForRow(wb: Workbench, text: string): Promise<void> {
  await wb.page
    .locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: text })
    .first()
    .waitFor({ state: 'visible', timeout: 30_000 });
}

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
      for (const offered of ['All boots', `boot ${3 - boot} · 6 requests · ${MODEL}`]) await waitForRow(wb, offered);
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

uiTest(
  "Compare Sessions: a merged log offers its servers, then the picked pod's own boots; pod 1's boot 2 vs pod 0 in the header",
  async (wb) => {
    await wb.page.setViewportSize({ width: 1400, height: 900 });
    const log = path.join(wb.workspace, 'compare-pods.log');
    fs.copyFileSync(MERGED, log);
    await wb.openFile('qwen3_tts.yaml');
    await importLog(wb, log);
    await wb.runCommandOpeningPicker('Stage Lens: Compare Sessions...');
    await pickRow(wb, 'compare-pods.log');
    await waitForRow(wb, 'All servers (12 requests)');
    await pickRow(wb, 'pod/vllm-omni-1/vllm (6 requests)');
    // The pod that restarted: its two boots of 3 requests each, not the log's 9 and 3.
    await waitForRow(wb, 'boot 1 · 3 requests');
    await pickRow(wb, 'boot 2 · 3 requests');
    await pickRow(wb, 'compare-pods.log');
    // The pod that never restarted has one boot: no boot is asked.
    await pickRow(wb, 'pod/vllm-omni-0/vllm (6 requests)');
    const panel = await wb.webview('Stage Lens: Compare', 60_000);
    await waitText(
      panel,
      '[data-testid="compare-title"]',
      (t) =>
        t ===
        'Stage Lens: compare-pods.log (boot 2, server pod/vllm-omni-1/vllm) → compare-pods.log (server pod/vllm-omni-0/vllm)',
      'both sides in the title',
      60_000,
    );
    await waitText(
      panel,
      '[data-testid="compare-candidate"]',
      (t) => t.startsWith('compare-pods.log (server pod/vllm-omni-0/vllm) · 6 requests'),
      "pod 0's 6 requests",
    );
    await wb.screenshot('compare-servers');
  },
  { timeoutMs: 240_000 },
);
