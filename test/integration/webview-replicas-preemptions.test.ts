// Replicas and preemptions in the built webviews (headless Chromium, real HTML shell), fed by
// logs vLLM-Omni's stats code printed, through the language server's own query functions: a
// stage that ran on two replicas has a row per replica under it in the side panel and a
// replica column in the request table; a preempted request has a preemptions column (a hidden
// row is "hidden", never 0) and a caveat on its timeline; the Tail tab has explain's
// "Preemptions" section.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { WebviewPage } from '../fixtures/webview/browserHarness';
import { REPO_ROOT, WebviewHarness, timelineOf, waitUntil } from '../fixtures/webview/browserHarness';
import { FakeHost } from '../fixtures/webview/fakeHost';
import { sessionOfLog } from '../fixtures/webview/logSession';
import type { SyntheticSession } from '../fixtures/webview/syntheticSession';

const LOGS = path.join(REPO_ROOT, 'test/fixtures/logs');
const SHOTS = path.join(REPO_ROOT, 'test-output/webview');
/** The one request of preempted-decode.log whose talker printed vllm_num_preemptions 1 (the codec printed 0). */
const PREEMPTED = 'speech-d34eb664fcd0188b';

let replicas: SyntheticSession;
let preempted: SyntheticSession;
let harness: WebviewHarness;

before(async () => {
  replicas = sessionOfLog(path.join(LOGS, 'codec-two-replicas.log'), { id: 'import-replicas' });
  preempted = sessionOfLog(path.join(LOGS, 'preempted-decode.log'), { id: 'import-preempted' });
  harness = await WebviewHarness.start(replicas);
  fs.mkdirSync(SHOTS, { recursive: true });
});

after(async () => {
  await harness?.close();
});

const idCell = (index: number): string => `[data-testid="request-id"][data-index="${index}"]`;
const cell = (index: number, col: string): string =>
  `[data-testid="request-row"][data-index="${index}"] .cell[data-col="${col}"]`;

async function showOnly(page: Page, requestId: string): Promise<void> {
  await page.getByTestId('filter-text').fill(requestId);
  await waitUntil(page, `document.querySelector('[data-testid="request-total"]').dataset.total === '1'`);
  await waitUntil(page, `document.querySelector('${idCell(0)}')?.textContent === ${JSON.stringify(requestId)}`);
}

describe('a stage on two replicas', () => {
  test('the side panel has a row per replica under the stage, with its count and numbers', async () => {
    const view = await harness.open('sidePanel', { width: 900, height: 900 });
    try {
      const page = view.page;
      await page.locator('[data-testid="stage-row"]').first().waitFor();
      /** What the page's rows are read as (no DOM types in Node tests). */
      type Row = { dataset: { stageKey: string }; className: string; cells: { 0?: { textContent: string } } };
      const rows = await page
        .locator('[data-testid="stage-row"]')
        .evaluateAll((els) =>
          (els as unknown as Row[]).map((e) => [e.dataset.stageKey, e.className, e.cells[0]?.textContent ?? '']),
        );
      // As `stage-lens analyze` prints them: stage 1 (n=8), replica 0 (n=4), replica 1 (n=4).
      assert.deepEqual(rows, [
        ['0', 'stage', 'stage 0talkern=8'],
        ['1', 'stage', 'stage 1code2wavn=8'],
        ['1/0', 'replica-row', 'replica 0n=4'],
        ['1/1', 'replica-row', 'replica 1n=4'],
      ]);
      const decode = (key: string): Promise<string | null> =>
        page.locator(`[data-testid="stage-row"][data-stage-key="${key}"] td[data-col="decodeMs"] .v`).textContent();
      assert.equal(await decode('1/0'), '508');
      assert.equal(await decode('1/1'), '789');
      // Laid out as the stage's row (one line of cells), not as another list's replica entry.
      const heights = await page
        .locator('[data-testid="stage-row"]')
        .evaluateAll((els) =>
          (els as unknown as { getBoundingClientRect(): { height: number } }[]).map((e) =>
            Math.round(e.getBoundingClientRect().height),
          ),
        );
      assert.equal(new Set(heights).size, 1, JSON.stringify(heights));
      await page.getByTestId('stage-summary').screenshot({ path: path.join(SHOTS, 'side-panel-replicas.png') });
    } finally {
      await view.close();
    }
  });

  test('the request table says which replica each request ran on, and sorts by it', async () => {
    const view = await harness.open('latencyPanel', { width: 1280, height: 800 });
    try {
      const page = view.page;
      await waitUntil(page, `document.querySelector('${idCell(0)}')?.dataset.state === 'text'`);
      assert.equal(await page.locator('[role=columnheader][data-col="1.replica"]').count(), 1);
      // Stage 0 ran on one replica: no column for it.
      assert.equal(await page.locator('[role=columnheader][data-col="0.replica"]').count(), 0);
      const expected = replicas.requests.map((r) => String(r.stages.find((s) => s.stageKey === '1')?.replicaId));
      const shown = await Promise.all(
        replicas.requests.map((_, i) => page.locator(cell(i, '1.replica')).textContent()),
      );
      assert.deepEqual(shown, expected);
      assert.deepEqual([...new Set(shown)].sort(), ['0', '1']);
      await page.locator('[data-sort-key="1.replica"]').click();
      await waitUntil(
        page,
        `document.querySelector('[role=columnheader][data-col="1.replica"]').getAttribute('aria-sort') === 'ascending'`,
      );
      // The sorted rows arrive after the header's mark: wait for every row, not the last one only
      // (the unsorted table's last row already reads 1).
      const ascending = [...expected].sort();
      const replicaCells = `[${replicas.requests.map((_, i) => JSON.stringify(cell(i, '1.replica'))).join(',')}]`;
      await waitUntil(
        page,
        `${replicaCells}.map((s) => document.querySelector(s)?.textContent).join() === ${JSON.stringify(ascending.join())}`,
      );
      const sorted = await Promise.all(
        replicas.requests.map((_, i) => page.locator(cell(i, '1.replica')).textContent()),
      );
      assert.deepEqual(sorted, ascending);
      // The stage filter offers each replica of the stage after it.
      assert.deepEqual(await page.locator('[data-testid="filter-stage"] option').allTextContents(), [
        'All stages',
        'stage 0 · talker',
        'stage 1 · code2wav',
        'stage 1 · code2wav replica 0',
        'stage 1 · code2wav replica 1',
      ]);
      await page.getByTestId('filter-stage').selectOption('1/1');
      await waitUntil(page, `document.querySelector('[data-testid="request-total"]').dataset.total === '4'`);
      await waitUntil(page, `document.querySelector('${cell(3, '1.replica')}')?.textContent === '1'`);
      const onReplica1 = await Promise.all([0, 1, 2, 3].map((i) => page.locator(cell(i, '1.replica')).textContent()));
      assert.deepEqual(onReplica1, ['1', '1', '1', '1']);
    } finally {
      await view.close();
    }
  });
});

