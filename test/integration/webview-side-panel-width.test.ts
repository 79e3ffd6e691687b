// The side panel in headless Chromium at side-bar widths (240 and 300 px, VS Code's default
// is about 300): nothing runs out sideways, with the /metrics cards, the Prometheus replicas
// and long names in them. A name too long for its line is cut with an ellipsis and its whole
// text is in the title of the line it is on; a card's name line wraps. At 190 px, an INFO-level
// log's notice wraps its fix (a long environment variable) inside its box.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { HistogramSummary, PrometheusPanel } from '../../server/protocol';
import { parseExposition } from '../../server/core/metricsText';
import { histogramSummariesOf } from '../../server/core/metricsText/scrapeSummary';
import { BUGGY_CODEC_SCRAPE } from '../unit/support/scrapeFixtures';
import { REPO_ROOT, WebviewHarness } from '../fixtures/webview/browserHarness';
import { sessionOfLog } from '../fixtures/webview/logSession';
import { horizontalOverflows } from '../fixtures/webview/overflowProbe';
import type { SyntheticSession } from '../fixtures/webview/syntheticSession';
import { syntheticSession } from '../fixtures/webview/syntheticSession';

const SHOTS = path.join(REPO_ROOT, 'test-output/webview');
// A replica label as a Kubernetes deployment may set it: longer than a side bar is wide.
const LONG_REPLICA = 'qwen3-omni-moe-talker-7f9c8d6b5-x2k4p-engine-core-0';
const LONG_HOST = 'qwen3-omni-moe-talker-7f9c8d6b5-x2k4p.inference.svc.cluster.local:8000';

let data: SyntheticSession;
let harness: WebviewHarness;

before(async () => {
  data = syntheticSession(2000);
  harness = await WebviewHarness.start(data);
  fs.mkdirSync(SHOTS, { recursive: true });
});

after(async () => {
  await harness?.close();
});

/** The buggy-codec scrape, its stage 1 series under a long replica label. */
function scrapeWithLongNames(): HistogramSummary[] {
  return histogramSummariesOf(parseExposition(BUGGY_CODEC_SCRAPE)).map((h) =>
    h.labels['stage'] === '1' ? { ...h, labels: { ...h.labels, replica: LONG_REPLICA } } : h,
  );
}

const PROMETHEUS: PrometheusPanel = {
  window: '5m',
  evaluatedAt: Date.UTC(2026, 10, 29, 12, 0, 0),
  replicas: [
    { stage: '0', replica: '0', instances: ['10.0.0.5:8000'] },
    { stage: '1', replica: LONG_REPLICA, instances: [LONG_HOST, '10.0.0.6:8000'] },
  ],
  trend: {
    family: 'vllm:e2e_request_latency_seconds',
    stepSeconds: 15,
    times: [1, 2, 3, 4],
    series: [
      { stage: '0', replica: '0', perSecond: [2, null, 3, 3.5] },
      { stage: '1', replica: LONG_REPLICA, perSecond: [1, 1.5, 1.25, 1.5] },
    ],
  },
};

describe('side panel at side-bar widths', () => {
  for (const width of [240, 300]) {
    test(`${width} px: no horizontal scrollbar, nothing out of its card; long names cut with their whole text on hover`, async () => {
      const view = await harness.open('sidePanel', { width, height: 900 });
      try {
        const { page } = view;
        await page.waitForSelector('[data-testid="stage-row"]');
        await view.dispatch({
          type: 'summary',
          summary: { ...data.summary, histograms: scrapeWithLongNames(), prometheus: PROMETHEUS },
        });
        await page.getByTestId('scrape-section').waitFor();
        await page.getByTestId('prometheus-section').waitFor();
        assert.deepEqual(await page.evaluate(horizontalOverflows), []);

        // The /metrics card of the long replica: its whole name, wrapped inside the card.
        const card = page.getByTestId('scrape-row').nth(1);
        assert.match((await card.locator('th').textContent()) ?? '', new RegExp(`^stage 1 · replica ${LONG_REPLICA}`));
        const th = await card.locator('th').boundingBox();
        const row = await card.boundingBox();
        assert.ok(th !== null && row !== null && th.x + th.width <= row.x + row.width, 'the name line inside its card');
        assert.ok(th.height > 20, `the long name wraps onto more lines (${th.height} px high)`);
        await page
          .getByTestId('scrape-section')
          .screenshot({ path: path.join(SHOTS, `side-panel-metrics-${width}.png`) });

        // The Prometheus replica: label and hosts on one line each, cut, whole in the line's title.
        const replica = page.getByTestId('prometheus-replica').nth(1);
        const cut = await replica.evaluate((li) => {
          const q = li as unknown as {
            title: string;
            querySelectorAll(
              s: string,
            ): ArrayLike<{ textContent: string | null; scrollWidth: number; clientWidth: number }>;
          };
          return Array.from(q.querySelectorAll('.replica-label, .replica-instances')).map((s) => ({
            text: s.textContent ?? '',
            cut: s.scrollWidth > s.clientWidth,
            inTitle: q.title.includes(s.textContent ?? ''),
          }));
        });
        assert.deepEqual(cut, [
          { text: `stage 1 talker · replica ${LONG_REPLICA}`, cut: true, inTitle: true },
          { text: `${LONG_HOST}, 10.0.0.6:8000`, cut: true, inTitle: true },
        ]);
        await page
          .getByTestId('prometheus-section')
          .screenshot({ path: path.join(SHOTS, `side-panel-prometheus-${width}.png`) });
        await page.screenshot({ path: path.join(SHOTS, `side-panel-${width}.png`), fullPage: true });
      } finally {
        await view.close();
      }
    });
  }
});

