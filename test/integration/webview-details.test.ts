// Details a user meets in the first minutes with the webviews, in headless Chromium with the
// built bundles and the real HTML shell, fed by the fake host: the side bar at its default
// width cuts nothing; a tooltip being read survives live updates; the request table says why
// it is empty; a stage picked brings its columns into view; the Histograms tab opens on a
// value that has numbers and warns only about values that are there.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { StageSummary } from '../../server/protocol';
import type { WebviewPage } from '../fixtures/webview/browserHarness';
import { REPO_ROOT, WebviewHarness, answeredLast, waitUntil } from '../fixtures/webview/browserHarness';
import { FakeHost } from '../fixtures/webview/fakeHost';
import { sessionTitle } from '../../server/capture/sessionTitle';
import type { SyntheticSession } from '../fixtures/webview/syntheticSession';
import { spansOf, summarize, syntheticRequest, syntheticSession } from '../fixtures/webview/syntheticSession';

const COUNT = 400;
const SHOTS = path.join(REPO_ROOT, 'test-output/webview');
let data: SyntheticSession;
let harness: WebviewHarness;

before(async () => {
  data = syntheticSession(COUNT);
  harness = await WebviewHarness.start(data);
});

after(async () => {
  await harness?.close();
});

async function evaluate<T>(page: Page, expression: string): Promise<T> {
  return (await page.evaluate(expression)) as T;
}

describe("side panel at the side bar's default width", () => {
  let view: WebviewPage;
  let page: Page;

  before(async () => {
    view = await harness.open('sidePanel', { width: 300, height: 900 });
    page = view.page;
    await page.waitForSelector('[data-testid="stage-row"]');
  });

  after(async () => {
    await view?.close();
  });

  test('nothing is cut: the session title wraps, the button fits, nothing overflows sideways', async () => {
    const title = await page.getByTestId('session-title').textContent();
    assert.equal(title, data.session.title);
    const overflow = await evaluate<{ page: number; title: { scroll: number; client: number }; button: number }>(
      page,
      `(() => {
      const t = document.querySelector('[data-testid="session-title"]');
      return {
        page: document.documentElement.scrollWidth,
        title: { scroll: t.scrollWidth, client: t.clientWidth },
        button: document.querySelector('[data-testid="open-panel"]').getBoundingClientRect().right,
      };
    })()`,
    );
    assert.ok(overflow.page <= 300, `the page is ${overflow.page}px wide in a 300px side bar`);
    assert.ok(
      overflow.title.scroll <= overflow.title.client,
      `title cut: ${overflow.title.scroll} > ${overflow.title.client}`,
    );
    assert.ok(overflow.button <= 300, `button ends at ${overflow.button}px`);
    // Every element that cuts its text with an ellipsis shows it whole.
    const cut = await evaluate<string[]>(
      page,
      `[...document.querySelectorAll('#side-panel *')]
      .filter((el) => el.offsetParent !== null && getComputedStyle(el).textOverflow === 'ellipsis' && el.scrollWidth > el.clientWidth)
      .map((el) => el.textContent)`,
    );
    assert.deepEqual(cut, []);
  });

  test('a value in words ("⚠ not recorded") wraps inside its card instead of running out of it', async () => {
    // The demo's codec: every TTFT not recorded, the longest value a card shows.
    const only = data.requests.filter((r) => r.stages[2]?.split.states.ttftMs === 'notRecorded').slice(0, 50);
    await view.dispatch({ type: 'summary', summary: summarize(data.session.id, only) });
    await waitUntil(
      page,
      `document.querySelector('[data-testid="stage-row"][data-stage-key="2"] td[data-col="ttftMs"] .v').textContent === 'not recorded'`,
    );
    for (const width of [300, 270, 240, 210]) {
      await page.setViewportSize({ width, height: 900 });
      await page.waitForTimeout(100);
      // The text's own extent (a Range), against its cell and its card.
      const out = await evaluate<string[]>(
        page,
        `[...document.querySelectorAll('[data-testid="stage-row"] td')].filter((td) => {
        const v = td.querySelector('.v');
        const range = document.createRange();
        range.selectNodeContents(v);
        const text = range.getBoundingClientRect();
        const row = td.closest('tr').getBoundingClientRect();
        const box = td.getBoundingClientRect();
        return v.scrollWidth > v.clientWidth + 0.5 || text.right > box.right + 0.5 || text.right > row.right + 0.5;
      }).map((td) => td.closest('tr').dataset.stageKey + ':' + td.dataset.col + '=' + td.querySelector('.v').textContent)`,
      );
      assert.deepEqual(out, [], `${width}px: values running out of their cell`);
    }
    await page.setViewportSize({ width: 300, height: 900 });
    await view.dispatch({ type: 'summary', summary: data.summary });
  });

  test('counts are words: n= for requests, "observed" for /metrics, each explained', async () => {
    const count = page.locator('[data-testid="stage-row"][data-stage-key="0"] .stage-count');
    assert.equal(await count.textContent(), `n=${COUNT}`);
    assert.match((await count.getAttribute('title')) ?? '', new RegExp(`${COUNT} requests measured`));
  });

  test('a tooltip being read is not replaced by a live update; the new one comes when the pointer leaves', async () => {
    const cell = page.locator('[data-testid="stage-row"][data-stage-key="0"] td[data-col="prefillMs"]');
    const before = (await cell.getAttribute('title')) ?? '';
    assert.match(before, new RegExp(`over ${COUNT} values`));
    await cell.hover();
    await view.dispatch(view.host.append(Array.from({ length: 3 }, (_, i) => syntheticRequest(COUNT + i))));
    await waitUntil(
      page,
      `document.querySelector('[data-testid="stage-row"][data-stage-key="0"] .stage-count').textContent === 'n=${COUNT + 3}'`,
    );
    assert.equal(await cell.getAttribute('title'), before, "the hovered cell's title changed under the pointer");
    await page.mouse.move(2, 2);
    await waitUntil(
      page,
      `/over ${COUNT + 3} values/.test(document.querySelector('[data-testid="stage-row"][data-stage-key="0"] td[data-col="prefillMs"]').title)`,
    );
  });
});

