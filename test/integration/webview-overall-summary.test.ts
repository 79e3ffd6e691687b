// A session whose log has [Overall Summary] tables and no per-request stage table (a real
// public log of an older vLLM-Omni build, which printed the summary at INFO), in the built side
// panel in headless Chromium: the panel shows the summary's wall times and tokens/s with the
// notice of what is missing and the fix, not "Waiting for the first request…"; its count is
// the table and the requests it covers, not the one request cut off without a number; Latency
// Details of a log with no request says why instead of "No requests yet".
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { overallSummaryOnlyMessage } from '../../server/core/analysis/overallSummaries';
import type { WebviewPage } from '../fixtures/webview/browserHarness';
import { REPO_ROOT, WebviewHarness } from '../fixtures/webview/browserHarness';
import type { SyntheticSession } from '../fixtures/webview/syntheticSession';
import { statusHeadline } from '../../webview/shared/sessionStatus';
import { FakeHost } from '../fixtures/webview/fakeHost';
import { importedSessionOfLog } from '../fixtures/webview/logSession';

/** One table covering 10 requests, then a RequestE2EStats cut off after its title. */
const LOG = path.join(REPO_ROOT, 'test/fixtures/real-logs/01-pr891-overall-e2e-noprefix.log');
/** One table covering 1 request, and no request. */
const LOG_NO_REQUEST = path.join(REPO_ROOT, 'test/fixtures/real-logs/02-pr891-overall-apiserver-prefix.log');
const SHOTS = path.join(REPO_ROOT, 'test-output/webview');

const sessionOfLog = (log: string, id = 'import-overall'): SyntheticSession =>
  importedSessionOfLog(fs.readFileSync(log), id, 'pr891 (imported)');

let data: SyntheticSession;
let harness: WebviewHarness;
let view: WebviewPage;
let page: Page;
const wall = (key: string): string => `[data-testid="stage-row"][data-stage-key="${key}"] td[data-col="wall"]`;
const perRequest = (key: string): string =>
  `[data-testid="stage-row"][data-stage-key="${key}"] td[data-col="perRequest"]`;
const rate = (key: string): string => `[data-testid="stage-row"][data-stage-key="${key}"] td[data-col="rate"]`;

before(async () => {
  data = sessionOfLog(LOG);
  harness = await WebviewHarness.start(data);
  fs.mkdirSync(SHOTS, { recursive: true });
  view = await harness.open('sidePanel', { width: 900, height: 640 });
  page = view.page;
  await page.waitForSelector('[data-testid="stage-row"]');
});

after(async () => {
  await view?.close();
  await harness?.close();
});

test('the summary is what the session has: no stage, one [Overall Summary] table', () => {
  assert.equal(data.summary.stages.length, 0);
  assert.equal(data.summary.overallSummaries?.tables, 1);
  // The status bar's headline is the table's wall time, not nothing.
  assert.equal(statusHeadline(data.summary), 'summary e2e wall 1 min 21 s');
});

