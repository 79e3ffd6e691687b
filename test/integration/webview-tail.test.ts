// "Why p99 is slow" in the side panel and the Tail, load-at-arrival and Over Time views of
// Latency Details, in the built bundles in headless Chromium (real HTML shell, strict CSP),
// fed by a log vLLM-Omni's own stats code printed (Qwen3-TTS, talker -> code2wav; six
// requests, one of them 4.5 s with a 3.9 s talker prefill+decode). The expected numbers
// are the language server's (the same core functions) and the hand-read log.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { TailAttribution, WebviewToHost } from '../../server/protocol';
import type { WebviewPage } from '../fixtures/webview/browserHarness';
import { REPO_ROOT, WebviewHarness, sidewaysOverflow, waitUntil } from '../fixtures/webview/browserHarness';
import type { SyntheticSession } from '../fixtures/webview/syntheticSession';
import { FakeHost } from '../fixtures/webview/fakeHost';
import { sessionOfLog as sessionOf } from '../fixtures/webview/logSession';
import { layoutOverTime, xOfTime } from '../../webview/latencyPanel/overTime/overTimeLayout';
import { durationAxis } from '../../webview/shared/axis';
import { ScrapeGauges } from '../../server/core/explain/scrapeGauges';
import { parseExposition } from '../../server/core/metricsText/exposition';
import { additiveTail } from '../../server/shared';

/** What the page's elements are read as (no DOM types in Node tests). */
type El = { dataset: Record<string, string | undefined>; style: { left: string } };

const LOG = path.join(REPO_ROOT, 'test/fixtures/upstream-rendered/qwen3tts-talker-first-audio-after-fix.log');
const SHOTS = path.join(REPO_ROOT, 'test-output/webview');
/**
 * `simulate --talker-first-audio --model-runner v2 --async-chunk --stats-build before-fix --requests 12
 * --seed 3 --fixed-clock --debug-tables`: the codec printed no prefill or decode, and its first audio came
 * after it was scheduled, so where that lies in its unsplit gen time is not in the log.
 */
const BEFORE_FIX_SIM = 'test/fixtures/sim/talker-first-audio-before-fix-seed3.log';
/** The 4.5 s request (e2e_total_ms 4,471.914; its talker prefill+decode took ~4 s). */
const SLOW = 'speech-628f17161fc5a104a9aeb486cbfaa141';

const sessionOfLog = (log = LOG): SyntheticSession => sessionOf(log);

/** The seq of the page's last Each request question: only the answer to it is drawn. */
async function spansSeq(view: WebviewPage): Promise<number> {
  const asked = (await view.posted()).filter((m) => m.type === 'querySpans').at(-1);
  assert.ok(asked?.type === 'querySpans', 'the page asked for the Each request chart');
  return asked.seq;
}
/** The caveat of a p99 from the log's six requests (explain prints the same words). */
const FEW_VALUES =
  'Few values: a p99 from 6 values (fewer than 100) is the largest value or an interpolation towards it, not a tail estimate: the tail is the slowest request.';

const pct = (share: number | null): string =>
  share === null ? '–' : Math.round(share * 100) < 0 ? `−${-Math.round(share * 100)}%` : `${Math.round(share * 100)}%`;

let data: SyntheticSession;
let harness: WebviewHarness;
/** The main target's p99 tail as the language server computes it. */
let expected: TailAttribution;

before(async () => {
  data = sessionOfLog();
  const result = new FakeHost(data).tail({});
  assert.equal(result.mainTarget, 'stage1.firstOutput', "time to first audio: the codec stage's first output");
  expected = result.tails[0] as TailAttribution;
  harness = await WebviewHarness.start(data);
  fs.mkdirSync(SHOTS, { recursive: true });
});

after(async () => {
  await harness?.close();
});

describe('side panel: Why p99 is slow', () => {
  let view: WebviewPage;
  let page: Page;

  before(async () => {
    view = await harness.open('sidePanel', { width: 420, height: 900 }, new FakeHost(data, { pushTail: true }));
    page = view.page;
    await page.getByTestId('tail-section').waitFor();
  });

  after(async () => {
    await view?.close();
  });

  test('names time to first audio and the three parts with the largest excess, with their shares', async () => {
    assert.equal(await page.getByTestId('tail-target').textContent(), 'time to first audio (stage 1 · code2wav)');
    // From the log: one request of six at or above the p99 (3,803 ms), ~3.9 s above the median 96.7 ms.
    assert.equal(expected.requestCount, 1);
    assert.ok(Math.abs(expected.thresholdMs - 3803) < 1, String(expected.thresholdMs));
    assert.equal(
      await page.getByTestId('tail-headline').textContent(),
      '1 of 6 requests is at or above 3.80 s (p99), +3.90 s above the median 96.7 ms.',
    );
    // A p99 of six values is the slowest one: said under the headline, as explain says it.
    assert.equal(await page.getByTestId('tail-few-values').textContent(), FEW_VALUES);
    assert.equal(await page.getByTestId('tail-few-values').isVisible(), true);
    const labels = await page.locator('[data-testid="tail-part"] .tail-label').allTextContents();
    // The talker prints one output (MRv2 + async chunk): its prefill is named prefill+decode, never
    // prefill. The codec ran alongside it (async chunk): its parts are not among the parts.
    assert.deepEqual(labels, ['stage 0 · talker prefill+decode (one output)', 'preprocess', 'stage 0 · talker queued']);
    const shares = await page.getByTestId('tail-share').allTextContents();
    assert.deepEqual(
      shares,
      additiveTail(expected)
        .parts.slice(0, 3)
        .map((p) => pct(p.share)),
    );
    assert.deepEqual(shares, ['100%', '0%', '0%']);
    // The residual is what the parts do not explain once the codec's time is set apart: about 0.
    assert.ok(expected.residualMs < -3800, String(expected.residualMs));
    const note = (await page.getByTestId('tail-note').textContent()) ?? '';
    assert.match(note, /^residual −1\.42 ms \(0%\)$/);
    assert.equal(
      await page.getByTestId('tail-overlap-note').textContent(),
      'stage 1 · code2wav ran alongside the stages upstream (async chunk feeds it as they produce), so its 4 parts (+3.90 s together) lie within their time, the same time seen from downstream; shown apart and not added to them (no share; the residual leaves it out).',
    );
    // Above the parts, as in the Tail tab: what a part's excess is over under time to first audio.
    // The heading names the target; the note says what it does to a part.
    assert.equal(await page.getByTestId('tail-target').textContent(), 'time to first audio (stage 1 · code2wav)');
    const contribution = page.getByTestId('tail-contribution-note');
    assert.equal(await contribution.textContent(), 'Each part counts only its time before that first output.');
    assert.equal(
      await contribution.getAttribute('title'),
      'Each part counts only up to time to first audio (stage 1 · code2wav): its excess and median are of its time before that first output, less than its own time where it runs on after it.',
    );
    assert.equal(await contribution.isVisible(), true);
    await page.getByTestId('tail-section').screenshot({ path: path.join(SHOTS, 'side-panel-why-p99.png') });
  });

  test('one click asks for Latency Details on the tail requests', async () => {
    assert.equal(await page.getByTestId('tail-open').textContent(), 'Show the 1 tail request');
    await page.getByTestId('tail-open').click();
    await waitUntil(page, `window.__posted.some((m) => m.type === 'openLatencyPanel' && m.filter.tail)`);
    const posted = (await view.posted()).filter(
      (m): m is Extract<WebviewToHost, { type: 'openLatencyPanel' }> => m.type === 'openLatencyPanel',
    );
    assert.deepEqual(posted.at(-1)?.filter, {
      tail: { target: 'stage1.firstOutput', quantile: 'p99', ms: expected.thresholdMs },
    });
  });
});

