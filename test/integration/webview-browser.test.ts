// The built webview bundles in headless Chromium, inside the real HTML shell (strict CSP,
// nonce), fed by a fake host over 100k synthetic requests with every value state and an
// XSS request id. Asserts on the DOM and on the messages the pages post.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { WEBVIEW_COMMANDS, type WebviewToHost } from '../../server/protocol';
import { parseExposition } from '../../server/core/metricsText';
import { histogramSummariesOf } from '../../server/core/metricsText/scrapeSummary';
import { formatCompact } from '../../webview/shared/format';
import { headline } from '../../webview/sidePanel/summaryModel';
import { BUGGY_CODEC_SCRAPE } from '../unit/support/scrapeFixtures';
import type { WebviewPage } from '../fixtures/webview/browserHarness';
import { REPO_ROOT, WebviewHarness, timelineOf, waitUntil } from '../fixtures/webview/browserHarness';
import type { SyntheticSession } from '../fixtures/webview/syntheticSession';
import {
  spansOf,
  summarize,
  syntheticRequest,
  syntheticSession,
  XSS_INDEX,
  XSS_REQUEST_ID,
} from '../fixtures/webview/syntheticSession';
import { FakeHost } from '../fixtures/webview/fakeHost';

const COUNT = 100_000;
const SHOTS = path.join(REPO_ROOT, 'test-output/webview');

let data: SyntheticSession;
let harness: WebviewHarness;

before(async () => {
  data = syntheticSession(COUNT);
  harness = await WebviewHarness.start(data);
  fs.mkdirSync(SHOTS, { recursive: true });
});

after(async () => {
  await harness?.close();
});

const queries = (posted: readonly WebviewToHost[]): Extract<WebviewToHost, { type: 'queryRequests' }>[] =>
  posted.filter((m): m is Extract<WebviewToHost, { type: 'queryRequests' }> => m.type === 'queryRequests');

async function evaluate<T>(page: Page, expression: string): Promise<T> {
  return (await page.evaluate(expression)) as T;
}

/**
 * Poll a page expression until it is truthy. (page.waitForFunction evaluates strings with
 * eval inside the page, which the webview's CSP rightly forbids.)
 */

const row = (index: number): string => `[data-testid="request-row"][data-index="${index}"]`;
/** The row's request id cell: in the table's sticky id column, owned by the row (aria-owns). */
const idCell = (index: number): string => `[data-testid="request-id"][data-index="${index}"]`;

async function waitRowLoaded(page: Page, index: number): Promise<void> {
  await waitUntil(
    page,
    `(() => { const c = document.querySelector('${idCell(index)}'); return c !== null && c.dataset.state === 'text'; })()`,
  );
}

