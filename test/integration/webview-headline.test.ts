// Headline numbers that cannot mislead, in the built webview bundles in headless Chromium
// (real HTML shell, strict CSP), fed by a log vLLM-Omni's own stats code printed: the
// talker's prefill+decode (one output) is never shown as prefill nor marked as the slowest
// phase; /metrics quantiles in the lowest bucket read "≤ bound"; a finding shows its true
// request count while its id list is capped; "slowest" is named the same way everywhere.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { parseExposition } from '../../server/core/metricsText';
import { histogramSummariesOf } from '../../server/core/metricsText/scrapeSummary';
import { formatCompact, formatDurationMs, formatExact } from '../../webview/shared/format';
import type { WebviewPage } from '../fixtures/webview/browserHarness';
import { REPO_ROOT, WebviewHarness, answeredLast, timelineOf, waitUntil } from '../fixtures/webview/browserHarness';
import type { SyntheticSession } from '../fixtures/webview/syntheticSession';
import { sessionOfLog as sessionOf } from '../fixtures/webview/logSession';
import { FakeHost } from '../fixtures/webview/fakeHost';
import { canvasColumn } from '../fixtures/webview/canvasColumn';
import { tempFolder } from './support/tempFolder';
import { STATS_LOGGER_FIX, STATS_TABLES_CUT_FIX } from '../../server/core/analysis/tablesMissing';
import { overallSummaryExcerpt } from '../unit/support/logHelpers';

const LOG = path.join(REPO_ROOT, 'test/fixtures/upstream-rendered/qwen3tts-talker-first-audio-after-fix.log');
/** Thinker -> talker -> code2wav without async chunk: TransferEdgeStats for 0->1 and 1->2. */
const OMNI_LOG = path.join(REPO_ROOT, 'test/fixtures/upstream-rendered/qwen3-omni-three-stage-transfers.log');
/** INFO level: [OmniTiming] lines only, no stats tables. */
const INFO_LOG = path.join(REPO_ROOT, 'test/fixtures/upstream-rendered/qwen3tts-info-level-omnitiming-only.log');
const SHOTS = path.join(REPO_ROOT, 'test-output/webview');
/** Logs written by the tests. */
const TEMP = tempFolder('stage-lens-webview-headline-');

/** The stage's queue time all 0.2 ms, in vLLM's request-latency buckets (the lowest is 0.3 s). */
const SCRAPE = `# TYPE vllm:request_queue_time_seconds histogram
vllm:request_queue_time_seconds_bucket{stage="0",le="0.3"} 6
vllm:request_queue_time_seconds_bucket{stage="0",le="0.5"} 6
vllm:request_queue_time_seconds_bucket{stage="0",le="0.8"} 6
vllm:request_queue_time_seconds_bucket{stage="0",le="1.0"} 6
vllm:request_queue_time_seconds_bucket{stage="0",le="+Inf"} 6
vllm:request_queue_time_seconds_sum{stage="0"} 0.0012
vllm:request_queue_time_seconds_count{stage="0"} 6
`;

/** A session read from a log, its findings capped to 2 request ids (as live summaries cap them at 200). */
function sessionOfLog(
  log = LOG,
  stageNames: Readonly<Record<string, string>> = { '0': 'talker', '1': 'code2wav' },
): SyntheticSession {
  return sessionOf(log, {
    id: 'import-headline',
    maxRequestIds: 2,
    histograms: histogramSummariesOf(parseExposition(SCRAPE)),
    stageNames,
  });
}

/**
 * Colours of a one-pixel column inside a label's box on a canvas (2 px in from its left edge,
 * its top and bottom 2 px left out), and how many of its pixels are not opaque: a plate under
 * the text reads one opaque colour there, hatching or a bar more than one.
 */
async function plateColumn(
  canvas: ReturnType<Page['getByTestId']>,
  box: { x: number; y: number; h: number },
): Promise<{ colours: string[]; transparent: number }> {
  const px = await canvas.evaluate(canvasColumn, { x: box.x, y: box.y, h: box.h });
  const colours = new Set<string>();
  let transparent = 0;
  for (let k = 0; k < px.length; k += 4) {
    colours.add(`${px[k]},${px[k + 1]},${px[k + 2]}`);
    if (px[k + 3] !== 255) transparent++;
  }
  return { colours: [...colours], transparent };
}

let data: SyntheticSession;
let harness: WebviewHarness;

/** Each view at the size the tests read it at. */
const SIZE = { sidePanel: { width: 1000, height: 760 }, latencyPanel: { width: 1280, height: 800 } } as const;

/** Opens a view on a session, runs `body` on its page, and closes it whether `body` passes or throws. */
async function withPanel(
  name: keyof typeof SIZE,
  session: SyntheticSession,
  body: (page: Page, view: WebviewPage) => Promise<void>,
): Promise<void> {
  const view = await harness.open(name, SIZE[name], new FakeHost(session));
  try {
    await body(view.page, view);
  } finally {
    await view.close();
  }
}

/** withPanel on the INFO-level log (its session read afresh, as each test read it). */
function withInfoPanel(
  name: keyof typeof SIZE,
  body: (page: Page, info: SyntheticSession) => Promise<void>,
): Promise<void> {
  const info = sessionOfLog(INFO_LOG);
  return withPanel(name, info, (page) => body(page, info));
}

before(async () => {
  data = sessionOfLog();
  harness = await WebviewHarness.start(data);
  fs.mkdirSync(SHOTS, { recursive: true });
});

