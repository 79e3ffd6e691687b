// The marks of the tables explained where they are seen, in the built bundles in headless
// Chromium on the Qwen3-TTS log before the codec stats fix (talker -> code2wav): the request
// table's bold, underlined numbers (above their stage's p90) have a legend line under the
// table and a tooltip with that p90; the side panel's `*` on a negative +1st output has the
// CLI's note under the table, word for word (one shared text).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { NEGATIVE_ADDED_NOTE_LINES } from '../../server/core/analysis/crossStage';
import { REPO_ROOT, WebviewHarness, waitUntil } from '../fixtures/webview/browserHarness';
import { sessionOfLog } from '../fixtures/webview/logSession';

const SHOTS = path.join(REPO_ROOT, 'test-output/webview');
const LOG = path.join(REPO_ROOT, 'test/fixtures/upstream-rendered/qwen3tts-talker-first-audio-before-fix.log');
let harness: WebviewHarness;

before(async () => {
  harness = await WebviewHarness.start(sessionOfLog(LOG));
  fs.mkdirSync(SHOTS, { recursive: true });
});

after(async () => {
  await harness?.close();
});

const number = (text: string): number => Number(text.replace(/,/g, '').replace(/[^\d.-].*$/, ''));

describe('request table: the slow mark', () => {
  test("a legend line under the table; a marked cell's tooltip gives its stage's p90, below the cell's number", async () => {
    const view = await harness.open('latencyPanel', { width: 1000, height: 600 });
    try {
      const page = view.page;
      await waitUntil(
        page,
        `document.querySelector('[data-testid="request-id"][data-index="5"]')?.dataset.state === 'text'`,
      );
      const legend = page.getByTestId('slow-legend');
      assert.equal(await legend.isVisible(), true, 'the legend is shown');
      assert.equal(
        await legend.textContent(),
        '1,234 bold, underlined: above the p90 of its stage and column (its tooltip gives the p90)',
      );
      const sample = (await page.evaluate(`(() => {
        const s = getComputedStyle(document.querySelector('[data-testid="slow-legend"] .slow-sample'));
        return { weight: s.fontWeight, shadow: s.boxShadow };
      })()`)) as { weight: string; shadow: string };
      assert.equal(sample.weight, '600');
      assert.match(sample.shadow, /inset/);

      const marked = page.locator('.data-row .cell[data-slow="true"][data-state="measured"]');
      assert.ok((await marked.count()) > 0, 'the log has a number above its p90');
      const cell = marked.first();
      await cell.hover();
      await waitUntil(
        page,
        `document.querySelector('.data-row .cell[data-slow="true"][data-state="measured"]').title !== ''`,
      );
      const title = (await cell.getAttribute('title')) ?? '';
      const m = /Bold, underlined: above this stage's p90 \(([\d,.]+) ms\)\.$/.exec(title);
      assert.ok(m !== null, title);
      assert.ok(
        number((await cell.textContent()) ?? '') > number(m[1] ?? ''),
        `${await cell.textContent()} vs ${title}`,
      );
      await page.screenshot({ path: path.join(SHOTS, 'table-slow-legend-1000.png') });
    } finally {
      await view.close();
    }
  });
});

describe('side panel: the * of a negative +1st output', () => {
  test("the CLI's note is said under the table, in the same words", async () => {
    const cli = execFileSync(process.execPath, [path.join(REPO_ROOT, 'dist/cli.js'), 'analyze', LOG], {
      encoding: 'utf8',
    });
    const lines = cli.split('\n');
    const at = lines.indexOf(NEGATIVE_ADDED_NOTE_LINES[0]);
    assert.ok(at > 0, 'the CLI prints the note');
    assert.equal(lines[at + 1], NEGATIVE_ADDED_NOTE_LINES[1]);

    const view = await harness.open('sidePanel', { width: 300, height: 900 });
    try {
      const page = view.page;
      await page.waitForSelector('[data-testid="stage-row"]');
      const starred = (await page.evaluate(
        `[...document.querySelectorAll('[data-testid="stage-row"] td')].map((td) => td.textContent.trim()).filter((t) => /^-[\\d,.]+\\*$/.test(t))`,
      )) as string[];
      assert.ok(starred.length > 0, 'a negative +1st output is marked *');
      const note = page.getByTestId('negative-added-note');
      assert.equal(await note.isVisible(), true);
      assert.equal(await note.textContent(), `* ${NEGATIVE_ADDED_NOTE_LINES.join(' ')}`);
      // Below the table.
      const [table, below] = await Promise.all([page.locator('.table-wrap').first().boundingBox(), note.boundingBox()]);
      assert.ok(table !== null && below !== null && below.y >= table.y + table.height - 1);
      await page.screenshot({ path: path.join(SHOTS, 'side-panel-negative-added-note.png') });
    } finally {
      await view.close();
    }
  });
});
