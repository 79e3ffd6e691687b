// The Histograms tab keeps the states apart as the side panel does. Inferred values (a hidden
// half of a measured pair, shown ≈ in the cells) are counted apart in the caption, drawn apart
// from measured ones, and mark ≈ the percentiles that read them (the simulator's code2wav ready
// queued). A one-output stage's interval between outputs (the talker of upstream's before-fix
// log: vllm_itl_ms and time_per_output_unit_ms printed 0) is no measurement: no bar, counted
// not recorded with that reason. Built bundles in headless Chromium, fed through the language
// server's own histogram query.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { WebviewPage } from '../fixtures/webview/browserHarness';
import { REPO_ROOT, WebviewHarness, answeredLast, waitUntil } from '../fixtures/webview/browserHarness';
import { FakeHost } from '../fixtures/webview/fakeHost';
import { sessionOfLog } from '../fixtures/webview/logSession';

const INFERRED_LOG = path.join(REPO_ROOT, 'test/fixtures/logs/code2wav-ready-queued-inferred.log');
const ONE_OUTPUT_LOG = path.join(
  REPO_ROOT,
  'test/fixtures/upstream-rendered/qwen3tts-talker-first-audio-before-fix.log',
);

// The talker prints vllm_decode_ms 0.0 there (the codec's decode keeps the row printed).
const DECODE_IN_PREFILL_LOG = path.join(
  REPO_ROOT,
  'test/fixtures/upstream-rendered/qwen3tts-talker-first-audio-after-fix.log',
);

const SHOTS = path.join(REPO_ROOT, 'test-output/webview');

type Bar = [from: number, to: number, count: number, inferred: number];
interface Mark {
  readonly pct: string;
  readonly text: string;
}

let harness: WebviewHarness;

before(async () => {
  harness = await WebviewHarness.start(sessionOfLog(INFERRED_LOG));
});

after(async () => {
  await harness?.close();
});

async function showHistogram(view: WebviewPage, stageKey: string, metric: string): Promise<void> {
  const page = view.page;
  await waitUntil(page, `document.querySelector('[data-testid="request-total"]')?.dataset.total !== undefined`);
  await page.getByTestId('tab-histograms').click();
  await page.getByTestId('histogram-stage').selectOption(stageKey);
  await page.getByTestId('histogram-metric').selectOption(metric);
  // The answer to the last question: a histogram drawn before (another stage or metric) stays until it comes.
  await waitUntil(
    page,
    `${answeredLast('queryHistogram')} && document.querySelector('[data-testid="histogram-canvas"]').getAttribute('aria-label')?.startsWith('Histogram') && document.querySelector('[data-testid="histogram-canvas"]').dataset.bars !== undefined`,
  );
}

async function unbinned(view: WebviewPage): Promise<{ state: string; count: string; text: string; title: string }[]> {
  return view.page.evaluate(
    `[...document.querySelectorAll('[data-testid="histogram-unbinned"] li')].map((li) => ({ state: li.dataset.state, count: li.dataset.count, text: li.textContent, title: li.title }))`,
  );
}

