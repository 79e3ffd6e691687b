// "Why p99 is slow" in the side panel and the Tail tab of Latency Details say how many tail
// requests are cold (the first after a server boot) and, when those make the tail, how to leave
// them out: built bundles in headless Chromium, fed by a simulated cold start whose first request
// waited 30 s for the stage-0 JIT build (`simulate --scenario cold-start --cold-start-ms 30000
// --requests 12 --seed 7 --fixed-clock`, at DEBUG). The p99 of 12 requests is that request.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { TailAttribution } from '../../server/protocol';
import { REPO_ROOT, WebviewHarness, waitUntil } from '../fixtures/webview/browserHarness';
import type { SyntheticSession } from '../fixtures/webview/syntheticSession';
import { FakeHost } from '../fixtures/webview/fakeHost';
import { sessionOfLog } from '../fixtures/webview/logSession';

const LOG = path.join(REPO_ROOT, 'test/fixtures/sim/cold-start-30s.log');
const COLD =
  'Cold start: the tail request is cold (the first after a server boot), bringing +28.9 s of the +28.9 s excess (100%): this tail is mostly cold start, not steady-state serving. Exclude cold (Latency Details) leaves them out.';

let data: SyntheticSession;
let harness: WebviewHarness;

before(async () => {
  data = sessionOfLog(LOG);
  const tail = new FakeHost(data).tail({}).tails[0] as TailAttribution;
  assert.equal(tail.target, 'stage1.firstOutput');
  assert.equal(tail.coldRequests, 1);
  harness = await WebviewHarness.start(data);
});

after(async () => {
  await harness?.close();
});

test('side panel: the cold tail request is said under the headline', async () => {
  const view = await harness.open('sidePanel', { width: 420, height: 900 }, new FakeHost(data, { pushTail: true }));
  try {
    await view.page.getByTestId('tail-section').waitFor();
    const cold = view.page.getByTestId('tail-cold');
    assert.equal(await cold.textContent(), COLD);
    assert.equal(await cold.isVisible(), true);
  } finally {
    await view.close();
  }
});

test('Tail tab: the same line, and none once cold requests are left out', async () => {
  const view = await harness.open('latencyPanel', { width: 1280, height: 900 });
  const { page } = view;
  try {
    await waitUntil(
      page,
      `document.querySelector('[data-testid="request-id"][data-index="0"]')?.dataset.state === 'text'`,
    );
    await page.getByTestId('tab-tail').click();
    await page.getByTestId('tail-block').first().waitFor();
    assert.deepEqual(await page.getByTestId('tail-cold').allTextContents(), [COLD]);
    await page.getByTestId('exclude-cold').check();
    await waitUntil(page, `document.querySelectorAll('[data-testid="tail-cold"]').length === 0`);
    assert.equal((await page.getByTestId('tail-block').count()) > 0, true);
  } finally {
    await view.close();
  }
});