after(async () => {
  await harness?.close();
});

describe('side panel', () => {
  let view: WebviewPage;
  let page: Page;
  const cell = (stageKey: string, col: string): string =>
    `[data-testid="stage-row"][data-stage-key="${stageKey}"] td[data-col="${col}"]`;

  before(async () => {
    view = await harness.open('sidePanel', SIZE.sidePanel);
    page = view.page;
    await page.waitForSelector('[data-testid="stage-row"]');
  });

  after(async () => {
    await view?.close();
  });

  test('findings naming a long request id wrap in a 200 px side bar instead of being cut', async () => {
    await page.setViewportSize({ width: 200, height: 760 });
    try {
      await page.waitForTimeout(100);
      const texts = page.locator('.finding-text');
      assert.ok((await texts.count()) > 0);
      // speech-628f17161fc5a104a9aeb486cbfaa141 has no break opportunity.
      assert.match((await texts.allTextContents()).join(' '), /speech-[0-9a-f]{32}/);
      const cut = (await page.evaluate(
        `[...document.querySelectorAll('.finding-text')].filter((el) => el.scrollWidth > el.clientWidth + 0.5 || el.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5).map((el) => el.textContent.slice(0, 60))`,
      )) as string[];
      assert.deepEqual(cut, []);
    } finally {
      await page.setViewportSize({ width: 1000, height: 760 });
    }
  });

  test('the talker prefill reads prefill+decode, its decode "in prefill"; that one number is the slowest phase', async () => {
    const talker = data.summary.stages.find((s) => s.stageKey === '0')!;
    const p50 = talker.prefillDecodeMs?.p50 as number;
    assert.equal(await page.locator(`${cell('0', 'prefillMs')} .v`).textContent(), `${formatCompact(p50)} +decode`);
    assert.equal(await page.locator(`${cell('0', 'prefillMs')} .v`).getAttribute('data-state'), 'combined');
    assert.match(
      (await page.locator(cell('0', 'prefillMs')).getAttribute('title')) ?? '',
      /prefill\+decode \(one output\).*covers every decode step/,
    );
    assert.equal(await page.locator(`${cell('0', 'decodeMs')} .v`).textContent(), 'in prefill');
    // The red marker: the talker's work (1,268 ms of prefill+decode), larger than the codec's decode.
    const hot: string[] = await page.evaluate(
      `[...document.querySelectorAll('[data-testid="stage-row"] td[data-hot="true"]')].map((td) => td.closest('tr').dataset.stageKey + '/' + td.dataset.col)`,
    );
    assert.deepEqual(hot, ['0/prefillMs']);
    const codecDecode = data.summary.stages.find((s) => s.stageKey === '1')?.split.decodeMs?.p50 as number;
    assert.ok(p50 > codecDecode, 'the combined number is larger than the largest single phase');
    assert.equal(
      (await page.getByTestId('slowest-phase').textContent()) ?? '',
      `slowest phase (p50): stage 0 · talker prefill+decode (one output) ${formatCompact(p50)} ms`,
    );
    // Said under it, as the CLI's table says it: two phases in one number, the stage named with its role.
    assert.deepEqual(await page.getByTestId('slowest-phase-caveats').locator('li').allTextContents(), [
      "stage 0 · talker's prefill+decode is two phases in one number: the stage emits one output, so its vllm_prefill_ms covers its decode steps",
    ]);
    // 6 requests: the p50 is not marked as from too few values.
    assert.equal(await page.locator(`${cell('1', 'decodeMs')} .v`).getAttribute('data-few'), 'false');
    assert.equal(await page.getByTestId('few-values-note').isVisible(), false);
    await page.screenshot({ path: path.join(SHOTS, 'side-panel-one-output.png') });
  });

  test('p90: the marker follows the percentile, one cell', async () => {
    await page.getByTestId('percentile-p90').click();
    await waitUntil(
      page,
      `/^slowest phase \\(p90\\)/.test(document.querySelector('[data-testid="slowest-phase"]').textContent)`,
    );
    assert.equal(await page.locator(cell('0', 'prefillMs')).getAttribute('data-hot'), 'true');
    assert.equal(await page.locator('[data-testid="stage-row"] td[data-hot="true"]').count(), 1);
    // A p90 of 6 values: underlined, and the hover says why.
    assert.equal(await page.locator(`${cell('1', 'decodeMs')} .v`).getAttribute('data-few'), 'true');
    assert.match(
      (await page.locator(cell('1', 'decodeMs')).getAttribute('title')) ?? '',
      /From 6 values, a p90 is the largest value or an interpolation towards it, not a tail estimate \(a p90 needs 10\)\./,
    );
    assert.equal(
      await page.getByTestId('few-values-note').textContent(),
      'Dotted: a p90 from fewer than 10 values, the largest value or an interpolation towards it (hover a cell).',
    );
    await page.screenshot({ path: path.join(SHOTS, 'side-panel-p90-few-values.png') });
  });

  test('a finding shows how many requests it concerns, not the length of its capped id list', async () => {
    const f = data.summary.findings.find((x) => x.code === 'prefill-covers-decode')!;
    assert.deepEqual([f.requestIds.length, f.requestCount], [2, 6]);
    const meta =
      (await page.locator('[data-testid="finding"][data-code="prefill-covers-decode"] .finding-meta').textContent()) ??
      '';
    assert.equal(meta, 'stage 0 · 6 requests · prefill-covers-decode');
    assert.match(
      (await page
        .locator('[data-testid="finding"][data-code="prefill-covers-decode"] .finding-message')
        .textContent()) ?? '',
      /on 6 of 6 requests/,
    );
  });

  test('/metrics: a quantile in the lowest bucket reads "≤ 300", not PromQL\'s interpolated 150', async () => {
    await page.getByTestId('percentile-p50').click();
    await page.getByTestId('scrape-section').waitFor();
    const queue = page.locator('[data-testid="scrape-row"] td[data-col="queue"]');
    assert.equal(await queue.locator('.v').textContent(), '≤300');
    assert.match(
      (await queue.getAttribute('title')) ?? '',
      /at most 300 ms: every observation up to this rank fell into the lowest bucket \(le=0\.3\), where PromQL interpolates from 0, so its 150 ms would read as a measurement/,
    );
    // The stage whose log shows one output: its /metrics prefill (if exposed) is labelled too; here only the queue family is.
    await page.getByTestId('scrape-section').screenshot({ path: path.join(SHOTS, 'side-panel-metrics-bounds.png') });
  });
});

