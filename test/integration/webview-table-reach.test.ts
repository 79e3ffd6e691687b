// Every column of the request table within reach, in the built bundle in headless Chromium
// (which, like macOS's overlay scrollbars, draws no scrollbar of its own), on the Qwen3-TTS
// log before the codec stats fix (talker -> code2wav, six requests, ttft-not-recorded on
// stage 1): a scrollbar under the table moves it sideways, no cell's text runs past its
// cell, a finding or a tail sent to the table brings the column it is about into view, and
// scrolled sideways no number is drawn half under the sticky request id column. Screenshots
// go to test-output/webview/.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { WebviewPage } from '../fixtures/webview/browserHarness';
import { REPO_ROOT, WebviewHarness, waitUntil } from '../fixtures/webview/browserHarness';
import { sessionOfLog } from '../fixtures/webview/logSession';

const LOG = path.join(REPO_ROOT, 'test/fixtures/upstream-rendered/qwen3tts-talker-first-audio-before-fix.log');
const SHOTS = path.join(REPO_ROOT, 'test-output/webview');
const SCROLL = `document.querySelector('[data-testid="request-table-scroll"]')`;

/** Whether header cell `col` lies whole in the visible part of the table, right of the sticky id column. */
const inView = (col: string): string => `(() => {
  const s = ${SCROLL};
  const box = s.getBoundingClientRect();
  const left = box.left + s.clientLeft + document.querySelector('.head-row .id-cell').getBoundingClientRect().width;
  const right = box.left + s.clientLeft + s.clientWidth;
  const c = document.querySelector('.head-row [data-col=${JSON.stringify(col)}]').getBoundingClientRect();
  return c.left >= left - 0.5 && c.right <= right + 0.5;
})()`;

/** Value cells in the DOM whose text is wider than the cell's content box: `col text width/room`. */
const overflowingCells = `(() => {
  const out = [];
  for (const cell of document.querySelectorAll('.data-row:not([hidden]) .cell')) {
    if (cell.textContent === '') continue;
    const range = document.createRange();
    range.selectNodeContents(cell);
    const style = getComputedStyle(cell);
    const room = cell.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    const width = range.getBoundingClientRect().width;
    if (width > room + 0.5) out.push(cell.dataset.col + ' ' + JSON.stringify(cell.textContent) + ' ' + width.toFixed(1) + '/' + room);
  }
  return out;
})()`;

let harness: WebviewHarness;

before(async () => {
  harness = await WebviewHarness.start(sessionOfLog(LOG));
  fs.mkdirSync(SHOTS, { recursive: true });
});

after(async () => {
  await harness?.close();
});

async function openTable(width: number): Promise<WebviewPage> {
  const view = await harness.open('latencyPanel', { width, height: 600 });
  await waitUntil(view.page, `document.querySelector('[data-testid="request-total"]')?.dataset.total === '6'`);
  await waitUntil(
    view.page,
    `document.querySelector('[data-testid="request-id"][data-index="5"]')?.dataset.state === 'text'`,
  );
  return view;
}

const evaluate = async <T>(page: Page, expression: string): Promise<T> => (await page.evaluate(expression)) as T;

