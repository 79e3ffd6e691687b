// A codec TTFT that waited for the talker's first-audio frame (the after-fix log vLLM-Omni's own
// stats code printed: one request's codec TTFT is 4,000 ms against queued 250 + prefill 500) is
// marked † in the side panel (its meaning said under the table), the request table and the
// request's values, with what it means, as `stage-lens analyze` marks it; no other TTFT carries
// the mark. Built bundles in headless Chromium, fed through the language server's own query
// functions.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { WebviewPage } from '../fixtures/webview/browserHarness';
import { REPO_ROOT, WebviewHarness, waitUntil } from '../fixtures/webview/browserHarness';
import { sessionOfLog } from '../fixtures/webview/logSession';
import type { SyntheticSession } from '../fixtures/webview/syntheticSession';

const LOG = path.join(REPO_ROOT, 'test/fixtures/upstream-rendered/qwen3tts-talker-first-audio-after-fix.log');
const WAITED = 'speech-628f17161fc5a104a9aeb486cbfaa141';
const MEANING =
  "TTFT includes a wait for upstream output: time to first output from the stage's arrival, not its own queueing and prefill (finding ttft-includes-upstream-wait)";

let data: SyntheticSession;
let harness: WebviewHarness;

before(async () => {
  data = sessionOfLog(LOG);
  harness = await WebviewHarness.start(data);
});

after(async () => {
  await harness?.close();
});

const idCell = (index: number): string => `[data-testid="request-id"][data-index="${index}"]`;
const cell = (index: number, col: string): string =>
  `[data-testid="request-row"][data-index="${index}"] .cell[data-col="${col}"]`;

test("the side panel marks the codec's TTFT percentiles and says on how many requests it waited; the talker's carries no mark", async () => {
  const view = await harness.open('sidePanel', { width: 900, height: 900 });
  try {
    const page = view.page;
    await page.locator('[data-testid="stage-row"]').first().waitFor();
    const ttft = (key: string) =>
      page.locator(`[data-testid="stage-row"][data-stage-key="${key}"] td[data-col="ttftMs"]`);
    // The p50 of the six codec TTFTs (the CLI's table: 148.1†).
    assert.match((await ttft('1').locator('.v').textContent()) ?? '', /^148(\.1)?†$/);
    assert.match(
      (await ttft('1').getAttribute('title')) ?? '',
      new RegExp(`† ${MEANING.replace(/[()]/g, '\\$&')}, on 1 request\\.$`),
    );
    assert.doesNotMatch((await ttft('0').locator('.v').textContent()) ?? '', /†/);
    // Said under the table, as the CLI's table says it: the mark is not left to a hover.
    const note = page.getByTestId('ttft-waited-note');
    assert.equal(await note.isVisible(), true);
    assert.equal(await note.textContent(), `† ${MEANING}.`);
  } finally {
    await view.close();
  }
});

describe('the request table and the request', () => {
  let view: WebviewPage;

  before(async () => {
    view = await harness.open('latencyPanel', { width: 1400, height: 800 });
    await waitUntil(view.page, `document.querySelector('${idCell(0)}')?.dataset.state === 'text'`);
  });

  after(async () => {
    await view?.close();
  });

  test('only the request whose TTFT waited has the mark in its codec TTFT cell', async () => {
    const page = view.page;
    const ids = await Promise.all(data.requests.map((_, i) => page.locator(idCell(i)).textContent()));
    const marked: string[] = [];
    for (let i = 0; i < ids.length; i++) {
      const text = (await page.locator(cell(i, '1.ttftMs')).textContent()) ?? '';
      if (text.endsWith('†')) marked.push(ids[i] as string);
      assert.doesNotMatch((await page.locator(cell(i, '0.ttftMs')).textContent()) ?? '', /†/);
    }
    assert.deepEqual(marked, [WAITED]);
    const index = ids.indexOf(WAITED);
    assert.equal(await page.locator(cell(index, '1.ttftMs')).textContent(), '4,000†');
  });

  test("the request's values say it, with the wait beyond its queued + prefill", async () => {
    const page = view.page;
    await page.getByTestId('filter-text').fill(WAITED);
    await waitUntil(page, `document.querySelector('[data-testid="request-total"]').dataset.total === '1'`);
    await waitUntil(page, `document.querySelector('${idCell(0)}')?.textContent === ${JSON.stringify(WAITED)}`);
    await page.locator(idCell(0)).dblclick();
    const facts = page.locator('[data-testid="request-facts"] tr[data-stage-key="1"] td[data-col="ttftMs"]');
    await facts.waitFor();
    assert.equal(await facts.locator('.v').textContent(), '4,000†');
    assert.match((await facts.getAttribute('title')) ?? '', /: 3,250 ms beyond its queued \+ prefill\.$/);
  });
});
