// A log from a server at the default INFO level (only [OmniTiming] lines, printed by
// vLLM-Omni's own stats code), imported as a person would: command palette -> Import Log...,
// the path typed into the file dialog. The side panel says once what is missing and the fix,
// and shows each stage's time and the end-to-end time instead of an empty phase table. Then a
// log of vLLM-Omni's format before February 2026 whose one request had no output token: its
// time per token row reads "not recorded", and its e2e_tpt of 0.0 is said under the table in
// the CLI's words, never taken as 0 ms; its trend and the status bar both name end to end. A
// log of the vllm-omni#891 branch (stats tables, and the dict with its e2e_tpt before them) keeps
// its phase table, with the end to end and time per token in a table under it.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { uiTest } from '../harness/ui';
import { importLog, sideBarWebview, waitText } from './uiHelpers';

const LOG = path.resolve(__dirname, '../../fixtures/upstream-rendered/qwen3tts-info-level-omnitiming-only.log');
const LEGACY_LOG = path.resolve(__dirname, '../../fixtures/logs/legacy-offline-one-request.log');
const PR891_LOG = path.resolve(__dirname, '../../fixtures/logs/pr891-stage-wall-time-list.log');

uiTest(
  'Import Log of an INFO-level server: the missing stats tables said once, stage time and end to end shown; a 0.0 time per token left out',
  async (wb) => {
    await wb.page.setViewportSize({ width: 1400, height: 900 });
    // A deploy YAML open, as a user has (the extension is loaded with it).
    await wb.openFile('qwen3_tts.yaml');
    await importLog(wb, LOG);
    await wb.runCommand('Stage Lens: Open Latency Details');
    const view = await sideBarWebview(wb, 60_000);
    // The imported log is the session on screen (other tests' sessions share the storage folder).
    const title = await waitText(
      view,
      '[data-testid="session-title"]',
      (t) => t.includes('qwen3tts-info-level') && t.includes('logged'),
      'the imported log as the current session',
    );
    // Named by its file and its log's span (an ordinal if the storage already has an import of
    // it), never its import time; "imported" is said once, by the status.
    assert.match(title, /^qwen3tts-info-level-omnitiming-only\.log(?: \(\d+\))? · logged 10-19 07:12:05 – 07:12:12$/);
    const meta = await waitText(view, '[data-testid="session-meta"]', (t) => t.startsWith('imported'), 'the status');
    assert.equal(`${title} ${meta}`.split('imported').length - 1, 1, `${title} / ${meta}`);
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

    await importLog(wb, LEGACY_LOG);
    await waitText(
      view,
      '[data-testid="session-title"]',
      (t) => t.startsWith('legacy-offline-one-request.log'),
      'the pre-February-2026 log as the current session',
    );
    const row = '[data-testid="stage-row"][data-stage-key="timePerToken"]';
    await waitText(view, `${row} .stage-id`, (t) => t === 'time per token', 'the time per token row');
    assert.equal(await view.locator(`${row} td[data-col="time"] .v`).textContent(), 'not recorded');
    const leftOut = await waitText(view, '[data-testid="left-out-note"]', (t) => t.length > 0, 'the left-out note');
    assert.equal(
      leftOut,
      "Left out of the percentiles: time per token: 1 of 1 request printed 0.0, the server's default for a request with no output token (it divides by the tokens only when there are some), not a time: left out, not counted as 0 ms.",
    );
    // No stage printed a first output: the trend and the status bar name one figure, end to end.
    await waitText(view, '.trend-label', (t) => t === 'p50 end to end', 'the trend on end to end');
    const status = wb.page.locator('.part.statusbar .statusbar-item[id*="stageLens.status"]').first();
    let statusText = '';
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; await wb.page.waitForTimeout(250)) {
      statusText = (await status.textContent()) ?? '';
      if (statusText.endsWith('1 req · e2e p50 3.76 s')) break;
    }
    assert.match(statusText, /1 req · e2e p50 3\.76 s$/);
    await wb.screenshot('legacy-time-per-token-side-panel');
  },
  { timeoutMs: 180_000 },
);

uiTest(
  'Import Log of a vllm-omni#891 log: its phase table, and under it end to end and time per token as analyze prints them',
  async (wb) => {
    await wb.page.setViewportSize({ width: 1400, height: 900 });
    // The extension loads with a deploy YAML open, as a user has one.
    await wb.openFile('qwen3_tts.yaml');
    await importLog(wb, PR891_LOG);
    await wb.runCommand('Stage Lens: Open Latency Details');
    const view = await sideBarWebview(wb, 60_000);
    await waitText(
      view,
      '[data-testid="session-title"]',
      (t) => t.startsWith('pr891-stage-wall-time-list.log'),
      'the #891 log as the current session',
    );
    const row = '[data-testid="e2e-row"][data-stage-key="timePerToken"]';
    await waitText(view, `${row} .stage-id`, (t) => t === 'time per token', 'the time per token row');
    // analyze: `time per token  1   5.667   5.667   5.667   5.667`, under `end to end  1  11,691 ...`.
    assert.equal(await view.locator(`${row} td[data-col="time"] .v`).textContent(), '5.67');
    assert.equal(
      await view.locator('[data-testid="e2e-row"][data-stage-key="e2e"] td[data-col="time"] .v').textContent(),
      '11,691',
    );
    // The phase table stays: its stages, no end-to-end row among them.
    assert.equal(await view.locator('[data-testid="stage-row"]').count(), 3);
    assert.equal(await view.locator('[data-testid="e2e-left-out-note"]').isVisible(), false);
    await wb.screenshot('pr891-time-per-token-side-panel');
  },
  { timeoutMs: 120_000 },
);