describe('request table: every column within reach', () => {
  test('a scrollbar is drawn under a table wider than the panel; dragging it to the end shows the last column', async () => {
    const view = await openTable(600);
    try {
      const page = view.page;
      const bar = page.getByTestId('request-table-hscroll');
      await bar.waitFor({ state: 'visible' });
      const g = await evaluate<{ scroll: number[]; bar: number[]; thumb: number[]; thumbColour: string }>(
        page,
        `(() => {
          const r = (e) => { const b = e.getBoundingClientRect(); return [b.left, b.right, b.top, b.bottom]; };
          const thumb = document.querySelector('[data-testid="request-table-hscroll-thumb"]');
          return { scroll: r(${SCROLL}), bar: r(document.querySelector('[data-testid="request-table-hscroll"]')), thumb: r(thumb), thumbColour: getComputedStyle(thumb).backgroundColor };
        })()`,
      );
      const [sLeft, sRight, , sBottom] = g.scroll as [number, number, number, number];
      const [bLeft, bRight, bTop, bBottom] = g.bar as [number, number, number, number];
      const [tLeft, tRight] = g.thumb as [number, number];
      assert.ok(Math.abs(bTop - sBottom) <= 1 && bLeft >= sLeft - 1 && bRight <= sRight + 1, JSON.stringify(g));
      assert.ok(bBottom - bTop >= 8, `too thin to grab: ${JSON.stringify(g)}`);
      assert.ok(tRight - tLeft < bRight - bLeft && tRight - tLeft >= 24, JSON.stringify(g));
      assert.notEqual(g.thumbColour, 'rgba(0, 0, 0, 0)', 'the thumb is drawn');
      await page.screenshot({ path: path.join(SHOTS, 'table-scrollbar-600.png') });

      const lastCol = await evaluate<string>(
        page,
        `[...document.querySelectorAll('.head-row [data-col]')].at(-1).dataset.col`,
      );
      assert.equal(await evaluate<boolean>(page, inView(lastCol)), false, 'the last column starts off-screen');
      await page.mouse.move((tLeft + tRight) / 2, (bTop + bBottom) / 2);
      await page.mouse.down();
      await page.mouse.move(bRight + 40, (bTop + bBottom) / 2, { steps: 5 });
      await page.mouse.up();
      await waitUntil(page, inView(lastCol));
      await waitUntil(page, `${SCROLL}.scrollLeft >= ${SCROLL}.scrollWidth - ${SCROLL}.clientWidth - 1`);
      // A click on the track left of the thumb pages back towards the start.
      const before = await evaluate<number>(page, `${SCROLL}.scrollLeft`);
      await page.mouse.click(bLeft + 3, (bTop + bBottom) / 2);
      await waitUntil(page, `${SCROLL}.scrollLeft < ${before}`);
    } finally {
      await view.close();
    }
  });

  test('no cell\'s text runs past its cell ("1,867 +decode" in bold included), across every column, in a 15 px font', async () => {
    const view = await openTable(1000);
    try {
      const page = view.page;
      // Cells are not clipped, so a column must be wide enough for its text in a font larger than the default too.
      await page.evaluate(`document.documentElement.style.setProperty('--vscode-font-size', '15px')`);
      const found: string[] = [];
      const max = await evaluate<number>(page, `${SCROLL}.scrollWidth - ${SCROLL}.clientWidth`);
      const step = await evaluate<number>(page, `${SCROLL}.clientWidth / 2`);
      for (let left = 0; ; left = Math.min(max, left + step)) {
        await page.evaluate(`${SCROLL}.scrollLeft = ${left}`);
        await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
        found.push(...(await evaluate<string[]>(page, overflowingCells)));
        if (left >= max) break;
      }
      const combined = await evaluate<number>(
        page,
        `document.querySelectorAll('.data-row .cell[data-state="combined"][data-slow="true"]').length`,
      );
      assert.ok(combined > 0, 'the log has a slow (bold) prefill+decode cell');
      assert.deepEqual([...new Set(found)], []);
    } finally {
      await view.close();
    }
  });

  test("a finding sent to the table (ttft-not-recorded on stage 1) brings that stage's TTFT column into view", async () => {
    const view = await openTable(600);
    try {
      const page = view.page;
      assert.equal(await evaluate<boolean>(page, inView('1.ttftMs')), false, 'stage 1 TTFT starts off-screen');
      await view.dispatch({ type: 'filter', filter: { stageId: 1, findingCode: 'ttft-not-recorded' } });
      await waitUntil(page, `document.querySelector('[data-testid="filter-finding"]').value === 'ttft-not-recorded'`);
      await waitUntil(page, inView('1.ttftMs'));
      await page.screenshot({ path: path.join(SHOTS, 'table-finding-ttft-600.png') });
    } finally {
      await view.close();
    }
  });

  test("the Tail tab's \"show in the table\" brings its target's column (stage 1's 1st output) into view", async () => {
    const view = await openTable(600);
    try {
      const page = view.page;
      const col = '1.field:serving_time_to_first_output_ms';
      assert.equal(await evaluate<boolean>(page, inView(col)), false, "stage 1's 1st output starts off-screen");
      await page.getByTestId('tab-tail').click();
      await page.getByTestId('tail-block').waitFor();
      await page.getByTestId('tail-show-table').click();
      await waitUntil(page, `document.querySelector('[data-testid="tail-filter"]')?.hidden === false`);
      await waitUntil(page, inView(col));
      await page.screenshot({ path: path.join(SHOTS, 'table-tail-first-output-600.png') });
    } finally {
      await view.close();
    }
  });
});