describe('latency panel: Tail, load at arrival, Over Time', () => {
  let view: WebviewPage;
  let page: Page;

  before(async () => {
    view = await harness.open('latencyPanel', { width: 1280, height: 900 });
    page = view.page;
    await waitUntil(
      page,
      `document.querySelector('[data-testid="request-id"][data-index="0"]')?.dataset.state === 'text'`,
    );
  });

  after(async () => {
    await view?.close();
  });

  test('the tail tab draws the parts as bars, the residual below zero, and lists the slow request', async () => {
    await page.getByTestId('tab-tail').click();
    await page.getByTestId('tail-block').waitFor();
    assert.equal(await page.getByTestId('tail-target').inputValue(), 'stage1.firstOutput');
    assert.equal(await page.getByTestId('tail-block').getByTestId('tail-few-values').textContent(), FEW_VALUES);
    const keys = await page
      .locator('[data-testid="tail-bar"]')
      .evaluateAll((els) => els.map((e) => (e as unknown as El).dataset['key']));
    const additive = additiveTail(expected);
    assert.deepEqual(
      keys,
      additive.parts.slice(0, keys.length).map((p) => p.key),
    );
    assert.equal(keys[0], '0/prefill');
    // The codec ran alongside the talker: its parts apart, below the others, with no share.
    const overlap = page.getByTestId('tail-overlap');
    assert.deepEqual(await overlap.evaluateAll((els) => els.map((e) => (e as unknown as El).dataset['key'])), [
      '1/genOther',
      '1/decode',
      '1/prefill',
      '1/queued',
    ]);
    assert.deepEqual(await overlap.locator('.bar-share').allTextContents(), ['–', '–', '–', '–']);
    const residual = page.getByTestId('tail-residual');
    assert.equal(Number(await residual.getAttribute('data-excess-ms')), additive.residualMs);
    assert.ok(Math.abs(additive.residualMs) < 2, String(additive.residualMs));
    assert.equal(await residual.locator('.bar-label').textContent(), 'residual');
    // A residual of −1.42 ms is rounding: the zero line stays at the left edge.
    const fill = await residual.locator('.bar-fill').evaluate((e) => ({
      negative: (e as unknown as El).dataset['negative'],
      left: parseFloat((e as unknown as El).style.left),
    }));
    assert.deepEqual(fill, { negative: 'true', left: 0 });
    assert.deepEqual(await page.getByTestId('tail-request').allTextContents(), [SLOW]);
    // The codec's rest of gen time lies after its first audio in 5 of the 6 requests: its median
    // contribution is that, in words with a hover, never "0 ms" as if measured.
    const medians = await page.locator('.tail-bar-row .bar-median').allTextContents();
    assert.ok(!medians.some((m) => /^median 0 ms$/.test(m)), JSON.stringify(medians));
    const after = page.locator('[data-testid="tail-overlap"][data-key="1/genOther"] .bar-median');
    assert.equal(await after.textContent(), 'after the target');
    assert.equal(await after.getAttribute('data-state'), 'afterTarget');
    assert.match(
      (await after.getAttribute('title')) ?? '',
      /^Median: none of this part counts toward the target: in 5 of the 6 requests that measured it, it lies wholly after time to first audio \(stage 1 · code2wav\) ends/,
    );
    assert.equal(
      await page.locator('[data-testid="tail-bar"][data-key="0/prefill"] .bar-median').textContent(),
      'median 84.9 ms',
    );
    // That median is the talker's time before the first audio, not its ~1.1 s: said once, above the bars.
    assert.equal(
      await page.getByTestId('tail-contribution-note').textContent(),
      'Each part counts only up to time to first audio (stage 1 · code2wav): its excess and median are of its time before that first output, less than its own time where it runs on after it.',
    );
  });

  test('load at arrival: the tail request arrived with nothing else in flight', async () => {
    await page.getByTestId('load-table').waitFor();
    const buckets = await page
      .locator('[data-testid="load-bucket"]')
      .evaluateAll((els) =>
        els.map((e) => [
          (e as unknown as El).dataset['min'],
          (e as unknown as El).dataset['count'],
          (e as unknown as El).dataset['tail'],
        ]),
      );
    // Read from the log's timestamps: four requests arrived alone, two with one other in flight; the
    // slow one alone. The one of 1,130 ms arrived 0.13 s before the one printed a second earlier
    // "finished" (midpoints of whole printed seconds): within the resolution, not in flight.
    assert.deepEqual(buckets, [
      ['0', '4', '1'],
      ['1', '2', '0'],
    ]);
    // One request in the tail cannot tell busier from slower; the words say so and point to the table shown.
    const reading = page.getByTestId('load-reading');
    assert.equal(await reading.getAttribute('data-reading'), 'unknown');
    assert.equal(
      await reading.textContent(),
      'Only 6 requests with a known arrival, 1 in the p99 tail: too few to tell whether the tail arrived into a busier server. The table below describes these requests as they are; it is not evidence either way.',
    );
    // Arrival is the finish less the request's end to end, whichever table or line printed it.
    assert.match(
      (await page.getByTestId('load-note').textContent()) ?? '',
      /^In flight = other requests between their arrival \(finish − end to end: e2e_total_ms, else the \[OmniTiming\] total=, else an older format's e2e_time_ms\) and finish, to about /,
    );
    await page.screenshot({ path: path.join(SHOTS, 'latency-panel-tail.png') });
  });

  test('the quantile and target pickers ask again; e2e has its own threshold', async () => {
    await page.getByTestId('tail-target').selectOption('e2e');
    await waitUntil(page, `document.querySelector('[data-testid="tail-block"]')?.dataset.target === 'e2e'`);
    const e2e = new FakeHost(data).tail({ target: 'e2e' }).tails[0] as TailAttribution;
    assert.equal(Number(await page.getByTestId('tail-block').getAttribute('data-threshold-ms')), e2e.thresholdMs);
    assert.ok(Math.abs(e2e.thresholdMs - 4351) < 1, String(e2e.thresholdMs));
    await page.getByTestId('tail-quantile-p90').click();
    await waitUntil(page, `document.querySelector('[data-testid="tail-block"]')?.dataset.quantile === 'p90'`);
    const posted = await view.posted();
    assert.deepEqual(posted.filter((m) => m.type === 'queryTail').at(-1), {
      type: 'queryTail',
      seq: (posted.filter((m) => m.type === 'queryTail').at(-1) as { seq: number }).seq,
      params: { target: 'e2e', quantile: 'p90' },
    });
    await page.getByTestId('tail-target').selectOption('stage1.firstOutput');
    await page.getByTestId('tail-quantile-p99').click();
    await waitUntil(
      page,
      `document.querySelector('[data-testid="tail-block"]')?.dataset.quantile === 'p99' && document.querySelector('[data-testid="tail-block"]')?.dataset.target === 'stage1.firstOutput'`,
    );
  });

  test('"show in the table" filters the request table to the tail, slowest first; clearing shows all', async () => {
    await page.getByTestId('tail-show-table').click();
    await waitUntil(page, `document.querySelector('[data-testid="request-total"]')?.dataset.total === '1'`);
    assert.equal(await page.getByTestId('tail-filter').isVisible(), true);
    assert.match(
      (await page.getByTestId('tail-filter-text').textContent()) ?? '',
      /^Only the p99 tail: time to first audio \(stage 1 · code2wav\) ≥ 3\.80 s, slowest first$/,
    );
    await waitUntil(
      page,
      `document.querySelector('[data-testid="request-id"][data-index="0"]')?.textContent === ${JSON.stringify(SLOW)}`,
    );
    await page.getByTestId('tail-filter-clear').click();
    await waitUntil(page, `document.querySelector('[data-testid="request-total"]')?.dataset.total === '6'`);
  });

  test("the table's footer names the tail's sort in words, not by its internal key", async () => {
    await page.getByTestId('tab-tail').click();
    await page.getByTestId('tail-show-table').click();
    await waitUntil(page, `document.querySelector('[data-testid="request-total"]')?.dataset.total === '1'`);
    const footer = (await page.getByTestId('request-total').textContent()) ?? '';
    assert.match(
      footer,
      /sorted by time to first audio \(stage 1 · code2wav\) \(largest first; unknown values last\)$/,
    );
    assert.doesNotMatch(footer, /target:/);
    await page.getByTestId('tail-filter-clear').click();
    await waitUntil(page, `document.querySelector('[data-testid="request-total"]')?.dataset.total === '6'`);
  });

  test('a tail filter from the side panel opens the table on the tail', async () => {
    await view.dispatch({
      type: 'filter',
      filter: { tail: { target: 'stage1.firstOutput', quantile: 'p99', ms: expected.thresholdMs } },
    });
    await waitUntil(page, `document.querySelector('[data-testid="request-total"]')?.dataset.total === '1'`);
    assert.equal(await page.getByTestId('tab-requests').getAttribute('aria-selected'), 'true');
    await page.getByTestId('filter-clear').click();
    await waitUntil(page, `document.querySelector('[data-testid="request-total"]')?.dataset.total === '6'`);
  });

  test('a tail request opens its timeline with the additive breakdown; unknown parts are words, never 0 bars', async () => {
    await page.getByTestId('tab-tail').click();
    await page.getByTestId('tail-request').first().click();
    await waitUntil(
      page,
      `document.querySelector('[data-testid="waterfall-title"]')?.textContent === ${JSON.stringify(SLOW)} && document.querySelector('[data-testid="breakdown-part"]') !== null`,
    );
    const part = (key: string) => page.locator(`[data-testid="breakdown-part"][data-key="${key}"]`);
    // From the log: the talker's vllm_prefill_ms 4,314.988 (one output: prefill+decode), e2e_total_ms 4,471.914.
    assert.equal(await part('0/prefill').getAttribute('data-ms'), '4314.988');
    assert.equal(
      await part('0/prefill').locator('.bar-label').textContent(),
      'stage 0 · talker prefill+decode (one output)',
    );
    assert.equal(await part('0/prefill').locator('.bar-fill').count(), 1);
    // The codec TTFT-style lie on the hand-off (0.00 ms send) and the unmeasured final output: words, no bar.
    assert.equal(await part('0->1/tx').locator('.bar-excess').textContent(), 'not recorded');
    assert.equal(await part('0->1/tx').locator('.bar-fill').count(), 0);
    assert.equal(await part('finalOutput').locator('.bar-excess').textContent(), 'not measured');
    assert.equal(await part('finalOutput').locator('.bar-fill').count(), 0);
    assert.equal(await part('0->1/inFlight').locator('.bar-excess').textContent(), 'hidden');
    assert.equal(await part('1/genOther').locator('.bar-median').textContent(), 'reconstructed');
    assert.match(
      (await page.getByTestId('breakdown-identity').textContent()) ?? '',
      /^4\.47 s end to end \(e2e_total_ms\) = Σ parts − overlap 4\.32 s \+ residual \+0\.40 ms$/,
    );
    await page.getByTestId('breakdown').screenshot({ path: path.join(SHOTS, 'latency-panel-breakdown.png') });
  });

  test('over time: rolling percentiles of time to first audio; a brushed window scopes the table', async () => {
    await page.getByTestId('tab-spans').click();
    await waitUntil(page, `document.querySelector('[data-testid="overtime-metric"]')?.value === 'stage1.firstOutput'`);
    // The picker is set before the series arrives; the legend is drawn with it.
    await waitUntil(page, `(document.querySelector('[data-testid="overtime-legend"]')?.textContent ?? '') !== ''`);
    const legend = (await page.getByTestId('overtime-legend').textContent()) ?? '';
    assert.match(legend, /p99 time to first audio \(stage 1 · code2wav\)/);
    assert.match(legend, /finished requests per second/);
    // Six requests within seconds: one point per line, said rather than left to look broken.
    assert.match(
      (await page.getByTestId('overtime-status').textContent()) ?? '',
      /^rolling over 1 min, a step every 15\.0 s · one point: the requests finished within about one window \(a window holds ~50 requests at this log's rate\), too short a log for a trend$/,
    );
    // "Each request": its time labels are drawn whole. Nothing is painted in the canvas's first
    // and last pixel columns (a label cut at a side would be), while the last label, moved in
    // from the side, is painted within the band of labels near the right edge.
    await waitUntil(page, `Number(document.querySelector('[data-testid="spans-canvas"]').dataset.visible) > 0`);
    const [left, right, lastLabel] = await edgeInk(page, 'spans-canvas');
    assert.equal(left, 0, 'a time label is cut at the left edge');
    assert.equal(right, 0, 'a time label is cut at the right edge');
    assert.ok(lastLabel > 0, 'the last time label is drawn up to the right edge');
    // The Over Time chart's labels are placed the same way.
    const [otLeft, otRight, otLastLabel] = await edgeInk(page, 'overtime-canvas');
    assert.equal(otLeft, 0, 'an Over Time label is cut at the left edge');
    assert.equal(otRight, 0, 'an Over Time label is cut at the right edge');
    assert.ok(otLastLabel > 0, 'the last Over Time label is drawn up to the right edge');
    // One time axis: the Over Time chart draws on the Each request chart's view and plot edges.
    await waitUntil(
      page,
      `['t0', 't1', 'x0', 'x1'].every((k) => document.querySelector('[data-testid="overtime-canvas"]').dataset[k] === document.querySelector('[data-testid="spans-canvas"]').dataset[k])`,
    );
    const host = new FakeHost(data);
    const series = host.overTime({}).series;
    const axisOf = async (testId: string): Promise<{ t0: number; t1: number; x0: number; x1: number }> => {
      const d = await page.getByTestId(testId).evaluate((c) => ({ ...(c as unknown as El).dataset }));
      return { t0: Number(d['t0']), t1: Number(d['t1']), x0: Number(d['x0']), x1: Number(d['x1']) };
    };
    const top = await axisOf('overtime-canvas');
    const bottom = await axisOf('spans-canvas');
    assert.deepEqual(top, bottom);
    // The view holds every request (start to end) and the rolling point, which lies at the last
    // finish (07:12:12.5), not at the 15 s step's round end (07:12:15): the axis is the log's span
    // with the Each request chart's 2% of air, nothing after it.
    const ends = data.spans.endMs;
    const starts = ends.map((e, i) => e - (data.spans.e2eMs[i] ?? 0));
    assert.ok(top.t0 < Math.min(...starts) && top.t1 > Math.max(...ends), JSON.stringify({ top, ends }));
    assert.deepEqual(series.times, [Date.UTC(2026, 9, 19, 7, 12, 12, 500)]);
    assert.deepEqual(series.span, { fromMs: Date.UTC(2026, 9, 19, 7, 12, 5, 500), toMs: series.times[0] });
    const air = (top.t1 - Math.max(...ends, series.span!.toMs)) / (top.t1 - top.t0);
    assert.ok(air > 0 && air < 0.025, String(air));
    // Six requests over the 8 printed seconds 07:12:05-07:12:12, not over the 15 s step.
    assert.deepEqual(series.requestRate, [0.75]);
    const box = (await page.getByTestId('overtime-canvas').boundingBox())!;
    const spansBox = (await page.getByTestId('spans-canvas').boundingBox())!;
    assert.equal(box.x, spansBox.x);
    assert.equal(box.width, spansBox.width);
    const l = layoutOverTime(series, box.width, false, top);
    assert.deepEqual([l.x0, l.x1], [top.x0, top.x1]);
    const xOf = (t: number): number => box.x + xOfTime(l, t);
    const painted = (testId: string, x: number, y0 = 0, rows?: number): Promise<number> =>
      page.getByTestId(testId).evaluate(
        (c, [cssX, cssY, cssRows]) => {
          const canvas = c as unknown as {
            width: number;
            height: number;
            clientWidth: number;
            getContext(k: '2d'): {
              getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray };
            };
          };
          const dpr = canvas.width / canvas.clientWidth;
          const y = Math.round((cssY as number) * dpr);
          const h = cssRows === undefined ? canvas.height - y : Math.round((cssRows as number) * dpr);
          const data = canvas.getContext('2d').getImageData(Math.round((cssX as number) * dpr), y, 1, h).data;
          let n = 0;
          for (let k = 3; k < data.length; k += 4) if ((data[k] as number) > 0) n++;
          return n;
        },
        [x, y0, rows] as const,
      );
    // The slow request's end, 07:12:07.5 on the log clock (the middle of its printed second, as
    // Over Time places it): its mark (3 px square) is at that x in the Each request chart; 8 px
    // off it the plot has only its grid lines there.
    const slow = data.spans.requestIds.indexOf(SLOW);
    const slowEnd = data.spans.endMs[slow] as number;
    assert.equal(slowEnd, Date.UTC(2026, 9, 19, 7, 12, 7, 500));
    const slowX = xOfTime(l, slowEnd);
    // Inside the plot (top 10 px to the axis 24 px above the bottom), not the time labels.
    const plotRows = 360 - 10 - 24;
    const atMark = await painted('spans-canvas', slowX, 10, plotRows);
    const offMark = await painted('spans-canvas', slowX + 8, 10, plotRows);
    assert.ok(atMark >= offMark + 3, `${atMark} at the slow request's end vs ${offMark} beside it`);
    // The lone point of each line is drawn whole inside the plot, off its right border: the column
    // through it holds the three dots (p50, p90, p99) and the rate's, the border's none.
    const mid = xOfTime(l, series.times[0] as number);
    assert.ok(mid > l.x0 + 50 && mid < l.x1 - 10, `${mid} in ${l.x0}..${l.x1}`);
    const beside = await painted('overtime-canvas', mid - 20);
    const atPoint = await painted('overtime-canvas', mid);
    assert.ok(atPoint >= beside + 4 * 2, `${atPoint} vs ${beside}`);
    const border = await painted('overtime-canvas', l.x1 - 1);
    assert.ok(border <= beside, `${border} vs ${beside}`);
    await page.getByTestId('spans-canvas').screenshot({ path: path.join(SHOTS, 'latency-panel-each-request.png') });
    // Zoomed in the Each request chart (+ twice): the Over Time chart follows; 0 resets both.
    await page.getByTestId('spans-canvas').focus();
    await page.keyboard.press('+');
    await page.keyboard.press('+');
    const sameAxis = `['t0', 't1', 'x0', 'x1'].every((k) => document.querySelector('[data-testid="overtime-canvas"]').dataset[k] === document.querySelector('[data-testid="spans-canvas"]').dataset[k])`;
    // Both presses drawn: the axis is 0.8 of the whole after the first, 0.64 after the second.
    await waitUntil(
      page,
      `${sameAxis} && Number(document.querySelector('[data-testid="spans-canvas"]').dataset.t1) - Number(document.querySelector('[data-testid="spans-canvas"]').dataset.t0) < ${(top.t1 - top.t0) * 0.72}`,
    );
    const zoomed = await axisOf('overtime-canvas');
    assert.ok(Math.abs(zoomed.t1 - zoomed.t0 - (top.t1 - top.t0) * 0.64) < 1, JSON.stringify({ zoomed, top }));
    await page.screenshot({ path: path.join(SHOTS, 'latency-panel-over-time-zoomed.png') });
    await page.keyboard.press('0');
    await waitUntil(
      page,
      `${sameAxis} && document.querySelector('[data-testid="spans-canvas"]').dataset.t0 === '${top.t0}'`,
    );
    // Drag over the first three seconds of finishes: 07:12:05-07:12:08 (finish = printed second + 0.5 s).
    const from = Date.UTC(2026, 9, 19, 7, 12, 5);
    const to = Date.UTC(2026, 9, 19, 7, 12, 9);
    let inWindow = 0;
    for (let i = 0; i < host.index.length; i++)
      if (host.index.finishMs(i) >= from && host.index.finishMs(i) <= to) inWindow++;
    assert.equal(inWindow, 3);
    await page.mouse.move(xOf(from), box.y + 60);
    await page.mouse.down();
    await page.mouse.move(xOf(to), box.y + 60, { steps: 5 });
    await page.mouse.up();
    await page.getByTestId('scope-window').waitFor();
    assert.match(
      (await page.getByTestId('scope-window-text').textContent()) ?? '',
      /^Window 07:12:0[45]–07:12:(08|09|10) /,
    );
    await page.screenshot({ path: path.join(SHOTS, 'latency-panel-over-time.png') });
    await page.getByTestId('tab-requests').click();
    await waitUntil(page, `document.querySelector('[data-testid="request-total"]')?.dataset.total === '3'`);
    const q = (await view.posted()).filter((m) => m.type === 'queryRequests').at(-1) as Extract<
      WebviewToHost,
      { type: 'queryRequests' }
    >;
    assert.ok(q.params.scope?.fromMs !== undefined && q.params.scope.toMs !== undefined, JSON.stringify(q.params));
    // The tail follows the window.
    await page.getByTestId('tab-tail').click();
    await waitUntil(
      page,
      `document.querySelector('[data-testid="tail-block"]') !== null && /of 3 requests/.test(document.querySelector('[data-testid="tail-headline"]').textContent)`,
    );
    await page.getByTestId('scope-window-clear').click();
    await waitUntil(
      page,
      `/of 6 requests/.test(document.querySelector('[data-testid="tail-headline"]')?.textContent ?? '')`,
    );
  });

  test('exclude cold reaches every query', async () => {
    await page.getByTestId('tab-tail').click();
    await page.getByTestId('exclude-cold').check();
    await waitUntil(
      page,
      `window.__posted.some((m) => m.type === 'queryTail' && m.params.scope && m.params.scope.excludeCold === true)`,
    );
    await page.getByTestId('tab-requests').click();
    await waitUntil(
      page,
      `window.__posted.some((m) => m.type === 'queryRequests' && m.params.scope && m.params.scope.excludeCold === true)`,
    );
    const cold = data.requests.filter((r) => r.cold).length;
    await waitUntil(page, `document.querySelector('[data-testid="request-total"]')?.dataset.total === '${6 - cold}'`);
    await page.getByTestId('exclude-cold').uncheck();
  });

  test('no CSP violation, no script from log text', async () => {
    assert.deepEqual(await page.evaluate('window.__cspViolations'), []);
  });
});

/**
 * Pixels painted in a canvas's first column, its last column, and the band of time labels at its
 * bottom right: a label cut at a side paints a side column.
 */
async function edgeInk(page: Page, testId: string): Promise<[number, number, number]> {
  return (await page.getByTestId(testId).evaluate((c) => {
    const canvas = c as unknown as {
      width: number;
      height: number;
      clientWidth: number;
      getContext(k: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } };
    };
    const dpr = canvas.width / canvas.clientWidth;
    const band = Math.round(24 * dpr);
    const edge = Math.round(16 * dpr);
    // [left column, right column, the band of labels near the right edge]; counted inline
    // (a named helper would be compiled into a call the page does not have).
    return [
      [0, 0, 1, canvas.height],
      [canvas.width - 1, 0, 1, canvas.height],
      [canvas.width - edge, canvas.height - band, edge, band],
    ].map(([x, y, w, h]) => {
      const px = canvas.getContext('2d').getImageData(x as number, y as number, w as number, h as number).data;
      let n = 0;
      for (let k = 3; k < px.length; k += 4) if ((px[k] as number) > 0) n++;
      return n;
    });
  })) as [number, number, number];
}

