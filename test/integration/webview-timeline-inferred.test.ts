// A codec's ready queued read as 0 from a hidden row (its input wait printed, the partner row
// hidden: the input split's documented rule) is drawn on the request timeline as `≈0 ms`, as
// the request's values write it `≈0`, never as a printed `0 ms`; a measured ready queued keeps
// its plain duration. Built bundle in headless Chromium, fed through the core's own analysis.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { WebviewPage } from '../fixtures/webview/browserHarness';
import { REPO_ROOT, WebviewHarness, timelineOf, waitUntil } from '../fixtures/webview/browserHarness';
import { sessionOfLog } from '../fixtures/webview/logSession';
import type { SyntheticSession } from '../fixtures/webview/syntheticSession';

const LOG = path.join(REPO_ROOT, 'test/fixtures/logs/codec-first-audio-ready-queued-inferred.log');
const INFERRED = 'speech-3fcb29fe0abc87b4';
const MEASURED = 'speech-55af55151af62289';

let data: SyntheticSession;
let harness: WebviewHarness;
let view: WebviewPage;

before(async () => {
  data = sessionOfLog(LOG);
  harness = await WebviewHarness.start(data);
  view = await harness.open('latencyPanel', { width: 2600, height: 900 });
  await waitUntil(
    view.page,
    `document.querySelector('[data-testid="request-id"][data-index="0"]')?.dataset.state === 'text'`,
  );
});

after(async () => {
  await view?.close();
  await harness?.close();
});

interface DrawnLabel {
  readonly stageKey: string;
  readonly phase: string;
  readonly text: string;
}

/** Opens the request's timeline and returns the duration labels drawn on its canvas. */
async function timelineLabels(page: Page, requestId: string): Promise<DrawnLabel[]> {
  await page.getByTestId('tab-requests').click();
  await page.getByTestId('filter-text').fill(requestId);
  await waitUntil(page, `document.querySelector('[data-testid="request-total"]').dataset.total === '1'`);
  const id = '[data-testid="request-id"][data-index="0"]';
  await waitUntil(page, `document.querySelector('${id}')?.textContent === ${JSON.stringify(requestId)}`);
  await page.locator(id).dblclick();
  await waitUntil(
    page,
    // The last request's labels stay on the canvas under the new heading until this one's answer is drawn.
    `${timelineOf(requestId)} && (document.querySelector('[data-testid="waterfall-canvas"]').dataset.segmentLabels ?? '') !== ''`,
  );
  const json = (await page.getByTestId('waterfall-canvas').getAttribute('data-segment-labels')) ?? '[]';
  return JSON.parse(json) as DrawnLabel[];
}

test('the timeline labels an inferred 0 ready queued `≈0 ms`, as the request values write `≈0`', async () => {
  const stage = data.requests.find((r) => r.requestId === INFERRED)?.stages.find((s) => s.stageKey === '1');
  assert.equal(stage?.split.states.readyQueuedMs, 'inferred');
  const labels = await timelineLabels(view.page, INFERRED);
  const ready = labels.find((l) => l.stageKey === '1' && l.phase === 'readyQueued');
  assert.equal(ready?.text, '≈0 ms', JSON.stringify(labels));
  const facts = view.page.locator(
    '[data-testid="request-facts"] tr[data-stage-key="1"] td[data-col="readyQueuedMs"] .v',
  );
  assert.equal(await facts.textContent(), '≈0');
});

test('a measured ready queued keeps its plain duration', async () => {
  const labels = await timelineLabels(view.page, MEASURED);
  const ready = labels.find((l) => l.stageKey === '1' && l.phase === 'readyQueued');
  assert.equal(ready?.text, '8.06 ms', JSON.stringify(labels));
});
