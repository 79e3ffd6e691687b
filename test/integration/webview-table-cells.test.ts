// The request table's cells and keys, in the built bundle in headless Chromium (real HTML
// shell, strict CSP), on the Qwen3-TTS log before the codec stats fix (talker -> code2wav, six
// requests): a cell of a column scrolled out of view never holds another request's numbers
// (a screen reader or a copy reads every cell in the DOM), after a sort or a filter moves rows; Enter on a column's sort button sorts, it does not open the selected request.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { WebviewPage } from '../fixtures/webview/browserHarness';
import { REPO_ROOT, WebviewHarness, waitUntil } from '../fixtures/webview/browserHarness';
import { sessionOfLog } from '../fixtures/webview/logSession';

const LOG = path.join(REPO_ROOT, 'test/fixtures/upstream-rendered/qwen3tts-talker-first-audio-before-fix.log');
const SCROLL = `document.querySelector('[data-testid="request-table-scroll"]')`;
const FRAMES = 'new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))';

let harness: WebviewHarness;

before(async () => {
  harness = await WebviewHarness.start(sessionOfLog(LOG));
});

after(async () => {
  await harness?.close();
});

async function openTable(width: number): Promise<WebviewPage> {
  const view = await harness.open('latencyPanel', { width, height: 600 });
  await waitUntil(view.page, `document.querySelector('[data-testid="request-total"]')?.dataset.total === '6'`);
  await waitUntil(
    view.page,
    `document.querySelector('[data-testid="request-id"][data-index="5"]')?.textContent.startsWith('chatcmpl') || document.querySelectorAll('[data-testid="request-row"]:not([hidden])').length === 6`,
  );
  await view.page.evaluate(FRAMES);
  return view;
}

/**
 * The rows of a new sort drawn: the header is marked at the click, the rows come with the host's
 * answer (which sets the total) and are drawn in the frame after it.
 */
async function sortedRowsDrawn(page: Page): Promise<void> {
  await waitUntil(page, `document.querySelector('[data-testid="request-total"]').dataset.total === '6'`);
  await page.evaluate(FRAMES);
}

/** Every value cell in the DOM that a screen reader would read: request id → column → text. */
const readableCells = `(() => {
  const ids = new Map();
  for (const c of document.querySelectorAll('[data-testid="request-id"]:not([hidden])')) ids.set(c.dataset.index, c.textContent);
  const out = {};
  for (const row of document.querySelectorAll('[data-testid="request-row"]:not([hidden])')) {
    if (row.dataset.pending === 'true') continue;
    const id = ids.get(row.dataset.index);
    const cells = {};
    for (const cell of row.querySelectorAll('.cell')) {
      if (cell.textContent === '' || cell.closest('[aria-hidden="true"]') !== null) continue;
      cells[cell.dataset.col] = cell.textContent;
    }
    out[id] = cells;
  }
  return out;
})()`;

type Cells = Record<string, Record<string, string>>;
const read = async (page: Page): Promise<Cells> => (await page.evaluate(readableCells)) as Cells;

/** Each request's cells with every column written: scrolled across the whole table. */
async function truth(page: Page): Promise<Cells> {
  const all: Cells = {};
  const max = (await page.evaluate(`${SCROLL}.scrollWidth - ${SCROLL}.clientWidth`)) as number;
  const step = (await page.evaluate(`${SCROLL}.clientWidth / 2`)) as number;
  for (let left = 0; ; left = Math.min(max, left + step)) {
    await page.evaluate(`${SCROLL}.scrollLeft = ${left}`);
    await page.evaluate(FRAMES);
    for (const [id, cells] of Object.entries(await read(page))) all[id] = { ...all[id], ...cells };
    if (left >= max) break;
  }
  return all;
}

/** Cells whose text is not what the row's own request shows in that column. */
function foreign(shown: Cells, expected: Cells): string[] {
  const out: string[] = [];
  for (const [id, cells] of Object.entries(shown))
    for (const [col, text] of Object.entries(cells))
      if (expected[id]?.[col] !== text) out.push(`${id} ${col}: ${text} (its own: ${expected[id]?.[col]})`);
  return out;
}