describe('Latency Details header', () => {
  test('an imported log\'s name is shown whole at 600 px: its file, ordinal and log span, "imported" once', async () => {
    const title = sessionTitle({
      info: {
        ...data.session,
        kind: 'import',
        description: '/data/runs/qwen3tts-talker-first-audio-before-fix.log',
        status: 'exited',
        exit: null,
        deployConfig: '/ws/qwen3_tts.yaml',
        logSpan: { first: '10-19 07:12:04', last: '10-19 07:12:12' },
        importOrdinal: 2,
      },
      import: { path: '/data/runs/qwen3tts-talker-first-audio-before-fix.log' },
    });
    const imported: SyntheticSession = {
      ...data,
      session: { ...data.session, kind: 'import', status: 'exited', exit: null, title },
    };
    const view = await harness.open('latencyPanel', { width: 600, height: 500 }, new FakeHost(imported));
    try {
      const page = view.page;
      await waitUntil(page, `document.querySelector('[data-testid="request-total"]')?.dataset.total === '${COUNT}'`);
      const shown = await page.getByTestId('session-title').textContent();
      assert.equal(
        shown,
        'qwen3tts-talker-first-audio-before-fix.log (2) · qwen3_tts.yaml · logged 10-19 07:12:04 – 07:12:12',
      );
      assert.match((await page.getByTestId('session-meta').textContent()) ?? '', /^imported · /);
      const fit = await evaluate<{ scroll: number; client: number; right: number }>(
        page,
        `(() => { const t = document.querySelector('[data-testid="session-title"]'); return { scroll: t.scrollWidth, client: t.clientWidth, right: t.getBoundingClientRect().right }; })()`,
      );
      assert.ok(fit.scroll <= fit.client && fit.right <= 600, `title cut: ${JSON.stringify(fit)}`);
      await page
        .getByTestId('session-header')
        .screenshot({ path: path.join(SHOTS, 'latency-header-imported-600.png') });
    } finally {
      await view.close();
    }
  });
});