test('the side panel shows the wall times and tokens/s as printed, the notice and the fix', async () => {
  const overall = data.summary.overallSummaries;
  assert.ok(overall !== null && overall !== undefined);
  assert.equal(await page.getByTestId('waiting').isVisible(), false);
  assert.equal(await page.getByTestId('tables-missing').isVisible(), false);
  const notice = page.getByTestId('overall-summary-only');
  assert.equal(await notice.isVisible(), true);
  assert.equal(await notice.textContent(), overallSummaryOnlyMessage(overall));
  assert.match((await notice.textContent()) ?? '', /VLLM_LOGGING_LEVEL=DEBUG/);
  assert.match((await notice.textContent()) ?? '', /It covers several requests \(e2e_requests 10\)/);
  assert.deepEqual(
    await page.evaluate(`[...document.querySelectorAll('[data-testid="stage-row"]')].map((tr) => tr.dataset.stageKey)`),
    ['0', '1', '2', 'e2e'],
  );
  const texts = async (selector: string): Promise<string | null> => page.locator(`${selector} .v`).textContent();
  // Wall times with their unit, as the trend beside them says them.
  assert.equal(await texts(wall('0')), '19.4 s');
  assert.equal(await texts(wall('1')), '59.8 s');
  assert.equal(await texts(wall('2')), '3.02 s');
  assert.equal(await texts(wall('e2e')), '1 min 21 s');
  assert.equal(await page.getByTestId('trend-value').textContent(), '1 min 21 s');
  assert.equal(await texts(rate('e2e')), '41.1');
  // The table covers 10 requests: their mean, e2e_avg_time_per_request_ms, beside its wall time.
  assert.equal(await texts(perRequest('e2e')), '8.14 s');
  assert.equal(await page.locator('th[data-col="perRequest"]').textContent(), 'mean per request');
  assert.equal(await texts(perRequest('0')), '—');
  assert.equal(
    await page.locator(wall('e2e')).getAttribute('title'),
    'e2e_wall_time_ms: 81,430.702 ms as printed by the one table.',
  );
  assert.equal(
    await page.locator('.table-caption').textContent(),
    "From the log's [Overall Summary] table as printed, no per-request split",
  );
  // The count is the table and what it covers; the cut-off request has no number.
  assert.equal(
    await page.getByTestId('session-meta').textContent(),
    'imported · 1 [Overall Summary] table (10 requests)',
  );
  // One value: no percentile named.
  assert.equal(await page.locator('.trend-label').textContent(), 'e2e wall time of the [Overall Summary] table');
  await page.screenshot({ path: path.join(SHOTS, 'side-panel-overall-summary.png') });
});

test('at p99 a single table still reads its printed value, not a tail estimate', async () => {
  await page.getByTestId('percentile-p99').click();
  await page.waitForFunction(
    `document.querySelector('[data-testid="percentile-p99"]').getAttribute('aria-checked') === 'true'`,
  );
  assert.equal(await page.locator(`${wall('e2e')} .v`).textContent(), '1 min 21 s');
  assert.equal(await page.locator('.trend-label').textContent(), 'e2e wall time of the [Overall Summary] table');
  assert.equal(await page.locator(`${wall('e2e')} .v`).getAttribute('data-few'), 'false');
  assert.equal(await page.getByTestId('few-values-note').isVisible(), false);
});

test('a log with no request: the side panel counts its table, Latency Details says why its table is empty', async () => {
  const none = sessionOfLog(LOG_NO_REQUEST, 'import-overall-02');
  assert.equal(none.requests.length, 0);
  const side = await harness.open('sidePanel', { width: 900, height: 640 }, new FakeHost(none));
  try {
    await side.page.waitForSelector('[data-testid="stage-row"]');
    assert.equal(
      await side.page.getByTestId('session-meta').textContent(),
      'imported · 1 [Overall Summary] table (1 request)',
    );
    // e2e_requests 1: the mean per request would repeat the wall time.
    assert.equal(await side.page.locator('th[data-col="perRequest"]').count(), 0);
  } finally {
    await side.close();
  }
  const details = await harness.open('latencyPanel', { width: 1000, height: 600 }, new FakeHost(none));
  try {
    const p = details.page;
    await p.locator('[data-testid="request-total"][data-total="0"]').waitFor({ state: 'attached' });
    const message = p.getByTestId('request-table-empty');
    await message.filter({ hasText: '[Overall Summary]' }).waitFor();
    const text = (await message.textContent()) ?? '';
    assert.equal(await p.getByTestId('session-meta').textContent(), 'imported · 1 [Overall Summary] table (1 request)');
    assert.doesNotMatch(text, /No requests yet/);
    assert.match(
      text,
      /^This log has no per-request tables, only 1 \[Overall Summary\] table \(1 request\): the side panel shows its values\. Fix: .*VLLM_LOGGING_LEVEL=DEBUG/,
    );
    await p.screenshot({ path: path.join(SHOTS, 'latency-panel-overall-summary-empty.png') });
  } finally {
    await details.close();
  }
});