describe('latency panel', () => {
  let view: WebviewPage;
  let page: Page;

  before(async () => {
    view = await harness.open('latencyPanel', { width: 1280, height: 800 }, new FakeHost(data, { explain: false }));
    page = view.page;
    await waitRowLoaded(page, 0);
  });

  after(async () => {
    await view?.close();
  });

  test('first view: rows of the first page and the total', async () => {
    assert.equal(await page.locator(`${idCell(0)}`).textContent(), 'chatcmpl-00000000-0');
    assert.equal(await page.getByTestId('request-total').getAttribute('data-total'), String(COUNT));
    assert.match((await page.getByTestId('request-total').textContent()) ?? '', /100,000 requests/);
    await page.screenshot({ path: path.join(SHOTS, 'latency-panel-requests.png') });
  });

  test('virtualized: only a window of rows is in the DOM', async () => {
    const rows = await page.getByTestId('request-row').count();
    assert.ok(rows > 20 && rows < 100, `${rows} rows in the DOM`);
    assert.equal(await page.getByTestId('request-table').getAttribute('aria-rowcount'), String(COUNT + 1));
    const first = queries(await view.posted())[0];
    assert.deepEqual(first?.params, { offset: 0, limit: 50 });
  });

  test('a request id with markup is shown as text and nothing runs', async () => {
    assert.equal(await page.locator(`${idCell(XSS_INDEX)}`).textContent(), XSS_REQUEST_ID);
    assert.equal(await page.locator('img').count(), 0);
    assert.equal(await evaluate<number>(page, 'window.__alerts'), 0);
    assert.deepEqual(await evaluate<string[]>(page, 'window.__cspViolations'), []);
  });

  test('measured 0, inferred, not measured, hidden and not recorded are rendered distinctly, explained on hover', async () => {
    const cell = (index: number, col: string): string => `${row(index)} .cell[data-col="${col}"]`;
    const titleOnHover = async (selector: string): Promise<string> => {
      await page.locator(selector).hover();
      return (await page.locator(selector).getAttribute('title')) ?? '';
    };
    // Request 0: stage 0 queued is a measured 0.
    assert.equal(await page.locator(cell(0, '0.queuedMs')).textContent(), '0');
    assert.equal(await page.locator(cell(0, '0.queuedMs')).getAttribute('data-state'), 'measured');
    assert.match(await titleOnHover(cell(0, '0.queuedMs')), /real zero/);
    // Request 3: stage 1 ready queued hidden while input wait measured -> inferred 0.
    assert.equal(await page.locator(cell(3, '1.readyQueuedMs')).getAttribute('data-state'), 'inferred');
    assert.equal(await page.locator(cell(3, '1.readyQueuedMs')).textContent(), '≈0');
    assert.match(await titleOnHover(cell(3, '1.readyQueuedMs')), /Inferred/);
    // Request 5: stage 1 decode printed None.
    assert.equal(await page.locator(cell(5, '1.decodeMs')).getAttribute('data-state'), 'notMeasured');
    assert.equal(await page.locator(cell(5, '1.decodeMs')).textContent(), 'not measured');
    assert.match(await titleOnHover(cell(5, '1.decodeMs')), /printed None/);
    // Stage 2 (the codec) is off to the right: cells are written when scrolled into view.
    await page.evaluate(`document.querySelector('[data-testid="request-table-scroll"]').scrollLeft = 100000`);
    const codec = data.requests.findIndex((r, i) => i < 20 && r.stages[2]?.split.states.ttftMs === 'notRecorded');
    await waitUntil(page, `document.querySelector('${cell(codec, '2.ttftMs')}').dataset.state === 'notRecorded'`);
    const notRecorded = page.locator('.data-row .cell[data-state="notRecorded"]');
    for (const text of await notRecorded.allTextContents()) assert.equal(text, 'not recorded');
    assert.match(await titleOnHover(cell(codec, '2.ttftMs')), /codec first-audio signature/);
    assert.equal(await page.locator(cell(codec, '2.prefillMs')).textContent(), 'hidden');
    assert.match(await titleOnHover(cell(codec, '2.prefillMs')), /zero or not measured/);
    // The request id column stays in view (sticky) while scrolled right: at the scroll
    // container's left edge, drawn over the value cells.
    const edges = await evaluate<{ id: number; box: number; scrolled: number }>(
      page,
      `(() => { const s = document.querySelector('[data-testid="request-table-scroll"]'); return { id: document.querySelector('${idCell(XSS_INDEX)}').getBoundingClientRect().left, box: s.getBoundingClientRect().left, scrolled: s.scrollLeft }; })()`,
    );
    assert.ok(edges.scrolled > 500, `scrolled right by ${edges.scrolled}px`);
    assert.ok(Math.abs(edges.id - edges.box) <= 2, `id cell at ${edges.id}px, container at ${edges.box}px`);
    await page.screenshot({ path: path.join(SHOTS, 'latency-panel-requests-codec.png') });
    await page.evaluate(`document.querySelector('[data-testid="request-table-scroll"]').scrollLeft = 0`);
  });

  test('a row owns its id cell (aria-owns), so assistive technology reads one row', async () => {
    const owned = await page.locator(row(3)).getAttribute('aria-owns');
    assert.ok(owned !== null && owned !== '');
    assert.equal(await page.locator(`[id="${owned}"]`).getAttribute('data-index'), '3');
    assert.equal(await page.locator(`[id="${owned}"]`).getAttribute('role'), 'rowheader');
  });

  test('the selected row carries its explanations (keyboard users cannot hover)', async () => {
    await page.locator(`${idCell(5)}`).click();
    assert.equal(await page.locator(row(5)).getAttribute('aria-selected'), 'true');
    assert.match(
      (await page.locator(`${row(5)} .cell[data-col="1.decodeMs"]`).getAttribute('title')) ?? '',
      /printed None/,
    );
  });

  test('clicking a header sorts on the server: the query names the column', async () => {
    const header = page.locator('[data-sort-key="1.prefillMs"]');
    const before = queries(await view.posted()).length;
    await header.click();
    await waitUntil(
      page,
      `document.querySelector('[role=columnheader][data-col="1.prefillMs"]').getAttribute('aria-sort') === 'descending'`,
    );
    // The first question that names the column is the new order's first page (a fetch the
    // earlier scrolling scheduled may still post in the old order just before it).
    let last: ReturnType<typeof queries>[number] | undefined = queries(await view.posted())
      .slice(before)
      .find((q) => q.params.sortBy === '1.prefillMs');
    assert.equal(last?.params.sortBy, '1.prefillMs');
    assert.equal(last?.params.descending, true);
    assert.equal(last?.params.offset, 0);
    const expected = [...data.requests].map((r) => r.stages[1]?.split.values.prefillMs ?? -1).sort((a, b) => b - a)[0];
    await waitUntil(
      page,
      `document.querySelector('${row(0)} .cell[data-col="1.prefillMs"]').textContent === ${JSON.stringify(formatCompact(expected))}`,
    );
    await header.click();
    last = queries(await view.posted()).at(-1);
    assert.equal(last?.params.sortBy, '1.prefillMs');
    assert.equal(last?.params.descending, false);
    await waitUntil(
      page,
      `document.querySelector('[role=columnheader][data-col="1.prefillMs"]').getAttribute('aria-sort') === 'ascending'`,
    );
  });

  test('scrolling far fetches the page at that offset and keeps the DOM small', async () => {
    await page.evaluate(`document.querySelector('[data-testid="request-table-scroll"]').scrollTop = 50000 * 22`);
    await waitRowLoaded(page, 50_000);
    assert.ok(queries(await view.posted()).some((q) => q.params.offset === 50_000 && q.params.limit === 50));
    const rows = await page.getByTestId('request-row').count();
    assert.ok(rows < 100, `${rows} rows in the DOM`);
  });

  test('keyboard: arrows move the selection, Enter opens the timeline', async () => {
    await page.evaluate(`document.querySelector('[data-testid="request-table-scroll"]').scrollTop = 0`);
    await waitRowLoaded(page, 0);
    await page.locator(`${idCell(0)}`).click();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    assert.equal(await page.locator(row(2)).getAttribute('aria-selected'), 'true');
    assert.equal(await page.getByTestId('request-table').getAttribute('aria-activedescendant'), 'request-row-2');
    const id = await page.locator(`${idCell(2)}`).textContent();
    await page.keyboard.press('Enter');
    await waitUntil(
      page,
      `document.querySelector('[data-testid="tab-timeline"]').getAttribute('aria-selected') === 'true'`,
    );
    const opened = (await view.posted()).filter((m) => m.type === 'queryRequest').at(-1);
    assert.deepEqual(opened, { type: 'queryRequest', requestId: id });
    await waitUntil(
      page,
      `document.querySelector('[data-testid="waterfall-title"]').textContent === ${JSON.stringify(id)} && !document.querySelector('[data-testid="waterfall-legend"]').hidden`,
    );
  });

  test('timeline: reconstructed segments are hatched and their rule is in the legend', async () => {
    await page.getByTestId('tab-requests').click();
    await page.locator('[data-sort-key="requestId"]').click(); // any stable order; then open via filter text
    const index = data.requests.findIndex((r) => r.stages[2]?.split.states.ttftMs === 'notRecorded' && !r.cold);
    const target = data.requests[index]?.requestId as string;
    await page.getByTestId('filter-text').fill(target);
    await waitUntil(page, `document.querySelector('[data-testid="request-total"]').dataset.total === '1'`);
    await waitRowLoaded(page, 0);
    await page.locator(`${idCell(0)}`).dblclick();
    // The last request's timeline stays under the new heading until this one's answer is drawn.
    await waitUntil(
      page,
      `${timelineOf(target)} && !document.querySelector('[data-testid="waterfall-legend"]').hidden`,
    );
    const legend = page.getByTestId('legend-reconstructed');
    assert.equal(await legend.isVisible(), true);
    assert.match((await legend.textContent()) ?? '', /Hatched: reconstructed, not measured/);
    const rules = await page.locator('[data-testid="waterfall-rules"] li').allTextContents();
    assert.ok(
      rules.some((r) => r.startsWith('stage 2 · code2wav') && /drawn .*no measured anchor/.test(r)),
      rules.join('\n'),
    );
    assert.equal(await page.getByTestId('legend-measured').isVisible(), true);
    // The placement rule in words, not the timeline's rule id ("placed by anchored: ...").
    const measured = (await page.getByTestId('legend-measured').textContent()) ?? '';
    assert.match(measured, /placed from the stage's measured time to first output/);
    assert.doesNotMatch(measured, /anchored|serving_time_to_first_output_ms/);
    assert.equal(
      await page.locator('[data-testid="request-facts"] tr[data-stage-key="2"] td[data-col="ttftMs"] .v').textContent(),
      'not recorded',
    );
    assert.match((await page.getByTestId('waterfall-canvas').getAttribute('aria-label')) ?? '', /Slowest phase/);
    await page.screenshot({ path: path.join(SHOTS, 'latency-panel-timeline.png') });
    await page.getByTestId('tab-requests').click();
    await page.getByTestId('filter-clear').click();
    await waitUntil(page, `document.querySelector('[data-testid="request-total"]').dataset.total === '${COUNT}'`);
  });

  test('over time: all requests drawn, zoom with + and reset with 0', async () => {
    await page.getByTestId('tab-spans').click();
    await waitUntil(
      page,
      `/of 100,000 requests in view/.test(document.querySelector('[data-testid="spans-status"]').textContent)`,
    );
    const all = Number(await page.getByTestId('spans-canvas').getAttribute('data-visible'));
    assert.equal(all, COUNT);
    await page.screenshot({ path: path.join(SHOTS, 'latency-panel-over-time-100k.png') });
    await page.getByTestId('spans-canvas').focus();
    for (let i = 0; i < 6; i++) await page.keyboard.press('+');
    await waitUntil(page, `Number(document.querySelector('[data-testid="spans-canvas"]').dataset.visible) < ${COUNT}`);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('0');
    await waitUntil(
      page,
      `Number(document.querySelector('[data-testid="spans-canvas"]').dataset.visible) === ${COUNT}`,
    );
    assert.match((await page.getByTestId('spans-legend').textContent()) ?? '', /cold/);
  });

  test('histograms: values that are not numbers are counted beside, never binned', async () => {
    await page.getByTestId('tab-histograms').click();
    await page.getByTestId('histogram-stage').selectOption('2');
    await page.getByTestId('histogram-metric').selectOption('split:ttftMs');
    const states = data.summary.stages.find((s) => s.stageKey === '2' && s.replicaId === null)?.splitStates.ttftMs;
    assert.ok(states !== undefined && states.notRecorded > 0);
    await waitUntil(
      page,
      `document.querySelector('[data-testid="histogram-unbinned"] li[data-state="notRecorded"]')?.dataset.count === '${states.notRecorded}'`,
    );
    const binned = (await page.getByTestId('histogram-binned').textContent()) ?? '';
    assert.match(binned, new RegExp(`${(states.measured + states.inferred).toLocaleString('en-US')} numbers binned`));
    const last = (await view.posted()).filter((m) => m.type === 'queryHistogram').at(-1);
    assert.deepEqual(last, {
      type: 'queryHistogram',
      seq: (last as { seq: number }).seq,
      params: { stageKey: '2', metric: 'split:ttftMs', bins: 40 },
    });
    await page.screenshot({ path: path.join(SHOTS, 'latency-panel-histogram.png') });
  });

  test('a live update bumps the total and keeps the scroll position', async () => {
    await page.getByTestId('tab-requests').click();
    await page.evaluate(`document.querySelector('[data-testid="request-table-scroll"]').scrollTop = 2200`);
    await waitRowLoaded(page, 100);
    const before = await evaluate<number>(
      page,
      `document.querySelector('[data-testid="request-table-scroll"]').scrollTop`,
    );
    const summary = view.host.append(Array.from({ length: 5 }, (_, i) => syntheticRequest(COUNT + i)));
    await view.dispatch(summary);
    await waitUntil(page, `document.querySelector('[data-testid="request-total"]').dataset.total === '${COUNT + 5}'`);
    assert.equal(
      await evaluate<number>(page, `document.querySelector('[data-testid="request-table-scroll"]').scrollTop`),
      before,
    );
    assert.match((await page.getByTestId('session-meta').textContent()) ?? '', /100,005 requests/);
  });

  test('state is restored after a reload: tab, sort, scroll position', async () => {
    const before = await evaluate<number>(
      page,
      `document.querySelector('[data-testid="request-table-scroll"]').scrollTop`,
    );
    await page.waitForTimeout(300); // the state is saved debounced
    await page.reload();
    await waitUntil(page, `document.querySelector('[data-testid="request-total"]')?.dataset.total === '${COUNT + 5}'`);
    assert.equal(await page.getByTestId('tab-requests').getAttribute('aria-selected'), 'true');
    const first = queries(await view.posted())[0];
    assert.equal(first?.params.sortBy, 'requestId');
    await waitUntil(page, `document.querySelector('[data-testid="request-table-scroll"]').scrollTop === ${before}`);
  });

  test('a filter from the host (a clicked stage) narrows the table', async () => {
    const before = queries(await view.posted()).length;
    await view.dispatch({ type: 'filter', filter: { stageId: 2 } });
    await waitUntil(page, `document.querySelector('[data-testid="filter-stage"]').value === '2'`);
    // A fetch the restored scroll position scheduled may still post (unfiltered) before the
    // filter lands; the filter's own first question is the first one that names the stage.
    const after = queries(await view.posted()).slice(before);
    const first = after.findIndex((q) => q.params.stageId === 2);
    assert.ok(first >= 0, `no query named stage 2; asked: ${JSON.stringify(after.map((q) => q.params))}`);
    assert.equal(after[first]?.params.offset, 0);
    // Once filtered, every later question keeps the filter.
    assert.deepEqual(
      after.slice(first).map((q) => q.params.stageId),
      after.slice(first).map(() => 2),
    );
  });

  test('canvas colours follow the theme (redrawn on a body class change)', async () => {
    await page.getByTestId('tab-spans').click();
    await waitUntil(page, `Number(document.querySelector('[data-testid="spans-canvas"]').dataset.visible) > 0`);
    const snapshot = `document.querySelector('[data-testid="spans-canvas"]').toDataURL()`;
    // The picture before the change, once it is drawn for good (the same over 100 ms): a redraw
    // still to come for another reason (a resize) would make the comparison below pass alone.
    let dark = await evaluate<string>(page, snapshot);
    for (let settled = false; !settled;) {
      await page.waitForTimeout(100);
      const again = await evaluate<string>(page, snapshot);
      settled = again === dark;
      dark = again;
    }
    await page.evaluate(`(() => {
      const style = document.getElementById('vscode-theme');
      style.textContent = style.textContent.replace(/--vscode-charts-(\\w+): #[0-9a-f]+;/g, '--vscode-charts-$1: #101010;').replace(/--vscode-descriptionForeground: #[0-9a-f]+;/, '--vscode-descriptionForeground: #202020;');
      document.body.classList.replace('vscode-dark', 'vscode-light');
    })()`);
    await waitUntil(
      page,
      `document.querySelector('[data-testid="spans-canvas"]').toDataURL() !== ${JSON.stringify(dark)}`,
    );
  });
});

describe('latency panel opened before the first request', () => {
  test('the empty table fills in as requests arrive (a live session that starts empty)', async () => {
    const empty: SyntheticSession = {
      ...data,
      session: { ...data.session, requestCount: 0 },
      requests: [],
      summary: summarize(data.session.id, []),
      spans: spansOf([]),
    };
    const view = await harness.open('latencyPanel', { width: 1000, height: 600 }, new FakeHost(empty));
    try {
      const page = view.page;
      await waitUntil(page, `document.querySelector('[data-testid="request-total"]').dataset.total === '0'`);
      for (const n of [3, 7]) {
        await view.dispatch(
          view.host.append(
            Array.from({ length: n - view.host.session.requests.length }, (_, i) =>
              syntheticRequest(view.host.session.requests.length + i),
            ),
          ),
        );
        await waitUntil(page, `document.querySelector('[data-testid="request-total"]').dataset.total === '${n}'`);
      }
      await waitRowLoaded(page, 6);
      assert.equal(await page.locator(idCell(6)).textContent(), data.requests[6]?.requestId);
    } finally {
      await view.close();
    }
  });
});

describe('side panel', () => {
  let view: WebviewPage;
  let page: Page;

  before(async () => {
    view = await harness.open('sidePanel', { width: 900, height: 640 });
    page = view.page;
    await page.waitForSelector('[data-testid="stage-row"]');
  });

  after(async () => {
    await view?.close();
  });

  const cell = (stageKey: string, col: string): string =>
    `[data-testid="stage-row"][data-stage-key="${stageKey}"] td[data-col="${col}"]`;

  test('one row per stage with its role name', async () => {
    const rows = await page.getByTestId('stage-row').allTextContents();
    assert.equal(rows.length, 3);
    assert.match(rows[0] ?? '', /^stage 0thinker/);
    assert.match(rows[2] ?? '', /^stage 2code2wav/);
    assert.equal(await page.locator('th[data-col="inputWaitMs"]').count(), 1);
    await page.screenshot({ path: path.join(SHOTS, 'side-panel.png') });
  });

  test('the codec TTFT signature reads "not recorded", never 0', async () => {
    // Stage 2 has 40% real TTFTs: its TTFT cell is a number over those only, flagged partial.
    const ttft = page.locator(`${cell('2', 'ttftMs')} .v`);
    assert.equal(await ttft.getAttribute('data-partial'), 'true');
    assert.match((await page.locator(cell('2', 'ttftMs')).getAttribute('title')) ?? '', /not recorded/);
    assert.notEqual(await ttft.textContent(), '0');
    // Stage 0 has no input gate: not measured.
    assert.equal(await page.locator(`${cell('0', 'inputWaitMs')} .v`).textContent(), 'not measured');
  });

  test('all-not-recorded TTFT shows the words', async () => {
    const only = data.requests.filter((r) => r.stages[2]?.split.states.ttftMs === 'notRecorded').slice(0, 50);
    await view.dispatch({ type: 'summary', summary: summarize(data.session.id, only) });
    await waitUntil(page, `document.querySelector('${cell('2', 'ttftMs')} .v').textContent === 'not recorded'`);
    assert.equal(await page.locator(`${cell('2', 'ttftMs')} .v`).getAttribute('data-state'), 'notRecorded');
    assert.match((await page.locator(cell('2', 'ttftMs')).getAttribute('title')) ?? '', /codec first-audio signature/);
    await view.dispatch({ type: 'summary', summary: data.summary });
  });

  test('the percentile switch changes the numbers', async () => {
    await page.getByTestId('percentile-p99').click();
    const p99 = data.summary.stages[0]?.split.prefillMs?.p99 as number;
    await waitUntil(
      page,
      `document.querySelector('${cell('0', 'prefillMs')} .v').textContent === ${JSON.stringify(formatCompact(p99))}`,
    );
    assert.equal(await page.getByTestId('percentile-p99').getAttribute('aria-checked'), 'true');
    await page.getByTestId('percentile-p50').click();
  });

  test('/metrics histograms: their own section, per stage, labelled as scrape estimates; the codec lie is not shown as a number', async () => {
    assert.equal(await page.getByTestId('scrape-section').isHidden(), true, 'no scrape: no section');
    const histograms = histogramSummariesOf(parseExposition(BUGGY_CODEC_SCRAPE));
    await view.dispatch({ type: 'summary', summary: { ...data.summary, histograms } });
    await page.getByTestId('scrape-section').waitFor();
    assert.match((await page.locator('[data-testid="scrape-section"] h2').textContent()) ?? '', /From \/metrics/);
    const rows = await page.getByTestId('scrape-row').allTextContents();
    assert.equal(rows.length, 2);
    assert.match(rows[0] ?? '', /^stage 0 · replica 0/);
    // Requests from a per-request family (TTFT's 8), not the per-token ITL count (80), and
    // the hover names the family counted.
    const count0 = page.locator('[data-testid="scrape-row"]:nth-child(1) .stage-count');
    assert.equal(await count0.textContent(), '8 requests');
    assert.doesNotMatch(rows[0] ?? '', /obs=/);
    assert.match((await count0.getAttribute('title')) ?? '', /the count of vllm:time_to_first_token_seconds/);
    const scrapeCell = (row: number, col: string): string =>
      `[data-testid="scrape-row"]:nth-child(${row + 1}) td[data-col="${col}"]`;
    const ttft0 =
      (histograms.find((h) => h.family === 'vllm:time_to_first_token_seconds' && h.labels['stage'] === '0')?.p50 ??
        NaN) * 1000;
    assert.equal(await page.locator(`${scrapeCell(0, 'ttft')} .v`).textContent(), formatCompact(ttft0));
    assert.match(
      (await page.locator(scrapeCell(0, 'ttft')).getAttribute('title')) ?? '',
      /histogram_quantile over 8 observations of the last \/metrics scrape/,
    );
    assert.equal(await page.locator(`${scrapeCell(1, 'ttft')} .v`).textContent(), 'not recorded');
    assert.equal(await page.locator(`${scrapeCell(1, 'prefill')} .v`).textContent(), 'not usable');
    assert.match((await page.locator(scrapeCell(1, 'prefill')).getAttribute('title')) ?? '', /codec TTFT bug/);
    // The log's table is untouched and still labelled as the log's.
    assert.equal(await page.getByTestId('stage-row').count(), 3);
    await page.getByTestId('scrape-section').screenshot({ path: path.join(SHOTS, 'side-panel-metrics.png') });
    await view.dispatch({ type: 'summary', summary: data.summary });
    await waitUntil(page, `document.querySelector('[data-testid="scrape-section"]').hidden`);
  });

  test('a Prometheus session: each replica with its hosts and throughput line; a missing point is a gap and "no data"', async () => {
    assert.equal(await page.getByTestId('prometheus-section').isHidden(), true, 'not a Prometheus session: no section');
    const hostile = '<img src=x onerror=alert(1)>:8000';
    const prometheus = {
      window: '5m',
      evaluatedAt: Date.UTC(2026, 10, 29, 12, 0, 0),
      replicas: [
        { stage: '0', replica: '0', instances: ['10.0.0.5:8000'] },
        { stage: '2', replica: '1', instances: ['10.0.0.6:8000', hostile] },
      ],
      trend: {
        family: 'vllm:e2e_request_latency_seconds',
        stepSeconds: 15,
        times: [1, 2, 3, 4],
        series: [
          { stage: '0', replica: '0', perSecond: [2, null, 3, 3.5] },
          { stage: '2', replica: '1', perSecond: [1, 1.5, 0, null] },
        ],
      },
    };
    await view.dispatch({ type: 'summary', summary: { ...data.summary, prometheus } });
    await page.getByTestId('prometheus-section').waitFor();
    assert.match(
      (await page.getByTestId('prometheus-caption').textContent()) ?? '',
      /^window 5m · evaluated \d\d:\d\d:\d\d$/,
    );
    const items = page.getByTestId('prometheus-replica');
    assert.equal(await items.count(), 2);
    assert.match((await items.nth(0).textContent()) ?? '', /^stage 0 \S* ?· replica 0/);
    assert.deepEqual(await page.getByTestId('replica-instances').allTextContents(), [
      '10.0.0.5:8000',
      `10.0.0.6:8000, ${hostile}`,
    ]);
    assert.deepEqual(await page.getByTestId('replica-rate').allTextContents(), ['3.50 req/s', 'no data']);
    assert.equal(await page.getByTestId('replica-rate').nth(1).getAttribute('data-state'), 'noData');
    // Points drawn: the nulls are left out (gaps), the measured 0 is drawn.
    assert.deepEqual(
      await page
        .locator('[data-testid="prometheus-replica"] canvas')
        .evaluateAll((cs: { getAttribute(name: string): string | null }[]) =>
          cs.map((c) => c.getAttribute('data-points')),
        ),
      ['3', '3'],
    );
    assert.equal(await evaluate<number>(page, 'window.__alerts'), 0);
    assert.equal(
      await page.locator('[data-testid="prometheus-section"] img').count(),
      0,
      'an instance name stays text',
    );
    await page.getByTestId('prometheus-section').screenshot({ path: path.join(SHOTS, 'side-panel-prometheus.png') });
    await view.dispatch({ type: 'summary', summary: data.summary });
    await waitUntil(page, `document.querySelector('[data-testid="prometheus-section"]').hidden`);
  });

  test('clicking a stage or a finding opens the latency panel on it', async () => {
    await page.locator('[data-testid="stage-row"][data-stage-key="1"]').click();
    await page.locator('[data-testid="finding"][data-code="ttft-not-recorded"] button').click();
    const opens = (await view.posted()).filter((m) => m.type === 'openLatencyPanel');
    assert.deepEqual(opens.slice(-2), [
      { type: 'openLatencyPanel', filter: { stageId: 1 } },
      { type: 'openLatencyPanel', filter: { findingCode: 'ttft-not-recorded', stageId: 2 } },
    ]);
  });

  test('narrow side bar: stages become cards', async () => {
    await page.setViewportSize({ width: 320, height: 760 });
    await page.waitForTimeout(100);
    await page.screenshot({ path: path.join(SHOTS, 'side-panel-narrow.png') });
    const width = await evaluate<number>(
      page,
      `document.querySelector('[data-testid="stage-summary"]').getBoundingClientRect().width`,
    );
    assert.ok(width <= 320, `table ${width}px wide`);
  });

  test('light theme', async () => {
    const light = await harness.open('sidePanel', { width: 560, height: 640, theme: 'light' });
    try {
      await light.page.waitForSelector('[data-testid="stage-row"]');
      assert.equal(await light.page.evaluate(`document.body.classList.contains('vscode-light')`), true);
      await light.page.screenshot({ path: path.join(SHOTS, 'side-panel-light.png') });
    } finally {
      await light.close();
    }
  });

  test("the trend is the shown session's own: another session's values never continue its line, and it survives switching and reloads", async () => {
    const trendOfPage = (): Promise<{ sessionId: string; points: string }> =>
      page.getByTestId('trend').evaluate((c) => {
        const d = (c as unknown as { dataset: Record<string, string | undefined> }).dataset;
        return { sessionId: d['sessionId'] ?? '', points: d['points'] ?? '' };
      });
    const p50Of = (id: string, count: number): number => {
      const v = headline(summarize(id, data.requests.slice(0, count)))?.p50;
      assert.ok(typeof v === 'number', `${id} ${count}: a p50 headline`);
      return v;
    };
    // Three updates of the live session: three points.
    for (const count of [100, 200, 300])
      await view.dispatch({ type: 'summary', summary: summarize(data.session.id, data.requests.slice(0, count)) });
    await waitUntil(
      page,
      `(document.querySelector('[data-testid="trend"]').dataset.points ?? '').split(',').length >= 3`,
    );
    const live = await trendOfPage();
    assert.equal(live.sessionId, data.session.id);
    // The headline in the words the tail section and explain give the same figure.
    assert.equal(await page.locator('.trend-label').textContent(), 'p50 time to first audio (stage 2 · code2wav)');
    assert.deepEqual(live.points.split(',').slice(-3).map(Number), [
      p50Of(data.session.id, 100),
      p50Of(data.session.id, 200),
      p50Of(data.session.id, 300),
    ]);
    // An imported session is shown: before its first summary its trend is empty, not the live one's line.
    const imported = { ...data.session, id: 'imported-2', kind: 'import' as const, title: 'imported.log' };
    await view.dispatch({ type: 'session', session: imported, stageNames: data.stageNames });
    await waitUntil(page, `document.querySelector('[data-testid="trend"]').dataset.sessionId === 'imported-2'`);
    assert.deepEqual(await trendOfPage(), { sessionId: 'imported-2', points: '' });
    assert.equal(await page.getByTestId('trend-value').textContent(), '—');
    // A late summary of the live session is not the shown session's: no point.
    await view.dispatch({ type: 'summary', summary: summarize(data.session.id, data.requests.slice(0, 400)) });
    await view.dispatch({ type: 'summary', summary: summarize('imported-2', data.requests.slice(0, 50)) });
    await waitUntil(page, `document.querySelector('[data-testid="trend"]').dataset.points !== ''`);
    assert.deepEqual(await trendOfPage(), { sessionId: 'imported-2', points: String(p50Of('imported-2', 50)) });
    await page.locator('.trend').screenshot({ path: path.join(SHOTS, 'side-panel-trend-new-session.png') });
    // Back to the live session: its line so far, continued by its next summary.
    const before = live.points.split(',').map(Number);
    await view.dispatch({ type: 'session', session: data.session, stageNames: data.stageNames });
    await view.dispatch({ type: 'summary', summary: data.summary });
    await waitUntil(
      page,
      `document.querySelector('[data-testid="trend"]').dataset.sessionId === '${data.session.id}' && document.querySelector('[data-testid="trend"]').dataset.points.split(',').length > ${before.length}`,
    );
    assert.deepEqual(await trendOfPage(), {
      sessionId: data.session.id,
      points: [...before, headline(data.summary)?.p50].join(','),
    });
    // The page reloaded (a side bar hidden and shown again): each session's line is still there.
    await page.reload();
    await view.dispatch({ type: 'session', session: data.session, stageNames: data.stageNames });
    await waitUntil(page, `document.querySelector('[data-testid="trend"]').dataset.sessionId === '${data.session.id}'`);
    assert.deepEqual(await trendOfPage(), {
      sessionId: data.session.id,
      points: [...before, headline(data.summary)?.p50].join(','),
    });
    await view.dispatch({ type: 'session', session: imported, stageNames: data.stageNames });
    await waitUntil(page, `document.querySelector('[data-testid="trend"]').dataset.sessionId === 'imported-2'`);
    assert.deepEqual(await trendOfPage(), { sessionId: 'imported-2', points: String(p50Of('imported-2', 50)) });
    await view.dispatch({ type: 'session', session: data.session, stageNames: data.stageNames });
  });

  test('no session: the empty state offers the ways in', async () => {
    await view.dispatch({ type: 'session', session: null, stageNames: {} });
    await page.getByTestId('empty-state').waitFor();
    // Every way the palette has to start a session, in groups; each button posts its own command.
    assert.deepEqual(await page.locator('.start-group h3').allTextContents(), [
      'Try it',
      'Run your server',
      'Watch a running server',
      'Read a log or a saved session',
    ]);
    assert.deepEqual(await page.locator('[data-testid="start-watch"] button').allTextContents(), [
      'Attach to Running Server…',
      'Attach to Log File…',
      'Attach to Metrics URL…',
      'Attach to Prometheus…',
    ]);
    for (const c of Object.keys(WEBVIEW_COMMANDS)) {
      await page.getByTestId(`run-${c}`).click();
      assert.deepEqual((await view.posted()).at(-1), { type: 'runCommand', command: c });
    }
    await page.screenshot({ path: path.join(SHOTS, 'side-panel-empty.png') });
  });
});
