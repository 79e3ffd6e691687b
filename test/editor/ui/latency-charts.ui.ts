// Latency Details' Request Timeline and histogram at the panel's default size (beside the
// deploy YAML in a 1400 x 900 window), on the sample log of a cold start, imported as a person
// would: the time axis reads one unit and its last label is whole; no duration label is text
// over hatching; the percentile labels sit above the bars, none over another.
// Screenshots: latency-charts-timeline.png, latency-charts-histogram.png, and each chart alone
// (…-canvas.png).
import assert from 'node:assert/strict';
import * as path from 'node:path';
import type { FrameLocator } from 'playwright-core';
import { screenshotDir } from '../harness/config';
import { uiTest } from '../harness/ui';
import { importLog, waitText } from './uiHelpers';
import { canvasColumn } from '../../fixtures/webview/canvasColumn';

const LOG = path.resolve(__dirname, '../../../samples/qwen3-tts-first-audio-cold-start.log');
const PANEL = 'Stage Lens: Latency Details';

type Box = [number, number, number, number];

/** A canvas's data attribute holding JSON (where a chart put its labels), parsed. */
async function canvasData<T>(view: FrameLocator, testId: string, attr: string): Promise<T> {
  return JSON.parse((await view.locator(`[data-testid="${testId}"]`).getAttribute(attr)) ?? 'null') as T;
}

/** The canvas's width in CSS px. */
async function canvasWidth(view: FrameLocator, testId: string): Promise<number> {
  return view
    .locator(`[data-testid="${testId}"]`)
    .evaluate((e) => (e as unknown as { clientWidth: number }).clientWidth);
}

/**
 * The colours of a 1 px column inside a label's box, between its left edge and its text: one
 * colour where the text stands on a solid bar, a plate or the background; more over hatching.
 * Colours within 12 levels of each other count as one.
 */
async function columnColours(view: FrameLocator, testId: string, [x, y, , h]: Box): Promise<string[]> {
  const px = await view.locator(`[data-testid="${testId}"]`).evaluate(canvasColumn, { x, y, h });
  // Colours a few levels apart are one (a gradient's dithering); hatching is far from its ground.
  const colours: number[][] = [];
  for (let k = 0; k < px.length; k += 4) {
    const c = [px[k]!, px[k + 1]!, px[k + 2]!, px[k + 3]!];
    if (!colours.some((o) => o.every((v, i) => Math.abs(v - c[i]!) <= 12))) colours.push(c);
  }
  return colours.map((c) => c.join(','));
}

uiTest(
  'Request Timeline and histogram at the default panel size: one-unit axis, labels readable and whole',
  async (wb) => {
    await wb.openFile('qwen3_tts.yaml');
    await importLog(wb, LOG);
    await wb.runCommand('Stage Lens: Open Latency Details');
    const panel = await wb.webview(PANEL);
    await panel.locator('[data-testid="tab-requests"]').click();
    // The cold-start request: the first after the server started (a JIT build in the talker).
    await panel.locator('[data-testid="filter-finding"]').selectOption('cold-start');
    // Two boots in the log: two cold requests; the first in the table is either one.
    await waitText(
      panel,
      '[data-testid="request-total"]',
      (t) => /^2 requests\b/.test(t),
      'the table filtered to the cold requests',
    );
    const coldId = await waitText(panel, '[data-testid="request-id"][data-index="0"]', (t) => t !== '', 'its id');
    await panel.locator('[data-testid="request-id"][data-index="0"]').dblclick();
    await waitText(panel, '[data-testid="waterfall-title"]', (t) => t === coldId, "the cold request's timeline");
    await panel.locator('[data-testid="waterfall-legend"]').waitFor();
    assert.match(
      (await panel.locator('[data-testid="waterfall-meta"]').textContent()) ?? '',
      /cold: first request after a server start/,
    );

    // ------------------------------------------------------------ the Request Timeline
    const width = await canvasWidth(panel, 'waterfall-canvas');
    const ticks = await canvasData<{ text: string; x: number; w: number }[]>(
      panel,
      'waterfall-canvas',
      'data-tick-labels',
    );
    assert.ok(ticks.length >= 2, JSON.stringify(ticks));
    const units = new Set(ticks.map((t) => t.text.split(' ')[1]));
    assert.equal(units.size, 1, `one unit: ${ticks.map((t) => t.text).join(', ')}`);
    const last = ticks[ticks.length - 1]!;
    assert.ok(last.x + last.w <= width, `"${last.text}" ends at ${last.x + last.w} on a ${width} px canvas`);
    const labels = await canvasData<{ stageKey: string; phase: string; where: string; plate: boolean; box: Box }[]>(
      panel,
      'waterfall-canvas',
      'data-segment-labels',
    );
    for (const l of labels) {
      const colours = await columnColours(panel, 'waterfall-canvas', l.box);
      assert.equal(colours.length, 1, `${l.stageKey} ${l.phase} (${l.where}): under its text ${colours.join(' | ')}`);
    }
    await wb.screenshot('latency-charts-timeline');
    // The chart alone, at the device's pixels, to read its labels.
    await panel
      .locator('[data-testid="waterfall-canvas"]')
      .screenshot({ path: path.join(screenshotDir(), 'latency-charts-timeline-canvas.png') });

    // ------------------------------------------------------------ the histogram
    await panel.locator('[data-testid="tab-histograms"]').click();
    await panel.locator('[data-testid="histogram-stage"]').selectOption('0');
    await panel.locator('[data-testid="histogram-metric"]').selectOption('split:queuedMs');
    await waitText(
      panel,
      '[data-testid="histogram-binned"]',
      (t) => /numbers binned \(ms\)\.$/.test(t),
      'the histogram of stage 0 queued',
    );
    const deadline = Date.now() + 20_000;
    let marks: { pct: string; row: number; box: Box }[] = [];
    while (marks.length < 3 && Date.now() < deadline) {
      marks = (await canvasData<typeof marks | null>(panel, 'histogram-canvas', 'data-percentile-marks')) ?? [];
      if (marks.length < 3) await wb.page.waitForTimeout(250);
    }
    assert.deepEqual(marks.map((m) => m.pct).sort(), ['p50', 'p90', 'p99']);
    const plotTop = Number(await panel.locator('[data-testid="histogram-canvas"]').getAttribute('data-plot-top'));
    const histWidth = await canvasWidth(panel, 'histogram-canvas');
    for (const m of marks) {
      const [x, y, w, h] = m.box;
      assert.ok(y + h < plotTop, `${m.pct}'s label reaches into the bars`);
      assert.ok(x >= 0 && x + w <= histWidth, `${m.pct}'s label leaves the canvas`);
      for (const o of marks)
        if (o !== m && o.row === m.row)
          assert.ok(x + w <= o.box[0] || o.box[0] + o.box[2] <= x, `${m.pct} over ${o.pct}`);
      assert.equal(
        (await columnColours(panel, 'histogram-canvas', m.box)).length,
        1,
        `${m.pct}: its plate is not solid`,
      );
    }
    await wb.screenshot('latency-charts-histogram');
    await panel
      .locator('[data-testid="histogram-canvas"]')
      .screenshot({ path: path.join(screenshotDir(), 'latency-charts-histogram-canvas.png') });
  },
  { timeoutMs: 150_000 },
);