describe('latency panel', () => {
  let view: WebviewPage;
  let page: Page;

  before(async () => {
    view = await harness.open('latencyPanel', SIZE.latencyPanel);
    page = view.page;
    await waitUntil(
      page,
      `document.querySelector('[data-testid="request-id"][data-index="0"]')?.dataset.state === 'text'`,
    );
  });

  after(async () => {
    await view?.close();
  });

  test('the finding filter names the true count', async () => {
    const options = await page.locator('[data-testid="filter-finding"] option').allTextContents();
    assert.ok(options.includes('prefill-covers-decode (6 requests)'), options.join(' | '));
  });

  test('request rows: the talker prefill is "+decode", its decode "in prefill"', async () => {
    const r = data.requests[0]!;
    const prefill = r.stages.find((s) => s.stageKey === '0')?.split.values.prefillMs as number;
    assert.equal(
      await page.locator('[data-testid="request-row"][data-index="0"] .cell[data-col="0.prefillMs"]').textContent(),
      `${formatCompact(prefill)} +decode`,
    );
    assert.equal(
      await page.locator('[data-testid="request-row"][data-index="0"] .cell[data-col="0.decodeMs"]').textContent(),
      'in prefill',
    );
  });

  /** The viewport before the plate tests narrowed it to a 900 px canvas. */
  let wideViewport: { width: number; height: number } | null = null;

  test("waterfall: one prefill+decode segment on the talker; the slowest phase is the longest of either stage's work", async () => {
    const described = async (index: number): Promise<string> => {
      const id = data.requests[index]!.requestId;
      await page.getByTestId('tab-requests').click();
      await page.locator(`[data-testid="request-id"][data-index="${index}"]`).dblclick();
      await waitUntil(
        page,
        // The last request's timeline stays under the new heading until this one's answer is drawn.
        `!document.querySelector('[data-testid="waterfall-legend"]').hidden && ${timelineOf(id)} && /^Request timeline/.test(document.querySelector('[data-testid="waterfall-canvas"]').getAttribute('aria-label') || '')`,
      );
      return (await page.getByTestId('waterfall-canvas').getAttribute('aria-label')) ?? '';
    };
    // speech-1d2893d…: the talker's 607 ms of prefill+decode, longer than the codec's 596 ms decode.
    const first = await described(0);
    assert.match(first, /stage 0 · talker: queued [^;]*, prefill\+decode \(one output\) [^;]*;/);
    assert.doesNotMatch(first, /stage 0 · talker:[^;]*\bprefill [\d]/);
    assert.match(first, /Slowest phase: stage 0 · talker prefill\+decode \(one output\)\./);
    // speech-f75018…: the codec's 1,882 ms decode, longer than the talker's 1,867 ms; the tests below read this one.
    const codecSlow = data.requests.findIndex((r) => r.requestId.startsWith('speech-f75018'));
    assert.ok(codecSlow > 0);
    assert.match(await described(codecSlow), /Slowest phase: stage 1 · code2wav decode\./);
    const legend = (await page.getByTestId('waterfall-legend').textContent()) ?? '';
    assert.match(legend, /prefill\+decode \(one output\)/);
    assert.match(legend, /slowest phase/);
    assert.equal(
      await page
        .locator('[data-testid="request-facts"] tr[data-stage-key="0"] td[data-col="decodeMs"] .v')
        .textContent(),
      'in prefill',
    );
    await page.screenshot({ path: path.join(SHOTS, 'latency-panel-one-output-waterfall.png') });
  });

  test('waterfall breakdown: the talker decode reads "in prefill" (neutral), as the table says, not "not recorded"', async () => {
    // Still speech-f75018…'s timeline: its talker emits one output.
    const decode = page.locator('[data-testid="breakdown-part"][data-key="0/decode"]');
    assert.equal(await decode.locator('.bar-excess').textContent(), 'in prefill');
    assert.equal(await decode.getAttribute('data-state'), 'covered');
    assert.match(
      (await decode.getAttribute('title')) ?? '',
      /prefill\+decode \(one output\): this stage emits one output/,
    );
    const weight = await page.evaluate<string>(
      `getComputedStyle(document.querySelector('[data-testid="breakdown-part"][data-key="0/decode"] .bar-excess')).fontWeight`,
    );
    assert.equal(weight, '400', 'no warning emphasis');
  });

  test('waterfall: the slowest phase label over the hatched code2wav decode sits on a solid plate, on its row and the canvas', async () => {
    // Still speech-f75018…'s timeline: its code2wav lane is reconstructed, hatched end to end. On a
    // 900 px canvas its 1,882 ms decode reaches the axis's end and hatching lies on either side, so the
    // label goes inside the bar, on a plate (wider, it fits beside the bar).
    const canvas = page.getByTestId('waterfall-canvas');
    const viewport = page.viewportSize()!;
    wideViewport = viewport;
    const drawn = await canvas.evaluate((e) => (e as unknown as { clientWidth: number }).clientWidth);
    await page.setViewportSize({ width: viewport.width - (drawn - 900), height: viewport.height });
    await waitUntil(
      page,
      `document.querySelector('[data-testid="waterfall-canvas"]').getAttribute('data-slow-label') === 'inside plate'`,
    );
    const [x, y, w, h] = ((await canvas.getAttribute('data-slow-label-box')) ?? '').split(',').map(Number);
    const size = await canvas.evaluate((e) => {
      const c = e as unknown as { clientWidth: number; clientHeight: number };
      return { width: c.clientWidth, height: c.clientHeight };
    });
    // The code2wav lane is the second: 22 px of axis, 34 px lanes, the phase bar inset 9 px.
    assert.deepEqual([y, h], [22 + 34 + 9, 16]);
    assert.ok(x! >= 150 && x! + w! <= size.width, `box ${x}..${x! + w!} leaves the ${size.width} px canvas`);
    // Between the plate's border and the text: one opaque colour, not hatching.
    const strip = await plateColumn(canvas, { x: x!, y: y!, h: h! });
    assert.equal(strip.transparent, 0, 'the plate is opaque');
    assert.equal(strip.colours.length, 1, `hatching under the label: ${strip.colours.join(' | ')}`);
    await canvas.screenshot({ path: path.join(SHOTS, 'latency-panel-slow-label-plate.png') });
  });

  test('waterfall: each duration on hatching sits on a solid plate; the axis reads one unit and its last label is whole', async () => {
    // The first request again (speech-1d2893d…, on a 0.7 s axis): its code2wav lane (queued,
    // prefill, decode) is hatched end to end, and the slowest phase is the talker's.
    const r = data.requests[0]!;
    await page.getByTestId('tab-requests').click();
    await page.locator('[data-testid="request-id"][data-index="0"]').dblclick();
    await waitUntil(
      page,
      // The last request's canvas stays under the new heading until this one's answer is drawn.
      `${timelineOf(r.requestId)} && document.querySelector('[data-testid="waterfall-canvas"]').getAttribute('data-slow-label') !== null`,
    );
    const canvas = page.getByTestId('waterfall-canvas');
    const width = await canvas.evaluate((e) => (e as unknown as { clientWidth: number }).clientWidth);
    const labels = JSON.parse((await canvas.getAttribute('data-segment-labels')) ?? '[]') as {
      stageKey: string;
      phase: string;
      text: string;
      where: string;
      plate: boolean;
      box: [number, number, number, number];
    }[];
    const codec = labels.filter((l) => l.stageKey === '1');
    assert.deepEqual(
      codec.map((l) => [l.phase, l.text, l.plate]),
      [
        ['queued', formatDurationMs(r.stages[1]!.split.values.queuedMs as number), true],
        // (the 41 ms prefill between them has no room for its label)
        ['decode', formatDurationMs(r.stages[1]!.split.values.decodeMs as number), true],
      ],
    );
    for (const l of labels) {
      const [x, y, w, h] = l.box;
      assert.ok(x >= 150 && x + w <= width, `${l.stageKey} ${l.phase}: ${x}..${x + w} leaves the plot`);
      if (!l.plate) continue;
      const strip = await plateColumn(canvas, { x, y, h });
      assert.equal(strip.transparent, 0, `${l.stageKey} ${l.phase}: the plate is opaque`);
      assert.equal(strip.colours.length, 1, `${l.stageKey} ${l.phase}: hatching under the label`);
    }
    const ticks = JSON.parse((await canvas.getAttribute('data-tick-labels')) ?? '[]') as {
      text: string;
      x: number;
      w: number;
    }[];
    assert.ok(ticks.length >= 3, JSON.stringify(ticks));
    const units = new Set(ticks.map((t) => t.text.split(' ')[1]));
    assert.equal(units.size, 1, `one unit on the axis: ${ticks.map((t) => t.text).join(', ')}`);
    const last = ticks[ticks.length - 1]!;
    assert.ok(last.x + last.w <= width, `"${last.text}" ends at ${last.x + last.w} on a ${width} px canvas`);
    assert.ok(ticks[0]!.x >= 0);
    await canvas.screenshot({ path: path.join(SHOTS, 'latency-panel-waterfall-labels.png') });
    if (wideViewport !== null) await page.setViewportSize(wideViewport);
  });

  test('each request: stages that ran alongside are not compared by stage_gen_time_ms; the colour names the slowest phase', async () => {
    await page.getByTestId('tab-spans').click();
    await waitUntil(page, `Number(document.querySelector('[data-testid="spans-canvas"]').dataset.visible) > 0`);
    assert.match(
      (await page.getByTestId('spans-legend-title').textContent()) ?? '',
      /^Colour: slowest phase within the request \(stages ran alongside, so not by stage_gen_time_ms\):$/,
    );
    assert.match(
      (await page.getByTestId('spans-canvas').getAttribute('aria-label')) ?? '',
      /coloured by its slowest phase within the request/,
    );
  });

  test("histograms: the talker's vllm_prefill_ms is offered as prefill+decode", async () => {
    await page.getByTestId('tab-histograms').click();
    await page.getByTestId('histogram-stage').selectOption('0');
    const options = await page.locator('[data-testid="histogram-metric"] option').allTextContents();
    assert.ok(
      options.includes('prefill+decode (one output) on 6 of 6 requests (vllm_prefill_ms)'),
      options.join(' | '),
    );
  });

  test('histograms: p50, p90 and p99 labelled in a band above the bars, on plates, none over another', async () => {
    await page.getByTestId('histogram-stage').selectOption('1');
    await page.getByTestId('histogram-metric').selectOption('split:decodeMs');
    const canvas = page.getByTestId('histogram-canvas');
    await waitUntil(
      page,
      `document.querySelector('[data-testid="histogram-canvas"]').getAttribute('aria-label').startsWith('Histogram of decode')`,
    );
    const decode = data.summary.stages.find((s) => s.stageKey === '1')!.split.decodeMs!;
    await waitUntil(
      page,
      `JSON.parse(document.querySelector('[data-testid="histogram-canvas"]').dataset.percentileMarks || '[]').length === 3`,
    );
    const marks = JSON.parse((await canvas.getAttribute('data-percentile-marks')) ?? '[]') as {
      pct: string;
      text: string;
      x: number;
      row: number;
      box: [number, number, number, number];
    }[];
    const plotTop = Number(await canvas.getAttribute('data-plot-top'));
    const width = await canvas.evaluate((e) => (e as unknown as { clientWidth: number }).clientWidth);
    assert.deepEqual(marks.map((m) => m.text).sort(), [
      `p50 ${formatCompact(decode.p50)}`,
      `p90 ${formatCompact(decode.p90)}`,
      `p99 ${formatCompact(decode.p99)}`,
    ]);
    for (const m of marks) {
      const [x, y, w, h] = m.box;
      assert.ok(y + h < plotTop, `${m.pct} at ${y}+${h} reaches the plot (top ${plotTop})`);
      assert.ok(x >= 0 && x + w <= width, `${m.pct}: ${x}..${x + w} leaves the ${width} px canvas`);
      for (const o of marks)
        if (o !== m && o.row === m.row)
          assert.ok(x + w <= o.box[0] || o.box[0] + o.box[2] <= x, `${m.pct} over ${o.pct}`);
      const strip = await plateColumn(canvas, { x, y, h });
      assert.equal(strip.transparent, 0, `${m.pct}: the plate is opaque`);
      assert.equal(strip.colours.length, 1, `${m.pct}: something under the label: ${strip.colours.join(' | ')}`);
    }
    const described = (await canvas.getAttribute('aria-label')) ?? '';
    assert.ok(described.includes(`; marked ${marks.map((m) => m.text).join(', ')}. Not binned`), described);
    await canvas.screenshot({ path: path.join(SHOTS, 'latency-panel-histogram-percentiles.png') });
  });
});