describe('inferred values: code2wav ready queued of a simulated Qwen3-TTS run', () => {
  let view: WebviewPage;

  before(async () => {
    view = await harness.open('latencyPanel', { width: 1000, height: 700 });
    await showHistogram(view, '1', 'split:readyQueuedMs');
  });

  after(async () => {
    await view?.close();
  });

  test('the caption counts measured and inferred apart, with what inferred means', async () => {
    const note = view.page.getByTestId('histogram-binned');
    // 2 printed (6.323 and 11.973 ms), 6 hidden beside a printed input wait: ≈0.
    assert.equal(await note.textContent(), '8 numbers binned (ms): 2 measured, 6 inferred (≈).');
    assert.match((await note.getAttribute('title')) ?? '', /^Inferred by a documented rule, not printed/);
    assert.match(
      (await view.page.getByTestId('histogram-canvas').getAttribute('aria-label')) ?? '',
      /: 8 values \(6 inferred, ≈\) from 0 to /,
    );
  });

  test('the bar at 0 holds the inferred values, counted as such; the measured ones are their own bars', async () => {
    const bars = JSON.parse(
      (await view.page.getByTestId('histogram-canvas').getAttribute('data-bars')) ?? '[]',
    ) as Bar[];
    assert.deepEqual(
      bars.map(([from, , count, inferred]) => [from, count, inferred]),
      [
        [0, 6, 6],
        [6.286, 1, 0],
        [11.674, 1, 0],
      ],
    );
  });

  test('the p50 reads an inferred 0: marked ≈; p90 and p99 lie between measured values: plain', async () => {
    const marks = JSON.parse(
      (await view.page.getByTestId('histogram-canvas').getAttribute('data-percentile-marks')) ?? '[]',
    ) as Mark[];
    assert.deepEqual(
      marks.map((m) => m.text),
      ['p50 ≈0', 'p90 8.02', 'p99 11.6'],
    );
    fs.mkdirSync(SHOTS, { recursive: true });
    await view.page.screenshot({ path: path.join(SHOTS, 'latency-panel-histogram-inferred.png') });
  });
});

