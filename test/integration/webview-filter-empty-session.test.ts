// A session with no stage and no finding (an empty log imported) still offers its filters'
// "All stages" and "All findings": the selects are never blank boxes; a finding that names no
// request is not a request filter. Built bundle in headless Chromium, fed through the core's own
// analysis.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { WebviewPage } from '../fixtures/webview/browserHarness';
import { REPO_ROOT, WebviewHarness, waitUntil } from '../fixtures/webview/browserHarness';
import { FakeHost } from '../fixtures/webview/fakeHost';
import { importedSessionOfLog, sessionOfLog } from '../fixtures/webview/logSession';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-empty-'));
const EMPTY = path.join(dir, 'empty.log');
fs.writeFileSync(EMPTY, '');

let harness: WebviewHarness;
let view: WebviewPage;

before(async () => {
  const data = sessionOfLog(EMPTY);
  assert.equal(data.summary.stages.length, 0);
  assert.equal(data.summary.findings.length, 0);
  harness = await WebviewHarness.start(data);
  view = await harness.open('latencyPanel', { width: 1000, height: 600 });
  await view.page.getByTestId('filter-stage').waitFor();
});

after(async () => {
  await view?.close();
  await harness?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('the stage and finding filters say "All stages" and "All findings" with nothing to list', async () => {
  await waitUntil(view.page, `document.querySelector('[data-testid="filter-stage"]').options.length > 0`);
  const options = async (id: string): Promise<string[]> =>
    view.page.getByTestId(id).locator('option').allTextContents();
  assert.deepEqual(await options('filter-stage'), ['All stages']);
  assert.deepEqual(await options('filter-finding'), ['All findings']);
});

test('a finding that names no request (a legacy stats format here) is not offered as a request filter', async () => {
  const log = fs.readFileSync(path.join(REPO_ROOT, 'test/fixtures/real-logs/14-issue533-legacy-summary-dict.log'));
  const legacy = importedSessionOfLog(log, 'legacy');
  assert.deepEqual(
    legacy.summary.findings.map((f) => `${f.code} ${f.requestCount}`),
    ['legacy-stats-format 0'],
  );
  const details = await harness.open('latencyPanel', { width: 1000, height: 600 }, new FakeHost(legacy));
  try {
    await details.page.getByTestId('run-summary').waitFor();
    await waitUntil(details.page, `document.querySelector('[data-testid="filter-finding"]').options.length > 0`);
    assert.deepEqual(await details.page.getByTestId('filter-finding').locator('option').allTextContents(), [
      'All findings',
    ]);
  } finally {
    await details.close();
  }
  // The side panel's finding opens Latency Details unfiltered, not on an empty table.
  const side = await harness.open('sidePanel', { width: 300, height: 900 }, new FakeHost(legacy));
  try {
    const finding = side.page.locator('[data-testid="finding"][data-code="legacy-stats-format"] button');
    await finding.waitFor();
    assert.match((await finding.getAttribute('aria-label')) ?? '', /Open Latency Details\.$/);
    await finding.click();
    await waitUntil(side.page, `window.__posted.some((m) => m.type === 'openLatencyPanel')`);
    assert.deepEqual(
      (await side.posted()).filter((m) => m.type === 'openLatencyPanel'),
      [{ type: 'openLatencyPanel', filter: {} }],
    );
  } finally {
    await side.close();
  }
});
