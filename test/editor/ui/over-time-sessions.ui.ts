// Over Time and Tail in Latency Details as a reviewer met them: two logs imported one after
// the other (command palette -> Import Log..., the path typed into VS Code's file dialog),
// the first zoomed in. The second starts from its own whole view with every request in it,
// its time axis ends with its log (09:31:58 on the log clock, not the 10 min step's 09:40),
// and the Tail tab says what a part's contribution to time to first audio is.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FrameLocator } from 'playwright-core';
import { uiTest } from '../harness/ui';
import { importLog, waitText } from './uiHelpers';
import { engineLinesBootsLog } from '../../integration/support/bootLog';

const FIXTURES = path.resolve(__dirname, '../../fixtures/upstream-rendered');
const TTS = path.join(FIXTURES, 'qwen3tts-talker-first-audio-after-fix.log');
const OMNI = path.join(FIXTURES, 'qwen3-omni-three-stage-transfers.log');
const PANEL = 'Stage Lens: Latency Details';

/** The t0/t1 of a chart's time axis (data attributes the panel writes at each draw), read at once. */
async function axisOf(panel: FrameLocator, testId: string): Promise<{ t0: number; t1: number }> {
  return panel.locator(`[data-testid="${testId}"]`).evaluate((el: { getAttribute(name: string): string | null }) => ({
    t0: Number(el.getAttribute('data-t0')),
    t1: Number(el.getAttribute('data-t1')),
  }));
}

uiTest(
  'Over Time: a zoom stays with its session, the axis ends with the log; Tail says what a contribution is',
  async (wb) => {
    await wb.page.setViewportSize({ width: 1500, height: 1000 });
    await wb.openFile('qwen3_tts.yaml');
    await importLog(wb, TTS);
    await wb.runCommand('Stage Lens: Open Latency Details');
    const panel = await wb.webview(PANEL);
    await waitText(panel, '[data-testid="session-title"]', (t) => t.includes('qwen3tts-talker'), 'the TTS log');

    // The Tail tab: the talker's prefill+decode median is its time before the first audio, said so.
    await panel.locator('[data-testid="tab-tail"]').click();
    const note = await waitText(panel, '[data-testid="tail-contribution-note"]', (t) => t !== '', 'the note');
    assert.equal(
      note,
      'Each part counts only up to time to first audio (stage 1 · code2wav): its excess and median are of its time before that first output, less than its own time where it runs on after it.',
    );
    await wb.screenshot('over-time-sessions-tail');

    // Over Time, zoomed in on the Each request chart (the Over Time chart follows).
    await panel.locator('[data-testid="tab-spans"]').click();
    await waitText(panel, '[data-testid="spans-status"]', (t) => t.startsWith('6 of 6 requests in view'), 'all six');
    const whole = await axisOf(panel, 'spans-canvas');
    await panel.locator('[data-testid="spans-canvas"]').focus();
    for (let k = 0; k < 4; k++) await panel.locator('[data-testid="spans-canvas"]').press('+');
    const deadline = Date.now() + 20_000;
    while ((await axisOf(panel, 'overtime-canvas')).t0 <= whole.t0) {
      if (Date.now() > deadline) throw new Error('the zoom did not reach the Over Time chart');
      await wb.page.waitForTimeout(200);
    }
    await wb.screenshot('over-time-sessions-zoomed');

    // Another log: its whole view, every request in it; the axis ends with the log.
    await importLog(wb, OMNI);
    await waitText(panel, '[data-testid="session-title"]', (t) => t.includes('qwen3-omni'), 'the Omni log', 60_000);
    await waitText(panel, '[data-testid="spans-status"]', (t) => t.startsWith('3 of 3 requests in view'), 'all three');
    const top = await axisOf(panel, 'overtime-canvas');
    const lastFinish = Date.UTC(2026, 9, 22, 9, 31, 58, 500);
    assert.ok(top.t1 > lastFinish && top.t1 < lastFinish + 5_000, new Date(top.t1).toISOString());
    assert.match(
      await waitText(panel, '[data-testid="overtime-status"]', (t) => t !== '', 'the status'),
      /^rolling over 30 min, a step every 10 min/,
    );
    await wb.screenshot('over-time-sessions-next');
  },
  { timeoutMs: 180_000 },
);

uiTest(
  "Over Time of one boot: its time axis reads as a clock, its caption says the gauges are that boot's",
  async (wb) => {
    await wb.page.setViewportSize({ width: 1500, height: 1000 });
    // Two boots, each printing its engine's load (boot 1 once more just before the restart).
    const log = path.join(wb.workspace, 'server.log');
    fs.writeFileSync(log, engineLinesBootsLog());
    await wb.openFile('qwen3_tts.yaml');
    await importLog(wb, log);
    await wb.runCommand('Stage Lens: Open Latency Details');
    const panel = await wb.webview(PANEL);
    await waitText(panel, '[data-testid="session-title"]', (t) => t.includes('server.log'), 'the log');
    await panel.locator('[data-testid="tab-spans"]').click();
    const scope = '[data-testid="overtime-scope"]';
    const ticks = (): Promise<string> =>
      panel
        .locator('[data-testid="overtime-canvas"]')
        .evaluate((el: { getAttribute(name: string): string | null }) => el.getAttribute('data-ticks') ?? '');

    await panel.locator('[data-testid="boot-pick"]').selectOption('1');
    await waitText(
      panel,
      scope,
      (t) => t === "6 of 9 requests: boot 1. Running, waiting and KV cache usage: boot 1's readings only.",
      "boot 1's caption",
    );
    // Boot 1's requests span seconds: ticks on whole seconds, read as the log prints them.
    const deadline = Date.now() + 20_000;
    let labels = await ticks();
    while (!labels.startsWith('07:12') && Date.now() < deadline) {
      await wb.page.waitForTimeout(200);
      labels = await ticks();
    }
    const drawn = labels.split(' ');
    assert.ok(drawn.length >= 2, labels);
    for (const l of drawn) assert.match(l, /^07:12:\d\d$/, labels);
    // Its percentiles are of the targets boot 1's requests measured: its pipeline has no stage 2.
    const offered = await panel
      .locator('[data-testid="overtime-metric"] option')
      .evaluateAll((os: { getAttribute(name: string): string | null }[]) => os.map((o) => o.getAttribute('value')));
    assert.ok(offered.length > 0 && !offered.some((v) => v?.startsWith('2.')), offered.join(', '));
    await wb.screenshot('over-time-one-boot');

    // Cold left out: the requests lose their cold one, the gauges nothing, and the caption says why.
    await panel.locator('[data-testid="exclude-cold"]').check();
    await waitText(
      panel,
      scope,
      (t) =>
        t ===
        "5 of 9 requests: boot 1 · cold left out. Running, waiting and KV cache usage: boot 1's readings only, cold left out or not (they are the engines' load, not a request's).",
      'the caption with cold left out',
    );
    await wb.screenshot('over-time-one-boot-cold');
  },
  { timeoutMs: 180_000 },
);