describe('latency panel: Over Time follows the session shown', () => {
  let view: WebviewPage;
  let page: Page;
  const OMNI = path.join(REPO_ROOT, 'test/fixtures/upstream-rendered/qwen3-omni-three-stage-transfers.log');
  const axisOf = async (testId: string): Promise<{ t0: number; t1: number }> => {
    const d = await page.getByTestId(testId).evaluate((c) => ({ ...(c as unknown as El).dataset }));
    return { t0: Number(d['t0']), t1: Number(d['t1']) };
  };
  const sameAxis = `['t0', 't1', 'x0', 'x1'].every((k) => document.querySelector('[data-testid="overtime-canvas"]').dataset[k] === document.querySelector('[data-testid="spans-canvas"]').dataset[k])`;

  before(async () => {
    view = await harness.open('latencyPanel', { width: 1280, height: 1000 }, new FakeHost(data));
    page = view.page;
    await page.getByTestId('tab-spans').click();
    await waitUntil(page, `Number(document.querySelector('[data-testid="spans-canvas"]').dataset.visible) === 6`);
  });

  after(async () => {
    await view?.close();
  });

  /** Zoom the Each request chart (the Over Time chart follows), then show another session's log in the page. */
  async function zoomThenShow(log: string, id: string): Promise<SyntheticSession> {
    const whole = await axisOf('spans-canvas');
    await page.getByTestId('spans-canvas').focus();
    for (let k = 0; k < 4; k++) await page.keyboard.press('+');
    await waitUntil(
      page,
      `${sameAxis} && Number(document.querySelector('[data-testid="spans-canvas"]').dataset.t0) > ${whole.t0}`,
    );
    const read = sessionOfLog(log);
    const next = {
      ...read,
      session: { ...read.session, id, title: id },
      summary: { ...read.summary, sessionId: id },
    };
    for (const m of view.host.show(next)) await view.dispatch(m);
    return next;
  }

  /** The shown view is the session's whole one: its requests and its log's span, 2% of air either side. */
  async function assertWholeView(next: SyntheticSession): Promise<void> {
    const n = next.spans.endMs.length;
    await waitUntil(
      page,
      `document.querySelector('[data-testid="spans-status"]')?.textContent.startsWith('${n} of ${n} requests in view') && ${sameAxis}`,
    );
    const shown = await axisOf('spans-canvas');
    const series = view.host.overTime({}).series;
    const ends = next.spans.endMs;
    const starts = ends.map((e, i) => e - (next.spans.e2eMs[i] ?? 0));
    const [lo, hi] = [Math.min(...starts), Math.max(...ends, series.span!.toMs)];
    assert.ok(Math.abs(shown.t0 - (lo - (hi - lo) * 0.02)) < 1, JSON.stringify({ shown, lo, hi }));
    assert.ok(Math.abs(shown.t1 - (hi + (hi - lo) * 0.02)) < 1, JSON.stringify({ shown, lo, hi }));
  }

  test('a zoom made on one session is not carried to the next: it starts unzoomed, every request in view', async () => {
    // The log before the fix: the same seconds of the same day (07:12:04-07:12:12), so the old
    // zoom still lies over some of its requests; it is the other session's all the same.
    const before = await zoomThenShow(
      path.join(REPO_ROOT, 'test/fixtures/upstream-rendered/qwen3tts-talker-first-audio-before-fix.log'),
      'import-before-fix',
    );
    await assertWholeView(before);
    // Qwen3-Omni, three requests three days later (09:30:53-09:31:58 on the log clock).
    const omni = await zoomThenShow(OMNI, 'import-omni');
    await assertWholeView(omni);
    // Its rolling point at the last finish (09:31:58.5), not at the 10 min step's end (09:40):
    // the axis ends 2% after the log.
    const series = view.host.overTime({}).series;
    assert.equal(series.stepMs, 600_000);
    assert.deepEqual(series.times, [Date.UTC(2026, 9, 22, 9, 31, 58, 500)]);
    const shown = await axisOf('overtime-canvas');
    assert.ok(shown.t1 < Date.UTC(2026, 9, 22, 9, 32, 5), new Date(shown.t1).toISOString());
    assert.equal(await page.getByTestId('overtime-rate-note').count(), 0);
    await page
      .getByTestId('panel-spans')
      .screenshot({ path: path.join(SHOTS, 'latency-panel-over-time-next-session.png') });
  });

  test('a session without requests: one sentence instead of the charts, no empty picker', async (t) => {
    const emptyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-empty-'));
    t.after(() => fs.rmSync(emptyDir, { recursive: true, force: true }));
    const emptyLog = path.join(emptyDir, 'empty.log');
    fs.writeFileSync(emptyLog, '');
    const none = sessionOfLog(emptyLog);
    const next = {
      ...none,
      session: { ...none.session, id: 'import-empty', title: 'Empty (imported)', requestCount: 0 },
    };
    for (const m of view.host.show({ ...next, summary: { ...next.summary, sessionId: 'import-empty' } }))
      await view.dispatch(m);
    await waitUntil(
      page,
      `document.querySelector('[data-testid="overtime-empty"]')?.hidden === false && !/Loading/.test(document.querySelector('[data-testid="overtime-empty"]').textContent)`,
    );
    assert.equal(
      await page.getByTestId('overtime-empty').textContent(),
      "Nothing to chart over time: no request in this session has a log time yet. The rolling percentiles, the request rate and the engines' load appear here as requests finish.",
    );
    assert.equal(await page.getByTestId('overtime-metric').isVisible(), false);
    assert.equal(await page.getByTestId('overtime-canvas').isVisible(), false);
    assert.equal(await page.getByTestId('overtime-legend').textContent(), '');
    // The Each request chart below: its words, no empty plot with zoom controls.
    await waitUntil(page, `document.querySelector('[data-testid="spans-status"]')?.textContent === 'No requests yet.'`);
    assert.equal(await page.getByTestId('spans-canvas').isVisible(), false);
    assert.equal(await page.getByTestId('spans-reset').isVisible(), false);
    await page.getByTestId('panel-spans').screenshot({ path: path.join(SHOTS, 'latency-panel-over-time-empty.png') });
  });

  test("an Each request answer for the session shown before is dropped; the shown session's is drawn", async () => {
    const read = sessionOfLog(OMNI);
    const omni = { ...read, session: { ...read.session, id: 'import-omni-late' } };
    for (const m of view.host.show({ ...omni, summary: { ...omni.summary, sessionId: 'import-omni-late' } }))
      await view.dispatch(m);
    await assertWholeView(omni);
    const visible = (): Promise<string | undefined> =>
      page.getByTestId('spans-canvas').evaluate((c) => (c as unknown as El).dataset['visible']);
    // Two frames: a drawn answer would show in the next one.
    const frames = (): Promise<unknown> =>
      page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
    // The first session's six requests, answered after the three-request session was shown.
    await view.dispatch({ type: 'spans', seq: await spansSeq(view), sessionId: data.session.id, spans: data.spans });
    await frames();
    assert.equal(await visible(), '3');
    assert.match((await page.getByTestId('spans-status').textContent()) ?? '', /^3 of 3 requests in view/);
    // The same spans answered for the session shown are drawn: the check is the session, not the lateness.
    await view.dispatch({ type: 'spans', seq: await spansSeq(view), sessionId: 'import-omni-late', spans: data.spans });
    await waitUntil(page, `document.querySelector('[data-testid="spans-canvas"]').dataset.visible === '6'`);
  });
});

