// Stage Lens as a person meets it in a window: nothing of it on a YAML file that is not a
// deploy config (no play button, no status bar item, no session commands in the palette);
// the play button on a deploy config; Start Demo Server does not take the keyboard (a
// palette opened right after it stays open); then the status bar item and the session
// commands appear, and the deploy YAML shows the session's numbers as inlay hints.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { uiTest } from '../harness/ui';
import type { Workbench } from '../harness/workbench';
import { sideBarWebview, waitText } from './uiHelpers';

const PLAY = '.editor-actions .action-label[aria-label*="Launch With This Deploy Config"]';
const STATUS = '.part.statusbar .statusbar-item[id*="stageLens.status"]';

interface Doc {
  querySelectorAll(s: string): ArrayLike<{ getAttribute(n: string): string | null }>;
}

/** The palette's rows for `query` once the list has settled (same rows for 500 ms). */
async function paletteRows(wb: Workbench, query: string): Promise<string[]> {
  await wb.page.keyboard.press('F1');
  const input = wb.page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible' });
  await input.fill(`>${query}`);
  let last = '';
  let since = Date.now();
  for (;;) {
    const rows = await wb.page.evaluate(() =>
      Array.from(
        (globalThis as unknown as { document: Doc }).document.querySelectorAll(
          '.quick-input-widget .quick-input-list .monaco-list-row',
        ),
      ).map((r) => r.getAttribute('aria-label') ?? ''),
    );
    const key = rows.join('|');
    if (key !== last) {
      last = key;
      since = Date.now();
    } else if (Date.now() - since > 500) {
      await wb.page.keyboard.press('Escape');
      return rows;
    }
    await wb.page.waitForTimeout(100);
  }
}

