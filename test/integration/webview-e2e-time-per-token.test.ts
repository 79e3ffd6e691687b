// A log of the vllm-omni#891 branch (stage tables, and before them a request_level_metrics dict
// with the request's e2e_tpt) in the built side panel in headless Chromium: the phase table, and
// under it the end to end and the time per token as the CLI's end-to-end table prints them; a
// 0.0 time per token (no output token) reads "not recorded" and is said under that table in the
// CLI's words, never a 0 ms. A log of the current format shows its end to end there alone.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import type { WebviewPage } from '../fixtures/webview/browserHarness';
import { REPO_ROOT, WebviewHarness } from '../fixtures/webview/browserHarness';
import { importedSessionOfLog } from '../fixtures/webview/logSession';

const LOG = path.join(REPO_ROOT, 'test/fixtures/logs/pr891-stage-wall-time-list.log');
const TPT = "'e2e_tpt': 5.667160445952497,";

/** Each row of a table as [key, name, count, `col=value` cells]. */
const rowsOf = (rowTestId: string): string =>
  `[...document.querySelectorAll('[data-testid="${rowTestId}"]')].map((tr) => [tr.dataset.stageKey, tr.querySelector('.stage-id').textContent, tr.querySelector('.stage-count').textContent, [...tr.querySelectorAll('td')].map((td) => td.dataset.col + '=' + td.querySelector('.v').textContent).join(' ')])`;

/** The side panel of the log's session, its end-to-end table drawn, given to `check`; closed after it, whatever happens. */
async function withSidePanel(
  log: Buffer,
  id: string,
  check: (page: Page, view: WebviewPage) => Promise<void>,
  drawnRow = 'timePerToken',
): Promise<void> {
  const harness = await WebviewHarness.start(importedSessionOfLog(log, id));
  try {
    const view = await harness.open('sidePanel', { width: 420, height: 900 });
    try {
      await view.page.locator(`[data-testid="e2e-row"][data-stage-key="${drawnRow}"]`).waitFor({ timeout: 15_000 });
      await check(view.page, view);
    } finally {
      await view.close();
    }
  } finally {
    await harness.close();
  }
}

test('the phase table, then end to end and time per token as analyze prints them', { timeout: 60_000 }, async () => {
  await withSidePanel(fs.readFileSync(LOG), 'pr891', async (page, view) => {
    // The phase table keeps its stages; the end to end is not one of its rows.
    const stages = (await page.evaluate(rowsOf('stage-row'))) as string[][];
    assert.deepEqual(
      stages.map((r) => r[0]),
      ['0', '1', '2'],
    );
    assert.equal(await page.locator('[data-testid="e2e-section"]').isVisible(), true);
    // analyze: `end to end      1  11,691 ...`, `time per token  1   5.667 ...`.
    assert.deepEqual(await page.evaluate(rowsOf('e2e-row')), [
      ['e2e', 'end to end', 'n=1', 'time=11,691'],
      ['timePerToken', 'time per token', 'n=1', 'time=5.67'],
    ]);
    assert.equal(
      await page.locator('[data-testid="e2e-row"][data-stage-key="timePerToken"] .stage-count').getAttribute('title'),
      '1 requests with a measured time per token',
    );
    assert.equal(await page.locator('[data-testid="e2e-left-out-note"]').isVisible(), false);
    // End to end's bar is its whole width; a time per token (ms of another kind) has none.
    const e2eRow = page.locator('[data-testid="e2e-row"][data-stage-key="e2e"]');
    assert.match((await e2eRow.locator('.fill').getAttribute('style')) ?? '', /width: 100%/);
    assert.equal(await e2eRow.locator('.bar').isVisible(), true);
    assert.equal(await page.locator('[data-testid="e2e-row"][data-stage-key="timePerToken"] .bar').isVisible(), false);
    // A row opens Latency Details over all requests (the row is no stage).
    await page.locator('[data-testid="e2e-row"][data-stage-key="timePerToken"]').click();
    const opened = (await view.posted()).filter((m) => m.type === 'openLatencyPanel');
    assert.deepEqual(opened.at(-1), { type: 'openLatencyPanel', filter: {} });
  });
});

test(
  'a request with no output token: its 0.0 is said under the end-to-end table, never a 0 ms',
  { timeout: 60_000 },
  async () => {
    const text = fs.readFileSync(LOG, 'utf8');
    assert.ok(text.includes(TPT));
    // Upstream prints 0.0 for a request without output tokens (it divides only when there are some).
    await withSidePanel(Buffer.from(text.replace(TPT, "'e2e_tpt': 0.0,")), 'pr891-no-token', async (page) => {
      assert.deepEqual(await page.evaluate(rowsOf('e2e-row')), [
        ['e2e', 'end to end', 'n=1', 'time=11,691'],
        ['timePerToken', 'time per token', 'n=0', 'time=not recorded'],
      ]);
      const note = page.locator('[data-testid="e2e-left-out-note"]');
      assert.equal(await note.isVisible(), true);
      assert.match(
        (await note.textContent()) ?? '',
        /^Left out of the percentiles: time per token: 1 of 1 request printed 0\.0, the server's default for a request with no output token .*: left out, not counted as 0 ms\.$/,
      );
    });
  },
);

test(
  'a log of the current format (no time per token): its end to end under the phase table, as analyze prints it',
  {
    timeout: 60_000,
  },
  async () => {
    const log = fs.readFileSync(
      path.join(REPO_ROOT, 'test/fixtures/upstream-rendered/qwen3-omni-three-stage-transfers.log'),
    );
    await withSidePanel(
      log,
      'three-stage',
      async (page) => {
        // analyze: `end to end  3  33,726  39,397  40,673  40,815`.
        assert.deepEqual(await page.evaluate(rowsOf('e2e-row')), [['e2e', 'end to end', 'n=3', 'time=33,726']]);
        assert.equal(await page.locator('[data-testid="e2e-left-out-note"]').isVisible(), false);
      },
      'e2e',
    );
  },
);