describe('Over Time: each gauge line names its source; Each request: what its colour compares', () => {
  const SIM = path.join(REPO_ROOT, 'test/fixtures/sim/cold-start-30s.log');
  const OMNI = path.join(REPO_ROOT, 'test/fixtures/upstream-rendered/qwen3-omni-three-stage-transfers.log');
  let view: WebviewPage;
  let page: Page;

  /** A /metrics body as the simulator serves it: the engines' gauges per stage and replica. */
  const exposition = (running: readonly number[], kv: readonly number[]): string =>
    [
      ['vllm:num_requests_running', 'gauge', running],
      ['vllm:num_requests_waiting', 'gauge', [0, 0]],
      ['vllm:kv_cache_usage_perc', 'gauge', kv],
    ]
      .flatMap(([name, type, values]) => [
        `# TYPE ${name as string} ${type as string}`,
        ...(values as number[]).map(
          (v, stage) =>
            `${name as string}{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="${stage}",replica="0"} ${v}`,
        ),
      ])
      .join('\n') + '\n';

  /** The demo's session: the log's Engine lines and /metrics scrapes of the same two engines. */
  function demoSession(): SyntheticSession {
    const read = sessionOfLog(SIM);
    const scrapes = new ScrapeGauges();
    // Two scrapes between the log's engine lines (18:00:40, 18:00:50), read at other instants.
    scrapes.add(parseExposition(exposition([2, 1], [0.012, 0.004])), Date.UTC(2026, 7, 21, 18, 0, 44));
    scrapes.add(parseExposition(exposition([1, 2], [0.006, 0.011])), Date.UTC(2026, 7, 21, 18, 0, 49));
    return { ...read, gauges: [...(read.gauges ?? []), ...scrapes.samples('metrics')] };
  }

  before(async () => {
    view = await harness.open('latencyPanel', { width: 1280, height: 1000 }, new FakeHost(demoSession()));
    page = view.page;
    await page.getByTestId('tab-spans').click();
    await waitUntil(
      page,
      `/\\(\\/metrics\\)/.test(document.querySelector('[data-testid="overtime-legend"]')?.textContent ?? '')`,
    );
  });

  after(async () => {
    await view?.close();
  });

  test('the log and /metrics series of one engine are told apart in the legend, its hover text and a note', async () => {
    const items = page.locator('[data-testid="overtime-legend"] .legend-item');
    const labels = await items.allTextContents();
    const gauges = labels.filter((l) => /^(running|waiting|KV cache) /.test(l));
    assert.deepEqual(gauges, [
      'running stage 0 · talker replica 0 (log)',
      'waiting stage 0 · talker replica 0 (log)',
      'running stage 1 · code2wav replica 0 (log)',
      'waiting stage 1 · code2wav replica 0 (log)',
      'running stage 0 · talker replica 0 (/metrics)',
      'waiting stage 0 · talker replica 0 (/metrics)',
      'running stage 1 · code2wav replica 0 (/metrics)',
      'waiting stage 1 · code2wav replica 0 (/metrics)',
      'KV cache stage 0 · talker replica 0 (log)',
      'KV cache stage 1 · code2wav replica 0 (log)',
      'KV cache stage 0 · talker replica 0 (/metrics)',
      'KV cache stage 1 · code2wav replica 0 (/metrics)',
    ]);
    // The reviewer's screenshot: two lines under one label. Each label now names one line.
    assert.equal(new Set(labels).size, labels.length, labels.join(' | '));
    const titleOf = async (label: string): Promise<string | null> =>
      items.filter({ hasText: label }).first().getAttribute('title');
    assert.match(
      (await titleOf('running stage 0 · talker replica 0 (log)')) ?? '',
      /Engine NNN: lines.*10 s by default/,
    );
    assert.match((await titleOf('KV cache stage 1 · code2wav replica 0 (/metrics)')) ?? '', /at each scrape/);
    const note = (await page.getByTestId('overtime-sources-note').textContent()) ?? '';
    assert.match(
      note,
      /^Running, waiting and KV cache usage come from 2 sources, drawn apart and named in the legend: \(log\) .*; \(\/metrics\) /,
    );
    assert.match(note, /not an average/);
    assert.match(note, /Neither is hidden: the log covers all of the log, the scrapes only the time they ran\.$/);
    // The two sources' last readings in the step differ: the talker's KV usage 0.1% (log, 18:00:40) vs 0.6% (/metrics, 18:00:49).
    const series = view.host.overTime({}).series;
    const kv = (source: string): readonly (number | null)[] =>
      series.gauges.find((g) => g.source === source && g.stage === '0')!.kvCacheUsagePerc;
    assert.notDeepEqual(kv('log'), kv('metrics'));
    await page.getByTestId('panel-spans').screenshot({ path: path.join(SHOTS, 'latency-panel-over-time-sources.png') });
  });

  test('one source only: no note; the label still names it', async () => {
    const read = sessionOfLog(SIM);
    const logOnly = { ...read, session: { ...read.session, id: 'import-log-only' } };
    for (const m of view.host.show({ ...logOnly, summary: { ...logOnly.summary, sessionId: 'import-log-only' } }))
      await view.dispatch(m);
    await waitUntil(
      page,
      // The legend is redrawn whole: wait for the log's labels, not only for the scrapes' to go.
      `((t) => !/\\(\\/metrics\\)/.test(t) && /\\(log\\)/.test(t))(document.querySelector('[data-testid="overtime-legend"]')?.textContent ?? '') && !document.querySelector('[data-testid="overtime-sources-note"]')`,
    );
    assert.match(
      (await page.getByTestId('overtime-legend').textContent()) ?? '',
      /running stage 0 · talker replica 0 \(log\)/,
    );
    assert.equal(await page.getByTestId('overtime-sources-note').count(), 0);
  });

  test('stages that ran alongside: each request is coloured by its slowest phase, within the request', async () => {
    const shown = { ...data, session: { ...data.session, id: 'import-after-fix' } };
    for (const m of view.host.show({ ...shown, summary: { ...shown.summary, sessionId: 'import-after-fix' } }))
      await view.dispatch(m);
    await view.dispatch({ type: 'spans', seq: await spansSeq(view), sessionId: 'import-after-fix', spans: data.spans });
    await waitUntil(page, `document.querySelector('[data-testid="spans-canvas"]').dataset.visible === '6'`);
    const title = page.getByTestId('spans-legend-title');
    assert.equal(
      await title.textContent(),
      'Colour: slowest phase within the request (stages ran alongside, so not by stage_gen_time_ms):',
    );
    assert.match((await title.getAttribute('title')) ?? '', /stage-times-overlap/);
    // Five requests' slowest phase is the talker's prefill+decode, one's the codec's decode: not
    // "stage 1 · code2wav" on all six, as stage_gen_time_ms ranks them (the codec's time holds the talker's).
    assert.deepEqual(data.spans.slowestStage, ['1', '1', '1', '1', '1', '1']);
    assert.deepEqual(
      data.spans.slowestPhase.map((p) => `${p?.stageKey} ${p?.phase}`),
      [
        '0 prefillDecodeMs',
        '0 prefillDecodeMs',
        '1 decodeMs',
        '0 prefillDecodeMs',
        '0 prefillDecodeMs',
        '0 prefillDecodeMs',
      ],
    );
    const items = await page.locator('[data-testid="spans-legend"] .legend-item[data-stage-key]').allTextContents();
    assert.deepEqual(items, ['stage 0 · talker prefill+decode (one output)', 'stage 1 · code2wav decode']);
    assert.match(
      (await page.getByTestId('spans-canvas').getAttribute('aria-label')) ?? '',
      /coloured by its slowest phase within the request/,
    );
    // The slow request (its talker prefill+decode ~4.3 s) is drawn in the talker's colour.
    const swatch = await page
      .locator('[data-testid="spans-legend"] .legend-item[data-phase="prefillDecodeMs"] .swatch')
      .evaluate((e) => (e as unknown as { style: { background: string } }).style.background);
    const slow = data.spans.requestIds.indexOf(SLOW);
    const d = await page.getByTestId('spans-canvas').evaluate((c) => ({ ...(c as unknown as El).dataset }));
    const box = { left: Number(d['x0']), width: Number(d['x1']) - Number(d['x0']) };
    const x =
      box.left + ((data.spans.endMs[slow]! - Number(d['t0'])) / (Number(d['t1']) - Number(d['t0']))) * box.width;
    const yMax = durationAxis(Math.max(...data.spans.e2eMs.map((e) => e ?? 0)), 4).max;
    const y = 10 + (360 - 34) - (data.spans.e2eMs[slow]! / yMax) * (360 - 34);
    const rgb = await page.getByTestId('spans-canvas').evaluate(
      (c, [cx, cy]) => {
        const canvas = c as unknown as {
          width: number;
          clientWidth: number;
          getContext(k: '2d'): {
            getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray };
          };
        };
        const dpr = canvas.width / canvas.clientWidth;
        const px = canvas.getContext('2d').getImageData(Math.round(cx! * dpr), Math.round(cy! * dpr), 1, 1).data;
        return `rgb(${px[0]}, ${px[1]}, ${px[2]})`;
      },
      [x, y] as const,
    );
    assert.equal(rgb, swatch);
  });

  test('stages one after another: the colour stays the slowest stage by stage_gen_time_ms', async () => {
    const read = sessionOf(OMNI, { stageNames: { '0': 'thinker', '1': 'talker', '2': 'code2wav' } });
    const omni = { ...read, session: { ...read.session, id: 'import-omni-colour' } };
    assert.equal(omni.spans.colourBy, 'slowestStage');
    for (const m of view.host.show({ ...omni, summary: { ...omni.summary, sessionId: 'import-omni-colour' } }))
      await view.dispatch(m);
    await view.dispatch({
      type: 'spans',
      seq: await spansSeq(view),
      sessionId: 'import-omni-colour',
      spans: omni.spans,
    });
    await waitUntil(page, `document.querySelector('[data-testid="spans-canvas"]').dataset.visible === '3'`);
    assert.equal(
      await page.getByTestId('spans-legend-title').textContent(),
      'Colour: slowest stage by stage_gen_time_ms:',
    );
    const items = await page.locator('[data-testid="spans-legend"] .legend-item[data-stage-key]').allTextContents();
    assert.deepEqual(items, ['stage 1 · talker']);
  });
});