describe('request table: cells out of view', () => {
  test("after a sort with the table scrolled sideways, no cell holds another request's numbers", async () => {
    const view = await openTable(600);
    try {
      const page = view.page;
      const expected = await truth(page);
      assert.equal(Object.keys(expected).length, 6);
      // Back at the start every row writes its first stage's cells; then to the end and a sort
      // that reorders the rows: the first stage's cells are out of view.
      await page.evaluate(`${SCROLL}.scrollLeft = 0`);
      await page.evaluate(FRAMES);
      await page.evaluate(`${SCROLL}.scrollLeft = ${SCROLL}.scrollWidth`);
      await page.evaluate(FRAMES);
      const order = async (): Promise<string> =>
        (await page.evaluate(
          `[...document.querySelectorAll('[data-testid="request-id"]:not([hidden])')].sort((a, b) => a.dataset.index - b.dataset.index).map((c) => c.textContent).join()`,
        )) as string;
      const before = await order();
      const lastKey = (await page.evaluate(
        `[...document.querySelectorAll('.head-row [data-testid="sort"]')].at(-1).dataset.sortKey`,
      )) as string;
      await page.locator(`.head-row [data-testid="sort"][data-sort-key="${lastKey}"]`).click();
      await waitUntil(
        page,
        `document.querySelector('.head-row [data-col="${lastKey}"]').getAttribute('aria-sort') !== 'none'`,
      );
      await sortedRowsDrawn(page);
      if ((await order()) === before) {
        await page.locator(`.head-row [data-testid="sort"][data-sort-key="${lastKey}"]`).click();
        await sortedRowsDrawn(page);
      }
      assert.notEqual(await order(), before, 'the sort moved rows');
      assert.deepEqual(foreign(await read(page), expected), []);
    } finally {
      await view.close();
    }
  });

  test("a filter that moves another request into the first row, scrolled sideways: none of the row before's numbers stay", async () => {
    const view = await openTable(600);
    try {
      const page = view.page;
      const expected = await truth(page);
      await page.evaluate(`${SCROLL}.scrollLeft = 0`);
      await page.evaluate(FRAMES);
      await page.evaluate(`${SCROLL}.scrollLeft = ${SCROLL}.scrollWidth`);
      await page.evaluate(FRAMES);
      const last = (await page.locator('[data-testid="request-id"][data-index="5"]').textContent()) ?? '';
      await page.getByTestId('filter-text').fill(last);
      await waitUntil(page, `document.querySelector('[data-testid="request-total"]').dataset.total === '1'`);
      await waitUntil(
        page,
        `document.querySelector('[data-testid="request-id"][data-index="0"]').textContent === ${JSON.stringify(last)}`,
      );
      await page.evaluate(FRAMES);
      const shown = await read(page);
      assert.deepEqual(Object.keys(shown), [last]);
      assert.deepEqual(foreign(shown, expected), []);
    } finally {
      await view.close();
    }
  });
});

describe('request table: keys', () => {
  test('Enter on a sort button sorts by its column and leaves the Requests tab open', async () => {
    const view = await openTable(1000);
    try {
      const page = view.page;
      // A row is selected (Enter on the grid would open it).
      await page.locator('[data-testid="request-id"][data-index="1"]').click();
      await waitUntil(page, `document.querySelector('#request-row-1')?.getAttribute('aria-selected') === 'true'`);
      const key = (await page.evaluate(
        `[...document.querySelectorAll('.head-row [data-testid="sort"]')].at(-1).dataset.sortKey`,
      )) as string;
      const header = `document.querySelector('.head-row [data-col="${key}"]').getAttribute('aria-sort')`;
      const before = (await page.evaluate(header)) as string;
      await page.locator(`.head-row [data-testid="sort"][data-sort-key="${key}"]`).focus();
      await page.keyboard.press('Enter');
      await waitUntil(page, `${header} !== ${JSON.stringify(before)}`, 3000);
      assert.equal(await page.getByTestId('tab-requests').getAttribute('aria-selected'), 'true');
      assert.equal(await page.getByTestId('tab-timeline').getAttribute('aria-selected'), 'false');
      assert.equal(
        view.host.received.some((m) => m.type === 'queryRequest'),
        false,
        'Enter opened a request',
      );
    } finally {
      await view.close();
    }
  });
});

/** The header cells partly under the sticky id column: their text would read cut ("out wait"). */
const underIdColumn = `(() => {
  const id = document.querySelector('.head-row .id-cell').getBoundingClientRect();
  return [...document.querySelectorAll('.head-row .head-cell:not(.id-cell)')]
    .filter((c) => { const b = c.getBoundingClientRect(); return b.left < id.right - 0.5 && b.right > id.right + 0.5; })
    .map((c) => c.textContent);
})()`;

describe('request table: sideways position', () => {
  test("a finding's column brought into view leaves no column half under the request ids", async () => {
    const view = await openTable(600);
    try {
      const page = view.page;
      await view.dispatch({ type: 'filter', filter: { findingCode: 'ttft-not-recorded', stageId: 1 } });
      await waitUntil(page, `${SCROLL}.scrollLeft > 0`);
      await page.evaluate(FRAMES);
      assert.deepEqual(await page.evaluate(underIdColumn), []);
    } finally {
      await view.close();
    }
  });

  test('another session shown starts at its first column, not at the sideways offset of the one before', async () => {
    const view = await openTable(600);
    try {
      const page = view.page;
      await page.evaluate(`${SCROLL}.scrollLeft = ${SCROLL}.scrollWidth`);
      await page.evaluate(FRAMES);
      assert.ok(((await page.evaluate(`${SCROLL}.scrollLeft`)) as number) > 0);
      for (const m of view.host.show(sessionOfLog(LOG, { id: 'import-other' }))) await view.dispatch(m);
      await waitUntil(page, `document.querySelector('[data-testid="request-total"]')?.dataset.total === '6'`);
      await page.evaluate(FRAMES);
      assert.equal(await page.evaluate(`${SCROLL}.scrollLeft`), 0);
    } finally {
      await view.close();
    }
  });
});