/**
 * Every value cell and header of the table that starts under the sticky id column, scrolled so
 * that the id column covers `covered` px of column `col`: where its text begins, whether it is
 * drawn (not transparent), and the id column's right edge.
 */
const underIdColumn = (col: string, covered: number): string => `(() => {
  const s = ${SCROLL};
  const head = document.querySelector('.head-row [data-col=${JSON.stringify(col)}]');
  const idWidth = document.querySelector('.head-row .id-cell').offsetWidth;
  s.scrollLeft = head.offsetLeft - idWidth + ${covered};
  const idRight = document.querySelector('.head-row .id-cell').getBoundingClientRect().right;
  const out = [];
  for (const cell of document.querySelectorAll('.data-row:not([hidden]) .cell, .head-row .head-cell:not(.id-cell)')) {
    if (cell.textContent === '') continue;
    const box = cell.getBoundingClientRect();
    if (!(box.left < idRight - 0.5 && box.right > idRight + 0.5)) continue;
    const range = document.createRange();
    range.selectNodeContents(cell);
    const text = range.getBoundingClientRect();
    const shown = cell.querySelector('.sort-button') ?? cell;
    const drawn = !/^rgba\\(.*, 0\\)$/.test(getComputedStyle(shown).color) && getComputedStyle(shown).visibility !== 'hidden';
    out.push({ col: cell.dataset.col, text: cell.textContent, textLeft: text.left, drawn });
  }
  return { scrolled: s.scrollLeft, idRight, cells: out };
})()`;

describe('request table scrolled sideways: no number half under the request id column', () => {
  test("a value cut at the id column's edge is hidden, never read as a shorter number (end to end, stage 0 prefill, stage 1 queued)", async () => {
    const view = await openTable(420);
    try {
      const page = view.page;
      type Under = {
        scrolled: number;
        idRight: number;
        cells: { col: string; text: string; textLeft: number; drawn: boolean }[];
      };
      const checked: string[] = [];
      for (const col of ['target:e2e', '0.prefillMs', '1.queuedMs'])
        for (const covered of [30, 60, 90]) {
          const under = await evaluate<Under>(page, underIdColumn(col, covered));
          await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
          const after = await evaluate<Under>(page, underIdColumn(col, covered));
          assert.ok(
            after.cells.some((c) => c.col === col && c.text !== '—' && /\d/.test(c.text)),
            `${col} has a number under the id column at ${covered} px: ${JSON.stringify(after)}`,
          );
          const cut = after.cells.filter((c) => c.drawn && c.textLeft < after.idRight - 0.5);
          assert.deepEqual(cut, [], `${col} covered ${covered} px: text drawn across the id column's edge`);
          checked.push(`${col}@${covered}: ${after.cells.length} (${under.scrolled})`);
        }
      await page
        .getByTestId('request-table-scroll')
        .screenshot({ path: path.join(SHOTS, 'table-cell-under-id-420.png') });
      // Scrolled clear (the column's left edge at the id column's), its numbers are drawn again.
      const clear = await evaluate<Under>(page, underIdColumn('0.prefillMs', 0));
      await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
      const drawn = await evaluate<boolean>(
        page,
        `[...document.querySelectorAll('.data-row:not([hidden]) .cell[data-col="0.prefillMs"]')].every((c) => getComputedStyle(c).color !== 'rgba(0, 0, 0, 0)')`,
      );
      assert.ok(drawn, `stage 0 prefill drawn once clear of the id column: ${JSON.stringify(clear)}`);
    } finally {
      await view.close();
    }
  });
});
