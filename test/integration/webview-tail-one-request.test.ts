// A target that only one request measured, in the Tail tab of Latency Details and in "Why p99
// is slow" (built bundles in headless Chromium, fed with the language server's own query
// functions): said as `stage-lens explain` says it, the target named, "only one request in
// scope measured it", the request and its value, and no tail of +0 ms parts. Logs: one request
// of vLLM-Omni's own stats output (test/fixtures/logs/qwen3tts-one-request.log: e2e_total_ms
// 4,471.914, code2wav serving_time_to_first_output_ms 3,996.500), the reference examples'
// TTS + diffusion log (only the TTS request measures time to first audio, 142.605 ms; both
// measure stage 0's first output), and the one request under an id with markup.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { REPO_ROOT, WebviewHarness, waitUntil } from '../fixtures/webview/browserHarness';
import type { WebviewPage } from '../fixtures/webview/browserHarness';
import { FakeHost } from '../fixtures/webview/fakeHost';
import { sessionOfLog } from '../fixtures/webview/logSession';
import type { SyntheticSession } from '../fixtures/webview/syntheticSession';

const ONE = path.join(REPO_ROOT, 'test/fixtures/logs/qwen3tts-one-request.log');
const MIXED = path.join(REPO_ROOT, 'test/fixtures/logs/b7-examples-plain.log');
const SLOW = 'speech-628f17161fc5a104a9aeb486cbfaa141';
const NO_TAIL =
  "There is no tail to explain: a tail is compared with the other requests part by part; its timeline shows this request's parts.";
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-webview-one-request-'));

after(() => fs.rmSync(tmp, { recursive: true, force: true }));

async function openTailTab(harness: WebviewHarness): Promise<WebviewPage> {
  const view = await harness.open('latencyPanel', { width: 1280, height: 900 });
  await waitUntil(
    view.page,
    `document.querySelector('[data-testid="request-id"][data-index="0"]')?.dataset.state === 'text'`,
  );
  await view.page.getByTestId('tab-tail').click();
  return view;
}

/** What the Tail tab says above load at arrival: its status line (when shown) and each block's lines. */
async function tailText(page: Page): Promise<string[]> {
  const texts = await page.evaluate<string[]>(`(() => {
    const status = document.querySelector('[data-testid="tail-status"]');
    const blocks = [...document.querySelectorAll('[data-testid="tail-attributions"] > *')].map((b) => b.innerText);
    return [...(status.hidden ? [] : [status.innerText]), ...blocks];
  })()`);
  // A heading's and a paragraph's margins read as blank lines.
  return texts.map((t) => t.replace(/\n+/g, '\n'));
}