describe("side panel at the side bar's minimum width (170 px)", () => {
  test('the headline latency and its words stay inside the panel, each word whole', async () => {
    const view = await harness.open('sidePanel', { width: 170, height: 700 });
    try {
      const page = view.page;
      await page.waitForSelector('[data-testid="stage-row"]');
      const label = (await page.locator('.trend-label').textContent()) ?? '';
      assert.match(label, /^p50 /);
      // The trend's parts, against the page's right edge (the side bar cuts what is beyond it).
      const out = (await page.evaluate(`[...document.querySelectorAll('.trend, .trend *')]
        .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
        .map((e) => e.className + ' ' + e.getBoundingClientRect().right.toFixed(1))`)) as string[];
      assert.deepEqual(out, [], 'the headline runs past the side bar');
      // Wrapped between words, never inside one ("outpu / t").
      const words = (await page.evaluate(`(() => {
        const text = document.querySelector('.trend-label').firstChild;
        const cut = [];
        const re = /\\S+/g;
        let m;
        while ((m = re.exec(text.data)) !== null) {
          const r = document.createRange();
          r.setStart(text, m.index);
          r.setEnd(text, m.index + m[0].length);
          if (r.getClientRects().length > 1) cut.push(m[0]);
        }
        return cut;
      })()`)) as string[];
      assert.deepEqual(words, []);
      // Under the sparkline when beside it there is room for a word or two a line only.
      const lines = (await page.evaluate(`(() => {
        const r = document.createRange();
        r.selectNodeContents(document.querySelector('.trend-label'));
        return new Set([...r.getClientRects()].map((b) => Math.round(b.top))).size;
      })()`)) as number;
      assert.ok(lines <= 3, `the headline's words take ${lines} lines of a word or two: ${label}`);
      await page.screenshot({ path: path.join(SHOTS, 'side-panel-170.png') });
    } finally {
      await view.close();
    }
  });
});

describe('side panel of an INFO-level log in a 190 px side bar', () => {
  test('the notice wraps inside its box: its fix (VLLM_LOGGING_LEVEL=DEBUG) is drawn whole', async () => {
    const info = await WebviewHarness.start(
      sessionOfLog(path.join(REPO_ROOT, 'test/fixtures/upstream-rendered/qwen3tts-info-level-omnitiming-only.log')),
    );
    const view = await info.open('sidePanel', { width: 190, height: 900 });
    try {
      const page = view.page;
      const notice = page.getByTestId('tables-missing');
      await notice.waitFor();
      assert.match((await notice.textContent()) ?? '', /Fix: restart the server with VLLM_LOGGING_LEVEL=DEBUG in its/);
      // Every line of the notice's text against the notice's content box.
      const out = (await page.evaluate(`(() => {
        const box = document.querySelector('[data-testid="tables-missing"]');
        const b = box.getBoundingClientRect();
        const style = getComputedStyle(box);
        const left = b.left + box.clientLeft + parseFloat(style.paddingLeft);
        const right = b.right - box.clientLeft - parseFloat(style.paddingRight);
        const range = document.createRange();
        range.selectNodeContents(box);
        return [...range.getClientRects()]
          .filter((r) => r.width > 0 && (r.left < left - 0.5 || r.right > right + 0.5))
          .map((r) => r.left.toFixed(1) + '-' + r.right.toFixed(1) + ' in ' + left.toFixed(1) + '-' + right.toFixed(1));
      })()`)) as string[];
      assert.deepEqual(out, [], 'text of the notice drawn past its box');
      assert.deepEqual(await page.evaluate(horizontalOverflows), []);
      await notice.screenshot({ path: path.join(SHOTS, 'side-panel-190-info-notice.png') });
    } finally {
      await view.close();
      await info.close();
    }
  });
});