uiTest(
  'first minutes: nothing on other YAML files; play button on deploy configs; Start Demo Server keeps the keyboard; then the session commands, status bar item and inlay numbers',
  async (wb) => {
    await wb.page.setViewportSize({ width: 1500, height: 950 });
    fs.writeFileSync(
      path.join(wb.workspace, 'values.yaml'),
      'replicaCount: 2\nimage:\n  repository: vllm/vllm-openai\n  tag: latest\n',
    );

    // ------------------------------------------------ a YAML file that is not a deploy config
    await wb.openFile('values.yaml');
    await wb.page.waitForTimeout(2000); // activation (onLanguage:yaml) has had its time
    assert.equal(
      await wb.page.locator(PLAY).count(),
      0,
      'the play button shows on a YAML file that is not a deploy config',
    );
    assert.equal(await wb.page.locator(STATUS).count(), 0, 'a status bar item without a session');
    const before = await paletteRows(wb, 'Stage Lens: ');
    assert.ok(
      before.some((r) => r.startsWith('Stage Lens: Start Demo Server')),
      `palette: ${before.join(' | ')}`,
    );
    for (const hidden of [
      'Stage Lens: Stop Capture',
      'Stage Lens: Export Session...',
      'Stage Lens: Launch With This Deploy Config',
    ]) {
      assert.ok(!before.some((r) => r.startsWith(hidden)), `"${hidden}" is offered without a session / deploy config`);
    }

    // ------------------------------------------------ a deploy config
    await wb.openFile('qwen3_tts.yaml');
    await wb.page.locator(PLAY).first().waitFor({ timeout: 15_000 });
    await wb.screenshot('first-minutes-deploy-yaml');

    // ------------------------------------------------ the side bar before any session: every way to start one
    await wb.runCommand('Stage Lens: Focus on Latency Summary View');
    const emptyView = await sideBarWebview(wb, 30_000);
    await emptyView.locator('[data-testid="empty-state"]').waitFor({ timeout: 30_000 });
    assert.deepEqual(await emptyView.locator('.start-group h3').allTextContents(), [
      'Try it',
      'Run your server',
      'Watch a running server',
      'Read a log or a saved session',
    ]);
    const offered = await emptyView.locator('[data-testid="empty-state"] button').allTextContents();
    // Each button's words are a palette command's title (the palette's "..." an ellipsis here).
    for (const label of offered) {
      const title = `Stage Lens: ${label.replace(/…$/, '...')}`;
      const rows = await paletteRows(wb, title);
      assert.ok(
        rows.some((r) => r.startsWith(title)),
        `"${label}" is no palette command: ${rows.join(' | ')}`,
      );
    }
    assert.equal(offered.length, 8, offered.join(' | '));
    await wb.screenshot('first-minutes-empty-state');
    // A button runs the palette's command: its own picker or input opens, in the workbench.
    for (const [testId, title] of [
      ['run-attachMetrics', 'Stage Lens: /metrics URL to scrape'],
      ['run-attachPrometheus', 'Stage Lens: Prometheus server that scrapes the vLLM-Omni hosts'],
    ] as const) {
      await emptyView.locator(`[data-testid="${testId}"]`).click();
      const shownTitle = wb.page.locator('.quick-input-widget .quick-input-title');
      await wb.page.waitForFunction(
        (want) =>
          (
            globalThis as unknown as {
              document: { querySelector(s: string): { textContent: string | null } | null };
            }
          ).document.querySelector('.quick-input-widget .quick-input-title')?.textContent === want,
        title,
        { timeout: 15_000 },
      );
      assert.equal(await shownTitle.textContent(), title);
      await wb.page.keyboard.press('Escape');
      await wb.page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10_000 });
    }
    // Attach to Running Server lists this machine's vLLM-Omni servers, or says there is none, as from the palette.
    await emptyView.locator('[data-testid="run-attachProcess"]').click();
    const picker = wb.page.locator('.quick-input-widget .quick-input-title', {
      hasText: 'Stage Lens: attach to a running server',
    });
    const none = wb.page.locator('.notifications-toasts .notification-toast', {
      hasText: 'Stage Lens found no running vLLM-Omni server',
    });
    await picker.or(none).first().waitFor({ timeout: 15_000 });
    if (await picker.isVisible()) {
      await wb.page.keyboard.press('Escape');
      await wb.page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10_000 });
    } else await wb.runCommand('Notifications: Clear All Notifications');
    await wb.tab('qwen3_tts.yaml').click();

    // ------------------------------------------------ Start Demo Server, then at once the palette again
    await wb.runCommand('Stage Lens: Start Demo Server');
    await wb.page.keyboard.press('F1');
    const input = wb.page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible' });
    await wb.page.keyboard.type('Stage Lens: Stop', { delay: 40 }); // F1 starts the input with '>'
    // The side view and Latency Details open and fill meanwhile (reading them moves no focus);
    // the palette must stay under the user's fingers all along.
    await wb.page
      .locator('.tabs-container .tab[aria-label^="Stage Lens: Latency Details"]')
      .waitFor({ timeout: 30_000 });
    const details = await wb.webview('Stage Lens: Latency Details', 60_000);
    await waitText(
      details,
      '[data-testid="request-total"]',
      (t) => /^[1-9][\d,]* requests?/.test(t),
      'requests in Latency Details',
      90_000,
    );
    const sideView = await sideBarWebview(wb, 30_000);
    await waitText(
      sideView,
      '[data-testid="session-meta"]',
      (t) => /^running · [1-9]/.test(t),
      'the session in Latency Summary',
      60_000,
    );
    await wb.page.waitForTimeout(1500);
    assert.equal(await input.isVisible(), true, 'the palette closed: Start Demo Server took the focus');
    assert.equal(await input.inputValue(), '>Stage Lens: Stop');
    await wb.screenshot('first-minutes-palette-kept');
    await wb.page.keyboard.press('Escape');

    // ------------------------------------------------ with a session
    await wb.page.locator(STATUS).first().waitFor({ timeout: 30_000 });
    const side = await sideBarWebview(wb, 30_000);
    await waitText(
      side,
      '[data-testid="session-meta"]',
      (t) => /^running · ([3-9]|\d\d+) requests/.test(t),
      'three captured requests',
      90_000,
    );
    // The headline latency as the side panel writes a duration: "1st audio p50 96.7 ms", "1.28 s", never "1280 ms";
    // the codec's first output is the first audio, named so as the side panel's trend names it.
    const headline = /\d+ req · 1st audio p50 \d{1,3}(\.\d+)? (ms|s)$/;
    let status = '';
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; await wb.page.waitForTimeout(250)) {
      status = (await wb.page.locator(STATUS).first().textContent()) ?? '';
      if (headline.test(status)) break;
    }
    assert.match(status, headline);
    await waitText(
      side,
      '.trend-label',
      (t) => t === 'p50 time to first audio (stage 1 · code2wav)',
      'the trend named as the tail and explain name the figure',
      30_000,
    );
    const during = await paletteRows(wb, 'Stage Lens: ');
    for (const shown of ['Stage Lens: Stop Capture', 'Stage Lens: Export Session...']) {
      assert.ok(
        during.some((r) => r.startsWith(shown)),
        `"${shown}" missing with a live session: ${during.join(' | ')}`,
      );
    }
    // The deploy YAML shows the session's numbers after each stage_id (inlay hints): go to
    // the stages (line 63 of the fixture; only lines on screen are drawn).
    await wb.tab('qwen3_tts.yaml').click();
    await wb.page.locator('.part.editor .monaco-editor .view-lines').first().click();
    await wb.page.keyboard.press('Control+G');
    await wb.page.keyboard.type('58');
    await wb.page.keyboard.press('Enter');
    await wb.page.waitForFunction(
      () =>
        Array.from(
          (
            globalThis as unknown as {
              document: { querySelectorAll(s: string): ArrayLike<{ textContent: string | null }> };
            }
          ).document.querySelectorAll('.monaco-editor .view-lines span'),
        ).some((s) => /p50/.test(s.textContent ?? '')),
      undefined,
      { timeout: 60_000 },
    );
    await wb.screenshot('first-minutes-inlay-numbers');
    await wb.runCommand('Stage Lens: Stop Capture');
    await waitText(
      side,
      '[data-testid="session-meta"]',
      (t) => !t.startsWith('running'),
      'the capture to stop',
      20_000,
    );
  },
  { timeoutMs: 240_000, ownServer: true },
);