describe('request table', () => {
  test('an empty table says why: nothing captured yet, or nothing matches the filter', async () => {
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
      const message = page.getByTestId('request-table-empty');
      assert.equal(await message.isVisible(), true);
      assert.equal(await message.getAttribute('data-reason'), 'none');
      assert.match((await message.textContent()) ?? '', /No requests yet/);
      await view.dispatch(view.host.append([syntheticRequest(0), syntheticRequest(1)]));
      await waitUntil(page, `document.querySelector('[data-testid="request-total"]').dataset.total === '2'`);
      assert.equal(await message.isVisible(), false);
      await page.getByTestId('filter-text').fill('no-such-request');
      await waitUntil(page, `document.querySelector('[data-testid="request-total"]').dataset.total === '0'`);
      assert.equal(await message.isVisible(), true);
      assert.equal(await message.getAttribute('data-reason'), 'filtered');
      assert.match((await message.textContent()) ?? '', /No request matches this filter/);
    } finally {
      await view.close();
    }
  });

  test("a stage picked (a click in the side bar) brings that stage's columns into view", async () => {
    const view = await harness.open('latencyPanel', { width: 700, height: 600 });
    try {
      const page = view.page;
      await waitUntil(page, `document.querySelector('[data-testid="request-total"]')?.dataset.total === '${COUNT}'`);
      const stage2 = `[...document.querySelectorAll('.head-row [data-col]')].find((c) => c.dataset.col.startsWith('2.'))`;
      const inView = `(() => { const s = document.querySelector('[data-testid="request-table-scroll"]').getBoundingClientRect(); const c = ${stage2}.getBoundingClientRect(); return c.left >= s.left && c.right <= s.right; })()`;
      assert.equal(await evaluate<boolean>(page, inView), false, 'stage 2 starts off-screen in a narrow panel');
      await view.dispatch({ type: 'filter', filter: { stageId: 2 } });
      await waitUntil(page, `document.querySelector('[data-testid="filter-stage"]').value === '2'`);
      await waitUntil(page, inView);
      // and back: stage 0 is brought back into view from the filter bar
      await page.getByTestId('filter-stage').selectOption('0');
      const stage0 = `[...document.querySelectorAll('.head-row [data-col]')].find((c) => c.dataset.col.startsWith('0.'))`;
      await waitUntil(
        page,
        `(() => { const s = document.querySelector('[data-testid="request-table-scroll"]').getBoundingClientRect(); const c = ${stage0}.getBoundingClientRect(); return c.left >= s.left && c.right <= s.right; })()`,
      );
    } finally {
      await view.close();
    }
  });
});