describe('a preempted request', () => {
  let view: WebviewPage;
  let page: Page;

  before(async () => {
    view = await harness.open('latencyPanel', { width: 1280, height: 800 }, new FakeHost(preempted));
    page = view.page;
    await waitUntil(page, `document.querySelector('${idCell(0)}')?.dataset.state === 'text'`);
  });

  after(async () => {
    await view?.close();
  });

  test('the request table has a preemptions column: the printed count, hidden where the row was not printed', async () => {
    const col = '0.field:vllm_num_preemptions';
    assert.equal(await page.locator(`[role=columnheader][data-col="${col}"]`).count(), 1);
    await page.evaluate(`document.querySelector('[data-testid="request-table-scroll"]').scrollLeft = 100000`);
    const index = preempted.requests.findIndex((r) => r.requestId === PREEMPTED);
    const other = index === 0 ? 1 : 0;
    await waitUntil(page, `document.querySelector('${cell(index, col)}')?.dataset.state === 'measured'`);
    assert.equal(await page.locator(cell(index, col)).textContent(), '1');
    await page.locator(cell(index, col)).hover();
    assert.equal(
      await page.locator(cell(index, col)).getAttribute('title'),
      'vllm_num_preemptions: printed 1. Preempted once: its prefill or decode includes the wait to be scheduled again.',
    );
    // The codec printed 0 in the same table: a measured 0.
    assert.equal(await page.locator(cell(index, '1.field:vllm_num_preemptions')).textContent(), '0');
    assert.equal(
      await page.locator(cell(index, '1.field:vllm_num_preemptions')).getAttribute('data-state'),
      'measured',
    );
    // Another request's table has no such row: zero or not measured, not 0.
    assert.equal(await page.locator(cell(other, col)).getAttribute('data-state'), 'hidden');
    assert.equal(await page.locator(cell(other, col)).textContent(), 'hidden');
  });

  test("its timeline says the talker's prefill or decode includes the wait to be scheduled again", async () => {
    await showOnly(page, PREEMPTED);
    await page.locator(idCell(0)).dblclick();
    await waitUntil(
      page,
      `document.querySelector('[data-testid="waterfall-title"]').textContent === ${JSON.stringify(PREEMPTED)} && !document.querySelector('[data-testid="request-caveats"]').hidden`,
    );
    assert.deepEqual(await page.locator('[data-testid="request-caveats"] li').allTextContents(), [
      'stage 0 · talker preempted once: its prefill or decode includes the wait to be scheduled again',
    ]);
    await page.screenshot({ path: path.join(SHOTS, 'latency-panel-preempted-timeline.png') });
  });

  test("another request's timeline has no caveat", async () => {
    const other = preempted.requests.find((r) => r.requestId !== PREEMPTED)?.requestId as string;
    await page.getByTestId('tab-requests').click();
    await showOnly(page, other);
    await page.locator(idCell(0)).dblclick();
    // The preempted request's caveat stays under the new heading until this one's answer is drawn.
    await waitUntil(page, timelineOf(other));
    assert.equal(await page.getByTestId('request-caveats').isHidden(), true);
  });

  test("the Tail tab has explain's Preemptions section for the target and quantile shown", async () => {
    await page.getByTestId('tab-tail').click();
    await page.getByTestId('tail-target').selectOption('e2e');
    await page.getByTestId('tail-quantile').getByText('p95').click();
    await waitUntil(
      page,
      `document.querySelector('[data-testid="preemptions-reading"]')?.textContent.includes('p95 tail') === true`,
    );
    // Where the wait lies: the count does not say before or after the first token.
    assert.equal(
      await page.locator('[data-testid="tail-preemptions"] p.note').textContent(),
      "end-to-end time, p95 tail (at or above 1.55 s); requests that printed vllm_num_preemptions > 0. A preempted request waits to be scheduled again inside its prefill (preempted before its first token) or its decode (after it); a one-output stage's prefill covers its decode.",
    );
    // As `stage-lens explain test/fixtures/logs/preempted-decode.log` prints it.
    assert.equal(
      await page.getByTestId('preemptions-reading').textContent(),
      'The one request in the p95 tail printed no preemption: preemption does not explain it.',
    );
    assert.deepEqual(await page.getByTestId('preemption-stage').allTextContents(), [
      'stage 0 · talker: 0 of 1 in the tail (0%), 1 of 12 in all (8%)',
    ]);
    await page
      .getByTestId('tail-preemptions')
      .screenshot({ path: path.join(SHOTS, 'latency-panel-tail-preemptions.png') });
  });
});