describe('a one-output stage: the talker of the before-fix log', () => {
  let view: WebviewPage;

  before(async () => {
    view = await harness.open('latencyPanel', { width: 1000, height: 700 }, new FakeHost(sessionOfLog(ONE_OUTPUT_LOG)));
  });

  after(async () => {
    await view?.close();
  });

  for (const [field, printed, hidden] of [
    ['vllm_itl_ms', 4, 2],
    ['time_per_output_unit_ms', 6, 0],
  ] as const) {
    test(`${field}: no bar at 0, its printed 0s not recorded for one output, in the decode option's words`, async () => {
      await showHistogram(view, '0', `field:${field}`);
      const page = view.page;
      const canvas = page.getByTestId('histogram-canvas');
      assert.equal(await canvas.getAttribute('data-bars'), '[]');
      assert.equal(
        await page.getByTestId('histogram-binned').textContent(),
        `0 numbers binned (ms). ${printed} printed values not recorded: one output (in prefill+decode), no interval between outputs.`,
      );
      assert.match(
        (await canvas.getAttribute('aria-label')) ?? '',
        /^Histogram: No measurement: the stage emits one output: no interval between outputs\./,
      );
      const listed = await unbinned(view);
      assert.deepEqual(
        listed.map((l) => [l.state, l.count, l.text]),
        [
          ['oneOutput', String(printed), `not recorded: one output ${printed}`],
          ...(hidden > 0 ? [['hidden', String(hidden), `hidden (zero or not measured) ${hidden}`]] : []),
        ],
      );
      assert.match(
        listed[0]?.title ?? '',
        /^Not recorded: the stage emits one output \(Model Runner V2 \+ async chunk\): no inter-token latency exists, its decode is in prefill \(prefill\+decode \(one output\)\), so its decode and time per output token are not measurements\./,
      );
      await page.screenshot({ path: path.join(SHOTS, `latency-panel-histogram-one-output-${field}.png`) });
      // The option says it before it is picked, as the decode option does.
      assert.equal(
        await page.locator(`[data-testid="histogram-metric"] option[value="field:${field}"]`).textContent(),
        `${field} (0: one output, in prefill+decode on 6 requests) — not recorded`,
      );
    });
  }

  test('in a narrow panel the no-measurement message is wrapped inside the chart, not cut at its edge', async () => {
    const narrow = await harness.open(
      'latencyPanel',
      { width: 520, height: 700 },
      new FakeHost(sessionOfLog(ONE_OUTPUT_LOG)),
    );
    try {
      await showHistogram(narrow, '0', 'field:vllm_itl_ms');
      const drawn = (await narrow.page.evaluate(`(() => {
        const canvas = document.querySelector('[data-testid="histogram-canvas"]');
        const lines = JSON.parse(canvas.dataset.message ?? '[]');
        const ctx = canvas.getContext('2d');
        return { lines, widths: lines.map((l) => ctx.measureText(l).width), canvasWidth: canvas.clientWidth };
      })()`)) as { lines: string[]; widths: number[]; canvasWidth: number };
      assert.equal(drawn.lines.join(' '), 'No measurement: the stage emits one output: no interval between outputs.');
      assert.ok(drawn.lines.length > 1, `one line at ${drawn.canvasWidth} px: ${JSON.stringify(drawn.lines)}`);
      // Drawn from the plot's left edge (56 px): every line ends inside the canvas.
      for (const w of drawn.widths) assert.ok(56 + w <= drawn.canvasWidth, `${56 + w} > ${drawn.canvasWidth}`);
      await narrow.page.screenshot({ path: path.join(SHOTS, 'latency-panel-histogram-one-output-narrow.png') });
    } finally {
      await narrow.close();
    }
  });

  test("a printed decode of 0 is said to be inside the stage's prefill+decode, not an interval between outputs", async () => {
    const afterFix = await harness.open(
      'latencyPanel',
      { width: 1000, height: 700 },
      new FakeHost(sessionOfLog(DECODE_IN_PREFILL_LOG)),
    );
    try {
      await showHistogram(afterFix, '0', 'split:decodeMs');
      const page = afterFix.page;
      assert.equal(await page.getByTestId('histogram-canvas').getAttribute('data-bars'), '[]');
      assert.equal(
        await page.getByTestId('histogram-binned').textContent(),
        '0 numbers binned (ms). 6 printed values not recorded: one output, its decode is inside its prefill+decode.',
      );
      assert.equal(
        await page.getByTestId('histogram-canvas').getAttribute('data-message'),
        JSON.stringify(['No measurement: the stage emits one output: its decode is inside its prefill+decode.']),
      );
    } finally {
      await afterFix.close();
    }
  });

  test('a growing live session: the options say the new counts, the chosen metric stays', async () => {
    const live = sessionOfLog(ONE_OUTPUT_LOG);
    const grown = await harness.open('latencyPanel', { width: 1000, height: 700 }, new FakeHost(live));
    try {
      await showHistogram(grown, '0', 'field:vllm_itl_ms');
      const page = grown.page;
      const optionText = (value: string): Promise<string | null> =>
        page.locator(`[data-testid="histogram-metric"] option[value="${value}"]`).textContent();
      assert.equal(
        await optionText('split:prefillMs'),
        'prefill+decode (one output) on 6 of 6 requests (vllm_prefill_ms)',
      );
      // Three more one-output requests on the talker: the same stages and fields, new counts.
      const summary = live.summary;
      await grown.dispatch({
        type: 'summary',
        summary: {
          ...summary,
          requestCount: 9,
          stages: summary.stages.map((s) => (s.stageKey === '0' ? { ...s, requestCount: 9, oneOutputRequests: 9 } : s)),
        },
      });
      await waitUntil(
        page,
        `document.querySelector('[data-testid="histogram-metric"] option[value="split:prefillMs"]').textContent.includes('on 9 of 9')`,
      );
      assert.equal(
        await optionText('split:prefillMs'),
        'prefill+decode (one output) on 9 of 9 requests (vllm_prefill_ms)',
      );
      assert.equal(
        await optionText('field:vllm_itl_ms'),
        'vllm_itl_ms (0: one output, in prefill+decode on 9 requests) — not recorded',
      );
      assert.equal(await page.getByTestId('histogram-metric').inputValue(), 'field:vllm_itl_ms');
    } finally {
      await grown.close();
    }
  });

  test("its prefill+decode still has its bars: only the stage's intervals between outputs are left out", async () => {
    await showHistogram(view, '0', 'split:prefillMs');
    const bars = JSON.parse(
      (await view.page.getByTestId('histogram-canvas').getAttribute('data-bars')) ?? '[]',
    ) as Bar[];
    assert.equal(
      bars.reduce((n, b) => n + b[2], 0),
      6,
    );
    assert.equal(await view.page.getByTestId('histogram-binned').textContent(), '6 numbers binned (ms).');
  });
});
