// Latency Details in a narrow editor group, in headless Chromium with the built bundles and
// the real HTML shell: at 280 px every tab is in view and the arrow keys move between them
// without scrolling the page sideways (it has no scrollbar to come back with); scrolled
// sideways, the requests grid keeps each stage's name over the stage's columns in view.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { REPO_ROOT, WebviewHarness, sidewaysOverflow, waitUntil } from '../fixtures/webview/browserHarness';
import type { SyntheticSession } from '../fixtures/webview/syntheticSession';
import { syntheticSession } from '../fixtures/webview/syntheticSession';

const COUNT = 200;
const SHOTS = path.join(REPO_ROOT, 'test-output/webview');
const TABS = ['tab-requests', 'tab-timeline', 'tab-spans', 'tab-histograms', 'tab-tail'];
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

/** Elements scrolled sideways among the tab list's ancestors, the page included: `tag.class scrollLeft`. */
const SCROLLED_SIDEWAYS = `(() => {
  const out = [];
  for (let e = document.querySelector('[role="tablist"]'); e !== null; e = e.parentElement)
    if (e.scrollLeft !== 0) out.push(e.tagName.toLowerCase() + '.' + e.className + ' ' + e.scrollLeft);
  return out;
})()`;

/** Each tab's id, its left and right edge. */
const TAB_BOXES = `[...document.querySelectorAll('[role="tab"]')].map((t) => {
  const r = t.getBoundingClientRect();
  return { id: t.dataset.testid, left: Math.round(r.left), right: Math.round(r.right) };
})`;

describe('Latency Details at 280 px', () => {
  test('every tab is in view, and the arrow keys go through them without scrolling the page sideways', async () => {
    const width = 280;
    const view = await harness.open('latencyPanel', { width, height: 700 });
    try {
      const page = view.page;
      await waitUntil(page, `document.querySelector('[data-testid="request-total"]')?.dataset.total === '${COUNT}'`);
      const boxes = (await page.evaluate(TAB_BOXES)) as { id: string; left: number; right: number }[];
      assert.deepEqual(
        boxes.map((b) => b.id),
        TABS,
      );
      for (const b of boxes) assert.ok(b.left >= 0 && b.right <= width, `${b.id} out of view: ${JSON.stringify(b)}`);

      await page.getByTestId('tab-requests').focus();
      for (const id of [...TABS.slice(1), TABS[0]]) {
        await page.keyboard.press('ArrowRight');
        await waitUntil(page, `document.activeElement?.dataset.testid === '${id}'`);
        assert.equal(await page.getByTestId(id).getAttribute('aria-selected'), 'true');
        assert.deepEqual(await page.evaluate(SCROLLED_SIDEWAYS), [], `after ArrowRight to ${id}`);
      }
      await page.keyboard.press('End');
      assert.deepEqual(await page.evaluate(SCROLLED_SIDEWAYS), [], 'after End');
      await page.screenshot({ path: path.join(SHOTS, 'latency-panel-280-tabs.png') });
    } finally {
      await view.close();
    }
  });
});

for (const width of [280, 451, 626])
  describe(`the Tail tab at ${width} px`, () => {
    test('its parts, the ones not measured included, and its Target picker fit: nothing runs out of the tab sideways', async () => {
      const view = await harness.open('latencyPanel', { width, height: 900 });
      try {
        const page = view.page;
        await waitUntil(page, `document.querySelector('[data-testid="request-total"]')?.dataset.total === '${COUNT}'`);
        await page.getByTestId('tab-tail').click();
        await page.getByTestId('tail-not-measured').first().waitFor();
        await page.getByTestId('load-table').waitFor();
        const tab = await sidewaysOverflow(page, '#panel-tail');
        assert.ok(tab.scrollWidth <= tab.clientWidth, `the Tail tab scrolls sideways: ${JSON.stringify(tab)}`);
        assert.deepEqual(tab.outside, [], 'drawn out of the Tail tab');
        // "not measured" stays on one line, as tall as a measured part's excess.
        const heights = (await page.evaluate(`(() => {
          const h = (q) => [...document.querySelectorAll(q)].map((e) => Math.round(e.getBoundingClientRect().height));
          return { measured: h('[data-testid="tail-bar"] .bar-excess'), notMeasured: h('[data-testid="tail-not-measured"] .bar-excess') };
        })()`)) as { measured: number[]; notMeasured: number[] };
        const line = heights.measured[0] ?? 0;
        assert.ok(line > 0 && heights.notMeasured.every((x) => x === line), JSON.stringify(heights));
        await page.getByTestId('panel-tail').screenshot({ path: path.join(SHOTS, `latency-panel-${width}-tail.png`) });
      } finally {
        await view.close();
      }
    });
  });

describe('requests grid scrolled sideways', () => {
  test("each stage's name stays in view over its columns, right of the id column", async () => {
    const view = await harness.open('latencyPanel', { width: 626, height: 600 });
    try {
      const page = view.page;
      await waitUntil(page, `document.querySelector('[data-testid="request-total"]')?.dataset.total === '${COUNT}'`);
      // Scrolled into the middle of each stage's columns in turn: its name's text must be drawn
      // inside the visible part of its group cell (not left of the view, not under the id column).
      // A stage's group (the one-column "request" group is narrower than what the id column covers here).
      const groups = (await page.evaluate(
        `[...document.querySelectorAll('.group-row .group-cell')].map((c, i) => ({ i, name: c.textContent, width: c.offsetWidth })).filter((c) => c.width >= 300)`,
      )) as { i: number; name: string }[];
      assert.ok(groups.length >= 2, `stage groups: ${groups.map((x) => x.name).join(', ')}`);
      for (let g = 0; g < groups.length; g++) {
        const placed = (await page.evaluate(`(() => {
          const scroller = document.querySelector('[data-testid="request-table-scroll"]');
          const cell = document.querySelectorAll('.group-row .group-cell')[${groups[g]?.i}];
          const idRight = document.querySelector('.grid-head .head-row .id-cell').getBoundingClientRect().right;
          const start = cell.offsetLeft;
          // The id column covers the left of the view: scroll so it covers the group's first 150 px.
          scroller.scrollLeft = start + 150 - (idRight - scroller.getBoundingClientRect().left);
          const view = scroller.getBoundingClientRect();
          const box = cell.getBoundingClientRect();
          const range = document.createRange();
          range.selectNodeContents(cell);
          const text = range.getBoundingClientRect();
          return { scrolled: scroller.scrollLeft, idRight, viewRight: view.right, cellLeft: box.left, cellRight: box.right, textLeft: text.left, textRight: text.right };
        })()`)) as Record<string, number>;
        const { idRight, viewRight, cellLeft, cellRight, textLeft, textRight } = placed as Record<string, number>;
        assert.ok(cellLeft < idRight && cellRight > idRight, `${groups[g]?.name}: its cell starts under the id column`);
        assert.ok(
          textLeft >= idRight - 1 && textRight <= Math.min(viewRight, cellRight) + 1,
          `${groups[g]?.name}: its name is not in view: ${JSON.stringify(placed)}`,
        );
        if (g === 1)
          await page
            .getByTestId('request-table-scroll')
            .screenshot({ path: path.join(SHOTS, 'latency-grid-scrolled-stage-name.png') });
      }
    } finally {
      await view.close();
    }
  });
});