describe("a gen time the log does not split, under its own stage's first output (a simulated log before the fix)", () => {
  let before_: WebviewHarness;
  let view: WebviewPage;
  let side: WebviewPage;

  before(async () => {
    const older = sessionOfLog(path.join(REPO_ROOT, BEFORE_FIX_SIM));
    before_ = await WebviewHarness.start(older);
    view = await before_.open('latencyPanel', { width: 1280, height: 900 });
    side = await before_.open('sidePanel', { width: 420, height: 900 }, new FakeHost(older, { pushTail: true }));
  });

  after(async () => {
    await view?.close();
    await side?.close();
    await before_?.close();
  });

  /** What the Tail tab draws for the unsplit gen time's reason: text on screen, not a hover. */
  interface ReasonGeometry {
    readonly notes: string[];
    readonly drawn: boolean[];
    readonly right: number;
    readonly viewportWidth: number;
    readonly marks: Array<{ text: string; width: number; ariaHidden: string | null }>;
    readonly srOnlyWidths: number[];
  }
  const REASON =
    "Not measured: stage 1's first output lies inside its gen time, which the log does not split, so how much of that time comes before the first output is not known; its time is in the residual.";

  /** The reason is a note under the bars, behind the mark the row carries; the screen-reader text is not drawn. */
  async function assertReasonShown(page: Page): Promise<void> {
    const g = (await page.evaluate(`(() => {
      const block = document.querySelector('[data-testid="tail-block"]');
      const notes = [...block.querySelectorAll('[data-testid="tail-not-measured-notes"] li')];
      const drawn = (e) => { const r = e.getBoundingClientRect(); return r.width > 1 && r.height > 1 && getComputedStyle(e).visibility === 'visible'; };
      return {
        notes: notes.map((li) => li.textContent),
        drawn: notes.map(drawn),
        right: Math.max(0, ...notes.map((li) => li.getBoundingClientRect().right)),
        viewportWidth: document.documentElement.clientWidth,
        marks: [...block.querySelectorAll('.note-mark')].map((m) => ({ text: m.textContent, width: m.getBoundingClientRect().width, ariaHidden: m.getAttribute('aria-hidden') })),
        srOnlyWidths: [...block.querySelectorAll('.sr-only')].map((e) => e.getBoundingClientRect().width),
      };
    })()`)) as ReasonGeometry;
    // One reason, said once in the text of the tab (not in a title attribute), with its mark.
    assert.deepEqual(g.notes, [`¹Note 1: ${REASON}`]);
    assert.deepEqual(g.drawn, [true]);
    assert.ok(g.right <= g.viewportWidth, `the note runs out of the panel: ${JSON.stringify(g)}`);
    // The mark is drawn on the row and on the note; screen readers hear "see note 1 below" / "Note 1:" instead.
    assert.deepEqual(
      g.marks.map((m) => [m.text, m.ariaHidden]),
      [
        ['¹', 'true'],
        ['¹', 'true'],
      ],
    );
    assert.ok(
      g.marks.every((m) => m.width > 0),
      JSON.stringify(g.marks),
    );
    assert.ok(
      g.srOnlyWidths.every((w) => w <= 1),
      JSON.stringify(g.srOnlyWidths),
    );
    assert.equal(await page.getByTestId('tail-not-measured-notes').isVisible(), true);
    assert.equal(await page.getByText(REASON).isVisible(), true);
  }

  for (const width of [451, 800])
    test(`at ${width} px the reason is a note under the bars, inside the panel`, async () => {
      const narrow = await before_.open('latencyPanel', { width, height: 900 });
      try {
        const page = narrow.page;
        await page.getByTestId('tab-tail').click();
        await page.getByTestId('tail-not-measured').waitFor();
        await assertReasonShown(page);
        const tab = await sidewaysOverflow(page, '#panel-tail');
        assert.deepEqual(tab.outside, [], 'drawn out of the Tail tab');
        assert.ok(tab.scrollWidth <= tab.clientWidth, `the Tail tab scrolls sideways: ${JSON.stringify(tab)}`);
        await page.getByTestId('tail-block').screenshot({ path: path.join(SHOTS, `tail-not-measured-${width}.png`) });
      } finally {
        await narrow.close();
      }
    });

  for (const width of [280, 450])
    test(`the side panel at ${width} px writes why under "Why p99 is slow", from the Tail tab's text, not in a hover`, async () => {
      const older = sessionOfLog(path.join(REPO_ROOT, BEFORE_FIX_SIM));
      const narrow = await before_.open('sidePanel', { width, height: 1200 }, new FakeHost(older, { pushTail: true }));
      try {
        const page = narrow.page;
        const section = page.getByTestId('tail-section');
        await section.getByTestId('tail-not-measured-notes').waitFor();
        // Seen: the text drawn (the screen-reader words are clipped to 1 px), mark and reason both.
        const drawn = (await page.evaluate(`(() => {
          const section = document.querySelector('[data-testid="tail-section"]');
          const seen = (e) => { const c = e.cloneNode(true); c.querySelectorAll('.sr-only').forEach((x) => x.remove()); return c.textContent; };
          return {
            note: seen(section.querySelector('[data-testid="tail-note"]')),
            notes: [...section.querySelectorAll('[data-testid="tail-not-measured-notes"] li')].map(seen),
            srOnlyWidths: [...section.querySelectorAll('.sr-only')].map((e) => e.getBoundingClientRect().width),
          };
        })()`)) as { note: string; notes: string[]; srOnlyWidths: number[] };
        assert.equal(
          drawn.note,
          'stage 1 · code2wav gen time not split (no prefill/decode values): not measured¹ · residual −0.61 ms (−1%)',
        );
        assert.deepEqual(drawn.notes, [`¹${REASON}`]);
        assert.equal(drawn.srOnlyWidths.length, 2);
        assert.ok(
          drawn.srOnlyWidths.every((w) => w <= 1),
          JSON.stringify(drawn.srOnlyWidths),
        );
        const notes = section.locator('[data-testid="tail-not-measured-notes"] li');
        // Screen readers hear the mark as words.
        assert.deepEqual(await notes.allTextContents(), [`¹Note 1: ${REASON}`]);
        assert.equal(await notes.first().isVisible(), true);
        const g = await sidewaysOverflow(page, '[data-testid="tail-section"]');
        assert.deepEqual(g.outside, [], 'drawn out of the section');
        const box = await notes.first().boundingBox();
        assert.ok(
          box !== null && box.x + box.width <= width,
          `the reason runs out of the panel: ${JSON.stringify(box)}`,
        );
        await section.screenshot({ path: path.join(SHOTS, `side-tail-not-measured-${width}.png`) });
      } finally {
        await narrow.close();
      }
    });

  test('the Tail tab and the side panel name it "not measured" with why; no bar, no +0 ms', async () => {
    const page = view.page;
    await page.getByTestId('tab-tail').click();
    await page.getByTestId('tail-block').waitFor();
    assert.equal(await page.getByTestId('tail-target').inputValue(), 'stage1.firstOutput');
    const row = page.locator('[data-testid="tail-not-measured"][data-key="1/genOther"]');
    assert.equal(
      await row.locator('.bar-label').textContent(),
      'stage 1 · code2wav gen time not split (no prefill/decode values)',
    );
    // "not measured" with a footnote mark (read out as "see note 1 below"), never a number.
    assert.equal(await row.locator('.bar-excess').textContent(), 'not measured¹ (see note 1 below)');
    assert.equal(await row.locator('.bar-median').textContent(), 'not measured');
    assert.equal(await row.locator('.bar-fill').count(), 0);
    assert.match(
      (await row.getAttribute('title')) ?? '',
      /^Not measured: stage 1's first output lies inside its gen time/,
    );
    assert.equal(await page.locator('[data-testid="tail-bar"][data-key="1/genOther"]').count(), 0);
    // It sits above the residual, which holds its time.
    const kinds = await page
      .locator('.tail-bar-row')
      .evaluateAll((els) => els.map((e) => (e as unknown as El).dataset['kind']));
    assert.deepEqual(kinds.slice(-3), ['notMeasured', 'overlap', 'residual']);
    // The measured parts' bars only: the +0 ms is the codec's ready queued, measured; the unsplit gen time has none.
    const bars = await page.locator('[data-testid="tail-bar"] .bar-excess').allTextContents();
    assert.deepEqual(bars, ['+113 ms', '+4.13 ms', '+0.44 ms', '+0 ms', '−0.91 ms']);
    const zero = page.locator('[data-testid="tail-bar"]', { hasText: '+0 ms' });
    assert.equal(await zero.getAttribute('data-key'), '1/readyQueued');
    await page.getByTestId('tail-block').screenshot({ path: path.join(SHOTS, 'tail-not-measured.png') });
    await assertReasonShown(page);

    await side.page.getByTestId('tail-section').waitFor();
    const note = (await side.page.getByTestId('tail-note').textContent()) ?? '';
    assert.match(
      note,
      /^stage 1 · code2wav gen time not split \(no prefill\/decode values\): not measured¹ \(see note 1 below\) · residual −0\.61 ms \(−1%\)$/,
    );
    // The codec's wait for the talker is shown apart: the residual is no longer −99%.
    assert.match(
      (await side.page.getByTestId('tail-overlap-note').textContent()) ?? '',
      /^stage 1 · code2wav (input wait \(\+[\d.]+ ms\) is|queued \(\+[\d.]+ ms\) holds) the wait for its input from the stages upstream/,
    );
  });
});

