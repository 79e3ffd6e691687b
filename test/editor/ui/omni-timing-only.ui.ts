// A log from a server at the default INFO level (only [OmniTiming] lines, printed by
// vLLM-Omni's own stats code), imported as a person would: command palette -> Import Log...,
// the path typed into the file dialog. The side panel says once what is missing and the fix,
// and shows each stage's time and the end-to-end time instead of an empty phase table.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { uiTest } from '../harness/ui';
import { sideBarWebview, waitText } from './uiHelpers';

const LOG = path.resolve(__dirname, '../../fixtures/upstream-rendered/qwen3tts-info-level-omnitiming-only.log');

uiTest(
  'Import Log of an INFO-level server: the missing stats tables said once, stage time and end to end shown',
  async (wb) => {
    await wb.page.setViewportSize({ width: 1400, height: 900 });
    // A deploy YAML open, as a user has (the extension is loaded with it).
    await wb.openFile('qwen3_tts.yaml');
    await wb.runCommand('Stage Lens: Import Log...');
    // VS Code's own file dialog (the web host's): type the path, accept it.
    const input = wb.page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible' });
    // The dialog fills in its start folder and lists it after it opens: type once it has, and
    // press Enter only when the typed path has stayed in the box.
    await wb.page
      .locator('.quick-input-widget .quick-input-list .monaco-list-row')
      .first()
      .waitFor({ state: 'visible', timeout: 30_000 });
    const deadline = Date.now() + 30_000;
    for (;;) {
      await input.fill(LOG);
      await wb.page.waitForTimeout(700);
      if ((await input.inputValue()) === LOG) break;
      if (Date.now() > deadline)
        throw new Error(`the file dialog did not take the path; it shows "${await input.inputValue()}"`);
    }
    await input.press('Enter');
    await wb.page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 30_000 });
    await wb.runCommand('Stage Lens: Open Latency Details');
    const view = await sideBarWebview(wb, 60_000);
    // The imported log is the session on screen (other tests' sessions share the storage folder).
    await waitText(
      view,
      '[data-testid="session-title"]',
      (t) => t.includes('qwen3tts-info-level'),
      'the imported log as the current session',
    );
    const notice = await waitText(
      view,
      '[data-testid="tables-missing"]',
      (t) => t.length > 0,
      'the tables-missing notice',
    );
    assert.match(notice, /^No request has a \[StageRequestStats\] table, only \[OmniTiming\] lines/);
    assert.match(notice, /Fix: restart the server with VLLM_LOGGING_LEVEL=DEBUG in its environment/);
    const text = await waitText(view, '#side-panel', (t) => /end to end/.test(t), 'the stage-time table');
    assert.equal(text.split('VLLM_LOGGING_LEVEL=DEBUG').length - 1, 1, 'said once in the side panel');
    assert.match(text, /stage time and end to end from \[OmniTiming\]/);
    assert.doesNotMatch(text, /stage-tables-missing/, 'not repeated as a finding');
    await wb.screenshot('omnitiming-only-side-panel');
  },
  { timeoutMs: 120_000 },
);