describe('transfers (TransferEdgeStats, [OmniTiming])', () => {
  const omni = (): SyntheticSession => sessionOfLog(OMNI_LOG, { '0': 'thinker', '1': 'talker', '2': 'code2wav' });

  test('side panel: per edge p50/p90/p99 of send, in flight, receive+decode, size and the [OmniTiming] send', async () => {
    const data3 = omni();
    await withPanel('sidePanel', data3, async (page) => {
      await page.getByTestId('edge-section').waitFor();
      const rows = await page.getByTestId('edge-row').allTextContents();
      assert.equal(rows.length, 2);
      assert.match(rows[0] ?? '', /^0 → 1thinker → talker/);
      assert.match(rows[1] ?? '', /^1 → 2talker → code2wav/);
      // Its accessible name says what the row opens: the requests of the stage the edge feeds.
      assert.equal(
        await page.locator('[data-testid="edge-row"][data-stage-key="1->2"]').getAttribute('aria-label'),
        '1 → 2 talker → code2wav: open the requests of stage 2, which this edge feeds',
      );
      const e01 = data3.summary.edges.find((e) => e.edge === '0->1')!;
      const cell = (edge: string, col: string): string =>
        `[data-testid="edge-row"][data-stage-key="${edge}"] td[data-col="${col}"] .v`;
      for (const [pct, field] of [
        ['p50', 'tx_time_ms'],
        ['p90', 'rx_decode_time_ms'],
        ['p99', 'in_flight_time_ms'],
      ] as const) {
        await page.getByTestId(`percentile-${pct}`).click();
        await waitUntil(
          page,
          `document.querySelector('${cell('0->1', `field:${field}`)}').textContent === ${JSON.stringify(formatCompact(e01.fields[field]![pct]))}`,
        );
      }
      await page.getByTestId('percentile-p50').click();
      assert.equal(
        await page.locator(cell('0->1', 'omniTimingTx')).textContent(),
        formatCompact(e01.omniTimingTxMs!.p50),
      );
      assert.equal(
        await page.locator('[data-testid="edge-summary"] th[data-col="field:size_kbytes"]').textContent(),
        'size (KB)',
      );
      await page.getByTestId('edge-section').screenshot({ path: path.join(SHOTS, 'side-panel-transfers.png') });
    });
  });

  test('side panel: an [OmniTiming] 0.00 send under async chunk reads "not recorded", never 0', async () => {
    await withPanel('sidePanel', data, async (page) => {
      await page.getByTestId('edge-section').waitFor();
      const tx = page.locator('[data-testid="edge-row"][data-stage-key="0->1"] td[data-col="omniTimingTx"]');
      assert.equal(await tx.locator('.v').textContent(), 'not recorded');
      assert.match(
        (await tx.getAttribute('title')) ?? '',
        /printed 0\.00 with no payload transfer recorded|no payload transfer was recorded/,
      );
      assert.equal(
        await page.locator('[data-testid="edge-summary"] th[data-col="field:tx_time_ms"]').count(),
        0,
        'no TransferEdgeStats column was printed: no such column',
      );
    });
  });

  test("waterfall: each hand-off drawn between its two stages from the upstream stage's end, its parts and rule said", async () => {
    const data3 = omni();
    await withPanel('latencyPanel', data3, async (page) => {
      await waitUntil(
        page,
        `document.querySelector('[data-testid="request-id"][data-index="0"]')?.dataset.state === 'text'`,
      );
      const id = (await page.locator('[data-testid="request-id"][data-index="0"]').textContent()) ?? '';
      const r = data3.requests.find((x) => x.requestId === id)!;
      const t01 = r.transfers.find((t) => t.edge === '0->1')!;
      const ms = (f: string): number => (t01.fields[f] as { value: number }).value;
      await page.locator('[data-testid="request-id"][data-index="0"]').dblclick();
      await waitUntil(page, `!document.querySelector('[data-testid="waterfall-legend"]').hidden`);
      const described = (await page.getByTestId('waterfall-canvas').getAttribute('aria-label')) ?? '';
      const d = (v: number): string => formatDurationMs(v);
      assert.ok(
        described.includes(
          ` Hand-off 0 → 1: send ${d(ms('tx_time_ms'))}, in flight ${d(ms('in_flight_time_ms'))}, receive+decode ${d(ms('rx_decode_time_ms'))} (position assumed).`,
        ),
        described,
      );
      assert.match(
        described,
        / Hand-off 1 → 2: send [^,]+, in flight [^,]+, receive\+decode [^(]+\(position assumed\)\./,
      );
      assert.match(
        (await page.getByTestId('legend-handoff').textContent()) ?? '',
        /durations measured \(TransferEdgeStats\), position assumed: a hand-off is drawn from where the upstream stage ends/,
      );
      const facts = page.locator('[data-testid="transfer-facts"] tr[data-edge="0->1"]');
      assert.equal(await facts.locator('td[data-col="tx_time_ms"] .v').textContent(), formatCompact(ms('tx_time_ms')));
      assert.equal(
        await facts.locator('td[data-col="omniTimingTx"] .v').textContent(),
        formatCompact(t01.omniTimingTxMs as number),
      );
      await page.screenshot({ path: path.join(SHOTS, 'latency-panel-handoff-waterfall.png') });
    });
  });

  test('waterfall under async chunk: no hand-off drawn, the 0.00 said in words', async () => {
    await withPanel('latencyPanel', data, async (page) => {
      await waitUntil(
        page,
        `document.querySelector('[data-testid="request-id"][data-index="0"]')?.dataset.state === 'text'`,
      );
      await page.locator('[data-testid="request-id"][data-index="0"]').dblclick();
      await waitUntil(page, `!document.querySelector('[data-testid="waterfall-legend"]').hidden`);
      assert.doesNotMatch((await page.getByTestId('waterfall-canvas').getAttribute('aria-label')) ?? '', /Hand-off/);
      assert.match(
        (await page.locator('[data-testid="legend-handoff-note"][data-edge="0->1"]').textContent()) ?? '',
        /^0 → 1: no payload transfer recorded/,
      );
      assert.equal(
        await page
          .locator('[data-testid="transfer-facts"] tr[data-edge="0->1"] td[data-col="omniTimingTx"] .v')
          .textContent(),
        'not recorded',
      );
    });
  });
});

describe('Request Timeline across sessions and without the stats tables', () => {
  /** Opens the first row's request in the Request Timeline; its id. */
  const openFirstRequest = async (page: WebviewPage['page']): Promise<string> => {
    await waitUntil(
      page,
      `document.querySelector('[data-testid="request-id"][data-index="0"]')?.dataset.state === 'text'`,
    );
    const id = (await page.locator('[data-testid="request-id"][data-index="0"]').textContent()) ?? '';
    await page.locator('[data-testid="request-id"][data-index="0"]').dblclick();
    await waitUntil(page, `!document.querySelector('[data-testid="waterfall-legend"]').hidden`);
    return id;
  };

  test("switching to another session clears the open request instead of showing it under the new session's names", async () => {
    const data3 = sessionOfLog(OMNI_LOG, { '0': 'thinker', '1': 'talker', '2': 'code2wav' });
    await withPanel('latencyPanel', data3, async (page, view) => {
      const id = await openFirstRequest(page);
      assert.equal(await page.getByTestId('waterfall-title').textContent(), id);
      const info = sessionOfLog(INFO_LOG);
      await view.dispatch({
        type: 'session',
        session: { ...info.session, id: 'import-info-level' },
        stageNames: info.stageNames,
      });
      await waitUntil(page, `document.querySelector('[data-testid="waterfall-legend"]').hidden`);
      assert.equal(await page.getByTestId('waterfall-title').textContent(), '');
      assert.equal(await page.getByTestId('waterfall-empty').isVisible(), false, 'the timeline tab is not shown');
      assert.equal(
        await page.getByTestId('waterfall-empty').evaluate((e) => (e as unknown as { hidden: boolean }).hidden),
        false,
      );
    });
  });

  test('side panel of an INFO-level log: the notice once at the top; below, that its stage times overlap', async () => {
    await withInfoPanel('sidePanel', async (page) => {
      // Under async chunk the codec's [OmniTiming] time holds the talker's: the one finding left.
      const overlap = page.locator('[data-testid="finding"][data-code="stage-times-overlap"]');
      await overlap.waitFor();
      assert.match(
        (await overlap.textContent()) ?? '',
        /On 6 of 6 requests with an \[OmniTiming\] line the stage times add up to more than the engine time/,
      );
      assert.equal(await page.locator('[data-testid="finding"]').count(), 1);
      assert.equal(await page.locator('[data-testid="finding"][data-code="stage-tables-missing"]').count(), 0);
      assert.equal(await page.getByTestId('findings-none').isVisible(), false);
    });
  });

  test("Requests of an INFO-level log: each stage's [OmniTiming] time in ms, under its whole stage name", async () => {
    await withInfoPanel('latencyPanel', async (page, info) => {
      const cell = page.locator(
        '[data-testid="request-row"][data-index="0"] .cell[data-col="0.field:omni_timing_stage_s"]',
      );
      await waitUntil(
        page,
        `document.querySelector('[data-testid="request-row"][data-index="0"] .cell[data-col="0.field:omni_timing_stage_s"]')?.textContent !== ''`,
      );
      const id = (await page.locator('[data-testid="request-id"][data-index="0"]').textContent()) ?? '';
      const r = info.requests.find((x) => x.requestId === id)!;
      const stageS = (r.stages[0]?.fields['omni_timing_stage_s'] as { value: number }).value;
      assert.equal(await cell.textContent(), formatCompact(stageS * 1000));
      // The group cell shows its whole name: it does not overflow its column.
      const groups = page.locator('.group-cell:not(.id-cell)');
      assert.deepEqual(await groups.allTextContents(), ['request', 'stage 0 · talker', 'stage 1 · code2wav']);
      // Each request's end to end next to its id: its [OmniTiming] total=, in ms.
      const e2eOf = (x: (typeof info.requests)[number]): number => Math.round((x.timing?.totalS ?? NaN) * 1000);
      assert.equal(
        await page.locator('[data-testid="request-row"][data-index="0"] .cell[data-col="target:e2e"]').textContent(),
        formatCompact(e2eOf(r)),
      );
      // Sorted by it on the server, slowest first: the first row is the slowest request.
      await page.locator('[data-sort-key="target:e2e"]').click();
      const slowest = Math.max(...info.requests.map(e2eOf));
      await waitUntil(
        page,
        `document.querySelector('[data-testid="request-row"][data-index="0"] .cell[data-col="target:e2e"]')?.textContent === ${JSON.stringify(formatCompact(slowest))}`,
      );
      for (const fits of await groups.evaluateAll((els) =>
        els.map(
          (e) =>
            (e as unknown as { scrollWidth: number; clientWidth: number }).scrollWidth <=
            (e as unknown as { clientWidth: number }).clientWidth,
        ),
      ))
        assert.equal(fits, true);
      await page.screenshot({ path: path.join(SHOTS, 'latency-panel-info-level-requests.png') });
    });
  });

  test("Histograms of an INFO-level log: a stage's [OmniTiming] time in ms, as every other view shows it", async () => {
    await withInfoPanel('latencyPanel', async (page, info) => {
      await page.getByTestId('tab-histograms').click();
      await page.getByTestId('histogram-stage').selectOption('0');
      await page.getByTestId('histogram-metric').selectOption('field:omni_timing_stage_s');
      // Named as the other views name it, with where it is read; not Stage Lens's key in seconds.
      assert.equal(
        (await page.locator('[data-testid="histogram-metric"] option:checked').textContent())?.trim(),
        'stage time ([OmniTiming] stages=)',
      );
      // The answer to the last question: the tab opens on stage 1's stage time, 6 numbers binned too.
      await waitUntil(
        page,
        `${answeredLast('queryHistogram')} && /^6 numbers binned \\(ms\\)\\.$/.test(document.querySelector('[data-testid="histogram-binned"]')?.textContent ?? '')`,
      );
      const ms = info.requests
        .map((r) => Math.round((r.stages[0]?.fields['omni_timing_stage_s'] as { value: number }).value * 1000))
        .sort((a, b) => a - b);
      const label = (await page.getByTestId('histogram-canvas').getAttribute('aria-label')) ?? '';
      assert.ok(label.includes(`6 values from ${formatExact(ms[0]!)} to ${formatExact(ms.at(-1)!)} ms`), label);
    });
  });

  test("Over Time, each request: an INFO-level log's requests at their [OmniTiming] end to end, none without one", async () => {
    await withInfoPanel('latencyPanel', async (page) => {
      await page.getByTestId('tab-spans').click();
      await waitUntil(
        page,
        `/requests in view/.test(document.querySelector('[data-testid="spans-status"]').textContent)`,
      );
      const status = (await page.getByTestId('spans-status').textContent()) ?? '';
      assert.match(status, /^6 of 6 requests in view · 0 cold$/);
      assert.equal(await page.getByTestId('spans-canvas').getAttribute('data-visible'), '6');
      // No phases to colour by: the legend says what the muted colour of every request means.
      assert.equal(await page.getByTestId('spans-legend-unknown').textContent(), 'unknown (no phase measured above 0)');
      await page.screenshot({ path: path.join(SHOTS, 'latency-panel-info-level-spans.png') });
    });
  });

  test('an INFO-level request: its end to end from [OmniTiming] in the header, not "e2e not printed"', async () => {
    await withInfoPanel('latencyPanel', async (page, info) => {
      await openFirstRequest(page);
      const id = (await page.getByTestId('waterfall-title').textContent()) ?? '';
      const r = info.requests.find((x) => x.requestId === id)!;
      const total = r.timing?.totalS as number;
      const meta = (await page.getByTestId('waterfall-meta').textContent()) ?? '';
      assert.match(meta, /^e2e \d[\d.,]* m?s \(\[OmniTiming\] total, 10 ms steps\)/);
      assert.doesNotMatch(meta, /e2e not printed/);
      assert.ok(meta.includes(total >= 1 ? `${total.toFixed(2)} s` : `${Math.round(total * 1000)} ms`), meta);
      // No table was printed: its cells say so (not "hidden"); the stage time is [OmniTiming]'s.
      const facts = page.locator('[data-testid="request-facts"] tr[data-stage-key="0"]');
      assert.equal(await facts.locator('td[data-col="queuedMs"] .v').textContent(), 'no table');
      assert.match(
        (await facts.locator('td[data-col="queuedMs"]').getAttribute('title')) ?? '',
        /printed no \[StageRequestStats\] table/,
      );
      const stageS = (r.stages[0]?.fields['omni_timing_stage_s'] as { value: number }).value;
      assert.equal(
        await facts.locator('td[data-col="field:stage_gen_time_ms"] .v').textContent(),
        formatCompact(stageS * 1000),
      );
      // The breakdown names the stage's time as unsplit, as explain and the side panel do.
      const labels = await page.locator('[data-testid="breakdown-part"] .bar-label').allTextContents();
      assert.ok(labels.includes('stage 0 · talker gen time not split (no prefill/decode values)'), labels.join(' | '));
      assert.ok(!labels.some((l) => l.includes('rest of gen time')), labels.join(' | '));
      await page.screenshot({ path: path.join(SHOTS, 'latency-panel-info-level-timeline.png') });
    });
  });

  test("[OmniTiming] lines only in a log with DEBUG lines: a missing table names the stats logger's fix, not the level", async () => {
    // The INFO-level log with a line at DEBUG after its first: the server did not run at INFO.
    const [first, ...rest] = fs.readFileSync(INFO_LOG, 'utf8').split('\n');
    const debugLog = path.join(TEMP, 'omnitiming-debug-lines.log');
    const debugLine = '(APIServer pid=5151) DEBUG 10-19 07:12:05 [omni.py:862] [Orchestrator] generate() called';
    fs.writeFileSync(debugLog, [first, debugLine, ...rest].join('\n'));
    await withPanel('latencyPanel', sessionOfLog(debugLog), async (page) => {
      await openFirstRequest(page);
      const facts = page.locator('[data-testid="request-facts"] tr[data-stage-key="0"]');
      assert.equal(await facts.locator('td[data-col="queuedMs"] .v').textContent(), 'no table');
      assert.equal(
        await facts.locator('td[data-col="queuedMs"]').getAttribute('title'),
        'This request printed no [StageRequestStats] table, only its [OmniTiming] line, though the log has DEBUG lines: ' +
          'vLLM-Omni logs its stats tables only when its stats logger (vllm_omni.metrics.stats) is enabled for DEBUG. ' +
          `Fix: ${STATS_LOGGER_FIX}.`,
      );
      assert.equal(
        await facts.locator('td[data-col="field:serving_time_to_first_output_ms"]').getAttribute('title'),
        await facts.locator('td[data-col="queuedMs"]').getAttribute('title'),
      );
    });
    // An excerpt whose [Overall Summary] tables were printed at DEBUG: the stage tables were cut out.
    const excerpt = path.join(TEMP, 'overall-omnitiming-excerpt.log');
    fs.writeFileSync(excerpt, overallSummaryExcerpt(true));
    await withPanel('latencyPanel', sessionOfLog(excerpt), async (page) => {
      await openFirstRequest(page);
      const facts = page.locator('[data-testid="request-facts"] tr[data-stage-key="0"]');
      assert.equal(
        await facts.locator('td[data-col="queuedMs"]').getAttribute('title'),
        'This request printed no [StageRequestStats] table, only its [OmniTiming] line, though the log has stats tables printed at DEBUG: ' +
          'vLLM-Omni prints them all in one call, at DEBUG, so its stage tables were cut out of the log read. ' +
          `Fix: ${STATS_TABLES_CUT_FIX}.`,
      );
      // The panel's notice says it once, in the CLI's words.
      assert.match((await page.getByTestId('tables-missing').textContent()) ?? '', /they were cut out of this excerpt/);
    });
    // The INFO-level log keeps the level as its fix.
    await withInfoPanel('latencyPanel', async (page) => {
      await openFirstRequest(page);
      assert.equal(
        await page
          .locator('[data-testid="request-facts"] tr[data-stage-key="0"] td[data-col="queuedMs"]')
          .getAttribute('title'),
        'This request printed no [StageRequestStats] table, only its [OmniTiming] line: vLLM-Omni logs its per-request stage tables at DEBUG (VLLM_LOGGING_LEVEL=DEBUG).',
      );
    });
  });
});