for (const width of [280, 451, 626])
  describe(`latency panel at ${width} px: the Tail tab`, () => {
    test('its bars, its target picker and the load-at-arrival tables fit, or scroll in a box of their own: neither the tab nor the page scrolls sideways', async () => {
      const view = await harness.open('latencyPanel', { width, height: 900 });
      try {
        const page = view.page;
        await page.getByTestId('tab-tail').click();
        await page.getByTestId('load-table').waitFor();
        await page.getByTestId('tail-bar').first().waitFor();
        const tab = await sidewaysOverflow(page, '#panel-tail');
        assert.ok(tab.scrollWidth <= tab.clientWidth, `the Tail tab scrolls sideways: ${JSON.stringify(tab)}`);
        assert.deepEqual(tab.outside, [], 'drawn out of the Tail tab');
        const whole = await sidewaysOverflow(page, 'body');
        assert.deepEqual(whole.outside, [], 'drawn out of the page');
        const pageWidth = (await page.evaluate(
          '[document.scrollingElement.scrollWidth, document.scrollingElement.clientWidth]',
        )) as [number, number];
        assert.ok(pageWidth[0] <= pageWidth[1], `the page scrolls sideways: ${JSON.stringify(pageWidth)}`);
        const target = (await page.evaluate(`(() => {
          const s = document.querySelector('[data-testid="tail-target"]').getBoundingClientRect();
          return [s.left, s.right];
        })()`)) as [number, number];
        assert.ok(
          target[0] >= 0 && target[1] <= width,
          `the Target picker runs out of the panel: ${JSON.stringify(target)}`,
        );
        const tables = (await page.evaluate(`[...document.querySelectorAll('.load-table')].map((t) => {
          let clip = t.parentElement;
          while (clip !== null && getComputedStyle(clip).overflowX === 'visible') clip = clip.parentElement;
          return { table: t.dataset.testid, right: t.getBoundingClientRect().right, clip: clip === null ? '' : clip.className, clipRight: clip === null ? 0 : clip.getBoundingClientRect().right };
        })`)) as { table: string; right: number; clip: string; clipRight: number }[];
        assert.deepEqual(
          tables.map((t) => t.table),
          ['load-table', 'load-stages'],
        );
        for (const t of tables)
          assert.ok(
            t.right <= width || (t.clip === 'load-scroll' && t.clipRight <= width),
            `${t.table} runs out of the panel: ${JSON.stringify(t)}`,
          );
        // Each bar is drawn: its track keeps a width of its own at every width.
        const tracks = (await page.evaluate(
          `[...document.querySelectorAll('[data-testid="tail-bar"] .bar-track')].map((t) => t.getBoundingClientRect().width)`,
        )) as number[];
        assert.ok(tracks.length > 0 && tracks.every((w) => w >= 60), `bar tracks: ${JSON.stringify(tracks)}`);
        await page.getByTestId('panel-tail').screenshot({ path: path.join(SHOTS, `tail-${width}.png`) });
      } finally {
        await view.close();
      }
    });
  });

test('a negative residual that rounds to 0 reads +0.00 ms, not −0.00 ms: the first two requests (what a cut .gz of the log keeps)', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-tail-cut-'));
  try {
    // The text a .gz cut at half its size holds: the log's first 14,268 bytes, two requests.
    const cut = path.join(dir, 'cut.log');
    fs.writeFileSync(cut, fs.readFileSync(LOG).subarray(0, 14_268));
    const two = sessionOfLog(cut);
    assert.equal(two.summary.requestCount, 2);
    const residualMs = additiveTail(new FakeHost(two).tail({}).tails[0] as TailAttribution).residualMs;
    assert.ok(residualMs < 0 && residualMs > -0.005, String(residualMs));
    const view = await harness.open('sidePanel', { width: 300, height: 900 }, new FakeHost(two, { pushTail: true }));
    try {
      await view.page.getByTestId('tail-section').waitFor();
      await waitUntil(
        view.page,
        `document.querySelector('[data-testid="tail-note"]')?.textContent.startsWith('residual')`,
      );
      assert.equal(await view.page.getByTestId('tail-note').textContent(), 'residual +0.00 ms (0%)');
    } finally {
      await view.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