describe('a log of one request', () => {
  let data: SyntheticSession;
  let harness: WebviewHarness;

  before(async () => {
    data = sessionOfLog(ONE);
    assert.equal(data.requests.length, 1);
    harness = await WebviewHarness.start(data);
  });

  after(async () => {
    await harness?.close();
  });

  test('Tail tab: the main target is named with its one request and value, no tail', async () => {
    const view = await openTailTab(harness);
    const { page } = view;
    try {
      await page.getByTestId('tail-one-request').waitFor();
      assert.deepEqual(await tailText(page), [
        `Time to first audio (stage 1 · code2wav): only one request in scope measured it, ${SLOW} (4.00 s).\n${NO_TAIL}\n${SLOW}\nShow it in the table`,
      ]);
      const block = page.getByTestId('tail-one-request');
      assert.deepEqual(
        [await block.getAttribute('data-target'), await block.getAttribute('data-value-ms')],
        ['stage1.firstOutput', '3996.5'],
      );
      // No tail: no headline of "+0 ms above the median", no bars, no residual.
      assert.equal(await page.getByTestId('tail-block').count(), 0);
      assert.equal(await page.locator('[data-testid="tail-bar"], [data-testid="tail-residual"]').count(), 0);
      assert.doesNotMatch((await tailText(page)).join('\n'), /\+0 ms|is slow at/);

      await page.getByTestId('tail-target').selectOption('e2e');
      await waitUntil(page, `document.querySelector('[data-testid="tail-one-request"]')?.dataset.target === 'e2e'`);
      assert.deepEqual(await page.getByTestId('tail-one-request-text').allTextContents(), [
        `End-to-end time: only one request in scope measured it, ${SLOW} (4.47 s).`,
      ]);

      // The table shows that request.
      await page.getByTestId('tail-show-table').click();
      await waitUntil(page, `document.querySelector('[data-testid="request-total"]')?.dataset.total === '1'`);
      assert.equal(await page.locator('[data-testid="request-id"][data-index="0"]').textContent(), SLOW);
    } finally {
      await view.close();
    }
  });

  test('Why p99 is slow: the same line, and no parts', async () => {
    const view = await harness.open('sidePanel', { width: 420, height: 900 }, new FakeHost(data, { pushTail: true }));
    const { page } = view;
    try {
      await page.getByTestId('tail-section').waitFor();
      assert.equal(
        await page.getByTestId('tail-headline').textContent(),
        `Time to first audio (stage 1 · code2wav): only one request in scope measured it, ${SLOW} (4.00 s).`,
      );
      assert.equal(
        await page.getByTestId('tail-note').textContent(),
        'There is no tail to explain: a tail is compared with the other requests part by part.',
      );
      assert.equal(await page.getByTestId('tail-part').count(), 0);
      assert.equal(await page.getByTestId('tail-few-values').isVisible(), false);
      assert.equal(await page.getByTestId('tail-open').textContent(), 'Show the request');
    } finally {
      await view.close();
    }
  });
});

describe('a log where only one request measures time to first audio', () => {
  let harness: WebviewHarness;

  before(async () => {
    harness = await WebviewHarness.start(sessionOfLog(MIXED));
  });

  after(async () => {
    await harness?.close();
  });

  test("Tail tab: that target as one request; stage 0's first output, which both measured, as a tail", async () => {
    const view = await openTailTab(harness);
    const { page } = view;
    try {
      await page.getByTestId('tail-one-request').waitFor();
      assert.deepEqual(await tailText(page), [
        `Time to first audio (stage 1 · code2wav): only one request in scope measured it, speech-5d0c9a7e2b4f4c1d (143 ms).\n${NO_TAIL}\nspeech-5d0c9a7e2b4f4c1d\nShow it in the table`,
      ]);
      await page.getByTestId('tail-target').selectOption('stage0.firstOutput');
      await page.getByTestId('tail-block').waitFor();
      assert.equal(await page.getByTestId('tail-one-request').count(), 0);
      assert.equal(
        await page.getByTestId('tail-headline').textContent(),
        '1 of 2 requests is at or above 8.56 s (p99), +4.28 s above the median 4.37 s.',
      );
    } finally {
      await view.close();
    }
  });
});

describe('one request whose id carries markup', () => {
  const id = 'speech-<img src=x onerror=alert(1)>';
  let harness: WebviewHarness;

  before(async () => {
    const log = path.join(tmp, 'markup.log');
    fs.writeFileSync(log, fs.readFileSync(ONE, 'utf8').replaceAll(SLOW, id));
    harness = await WebviewHarness.start(sessionOfLog(log));
  });

  after(async () => {
    await harness?.close();
  });

  test('Tail tab: the id is text, and nothing runs', async () => {
    const view = await openTailTab(harness);
    const { page } = view;
    try {
      await page.getByTestId('tail-one-request').waitFor();
      assert.equal(
        await page.getByTestId('tail-one-request-text').textContent(),
        `Time to first audio (stage 1 · code2wav): only one request in scope measured it, ${id} (4.00 s).`,
      );
      assert.equal(await page.getByTestId('tail-request').textContent(), id);
      assert.equal(await page.locator('img').count(), 0);
      assert.equal(await page.evaluate('window.__alerts'), 0);
      assert.deepEqual(await page.evaluate('window.__cspViolations'), []);
    } finally {
      await view.close();
    }
  });
});