describe('histograms tab', () => {
  test('opens on a value that has measured numbers; values without any say their state', async () => {
    // The last stage (the one the tab opens on) with no measured prefill, as a codec often has.
    const stages: StageSummary[] = data.summary.stages.map((s) =>
      s.stageKey === '2' ? { ...s, split: { ...s.split, prefillMs: undefined } } : s,
    );
    const host = new FakeHost({ ...data, summary: { ...data.summary, stages } });
    const view = await harness.open('latencyPanel', { width: 1000, height: 700 }, host);
    try {
      const page = view.page;
      await waitUntil(page, `document.querySelector('[data-testid="request-total"]')?.dataset.total === '${COUNT}'`);
      await page.getByTestId('tab-histograms').click();
      assert.equal(await page.getByTestId('histogram-stage').inputValue(), '2');
      const metric = await page.getByTestId('histogram-metric').inputValue();
      assert.notEqual(metric, 'split:prefillMs');
      assert.equal(
        await page.locator(`[data-testid="histogram-metric"] option[value="${metric}"]`).getAttribute('data-measured'),
        'true',
      );
      // Without a number, an option says its values' state in the cells' words.
      assert.equal(
        await page.locator('[data-testid="histogram-metric"] option[value="split:prefillMs"]').textContent(),
        'prefill (vllm_prefill_ms) — hidden',
      );
      const unmeasured = await page
        .locator('[data-testid="histogram-metric"] option[data-measured="false"]')
        .allTextContents();
      assert.ok(unmeasured.length > 0);
      for (const text of unmeasured) assert.match(text, / — (not measured|hidden|not recorded)$/, text);
      // A value the user picks is kept even without numbers.
      await page.getByTestId('histogram-metric').selectOption('split:prefillMs');
      assert.equal(await page.getByTestId('histogram-metric').inputValue(), 'split:prefillMs');
    } finally {
      await view.close();
    }
  });

  test('the not-binned box lists only the states that have values: no "⚠ not recorded 0"', async () => {
    const statesOf = (stageKey: string, split: 'ttftMs' | 'decodeMs') => {
      const states = data.summary.stages.find((s) => s.stageKey === stageKey && s.replicaId === null)?.splitStates[
        split
      ];
      assert.ok(states !== undefined, `stage ${stageKey} ${split}`);
      return states;
    };
    // The synthetic run: the thinker's TTFT is always printed, the talker's decode is None on
    // some requests, the codec's TTFT shows the not-recorded signature on most.
    const thinkerTtft = statesOf('0', 'ttftMs');
    const talkerDecode = statesOf('1', 'decodeMs');
    const codecTtft = statesOf('2', 'ttftMs');
    assert.deepEqual([thinkerTtft.notRecorded, thinkerTtft.notMeasured, thinkerTtft.hidden], [0, 0, 0]);
    assert.ok(talkerDecode.notMeasured > 0 && talkerDecode.notRecorded === 0 && talkerDecode.hidden === 0);
    assert.ok(codecTtft.notRecorded > 0);

    fs.mkdirSync(SHOTS, { recursive: true });
    const view = await harness.open('latencyPanel', { width: 1000, height: 700 }, new FakeHost(data));
    const unbinned = '[data-testid="histogram-unbinned"]';
    const show = async (stageKey: string, metric: string, numbers: number): Promise<void> => {
      await page.getByTestId('histogram-stage').selectOption(stageKey);
      await page.getByTestId('histogram-metric').selectOption(metric);
      await waitUntil(
        page,
        // The answer to the last question: the stage picked first is drawn with the metric before (the same count).
        `${answeredLast('queryHistogram')} && document.querySelector('[data-testid="histogram-binned"]')?.textContent === '${numbers.toLocaleString('en-US')} numbers binned (ms).' && document.querySelector('[data-testid="histogram-canvas"]').getAttribute('aria-label').startsWith('Histogram of ')`,
      );
    };
    const listed = (): Promise<{ state: string | undefined; count: string | undefined; text: string }[]> =>
      evaluate(
        page,
        `[...document.querySelectorAll('${unbinned} li')].map((li) => ({ state: li.dataset.state, count: li.dataset.count, text: li.textContent }))`,
      );
    const page = view.page;
    try {
      await waitUntil(page, `document.querySelector('[data-testid="request-total"]')?.dataset.total === '${COUNT}'`);
      await page.getByTestId('tab-histograms').click();

      // Every value a number: one neutral "none", no count of 0, nothing in the warning colour.
      await show('0', 'split:ttftMs', thinkerTtft.measured + thinkerTtft.inferred);
      assert.deepEqual(await listed(), [{ state: undefined, count: undefined, text: 'none' }]);
      // The warning sign is drawn by CSS: nothing in the box draws one.
      assert.deepEqual(
        await evaluate<string[]>(
          page,
          `[...document.querySelectorAll('${unbinned} *')].map((el) => getComputedStyle(el, '::before').content).filter((c) => c !== 'none' && c !== 'normal')`,
        ),
        [],
      );
      assert.match(
        (await page.getByTestId('histogram-canvas').getAttribute('aria-label')) ?? '',
        /Not binned: none\.$/,
      );
      await page.screenshot({ path: path.join(SHOTS, 'latency-panel-histogram-all-numbers.png') });

      // Some None: that state alone, muted, with its count.
      await show('1', 'split:decodeMs', talkerDecode.measured + talkerDecode.inferred);
      assert.deepEqual(await listed(), [
        {
          state: 'notMeasured',
          count: String(talkerDecode.notMeasured),
          text: `not measured ${talkerDecode.notMeasured}`,
        },
      ]);

      // Not recorded values: still the warning, with its count.
      await show('2', 'split:ttftMs', codecTtft.measured + codecTtft.inferred);
      const codec = await listed();
      assert.deepEqual(codec[0], {
        state: 'notRecorded',
        count: String(codecTtft.notRecorded),
        text: `not recorded ${codecTtft.notRecorded.toLocaleString('en-US')}`,
      });
      assert.ok(
        codec.every((c) => c.count !== '0'),
        JSON.stringify(codec),
      );
      const warning = await evaluate<{ before: string; color: string; muted: string }>(
        page,
        `(() => {
        const v = document.querySelector('${unbinned} li[data-state="notRecorded"] .v');
        return {
          before: getComputedStyle(v, '::before').content,
          color: getComputedStyle(v).color,
          muted: getComputedStyle(document.querySelector('[data-testid="histogram-binned"]')).color,
        };
      })()`,
      );
      assert.equal(warning.before, '"⚠ "');
      assert.notEqual(warning.color, warning.muted);
      await page.screenshot({ path: path.join(SHOTS, 'latency-panel-histogram-not-recorded.png') });
    } finally {
      await view.close();
    }
  });
});
