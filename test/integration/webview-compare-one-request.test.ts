// The Compare Sessions panel (built bundle, headless Chromium, strict CSP) where a run has one
// request for the tail's target, answered as ComparePanel answers it (the runs read by the
// language server's loadRun, compared by compareRuns): that run has no tail, since its request
// is its own median and every part would read +0 ms. Its side is said as explain says it, with
// the request and its value, and its column is empty; the other run's tail stays. Logs: one
// request of vLLM-Omni's own stats output (test/fixtures/logs/qwen3tts-one-request.log: code2wav
// serving_time_to_first_output_ms 3,996.500) and six (qwen3tts-talker-first-audio-after-fix.log);
// the one request again under an id with markup, which must stay text.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { loadRun } from '../../server/capture/compareInput';
import { compareRuns } from '../../server/core/compare';
import type { CompareResult } from '../../server/protocol';
import { REPO_ROOT, WebviewHarness } from '../fixtures/webview/browserHarness';
import type { SyntheticSession } from '../fixtures/webview/syntheticSession';

const ONE = path.join(REPO_ROOT, 'test/fixtures/logs/qwen3tts-one-request.log');
const SIX = path.join(REPO_ROOT, 'test/fixtures/upstream-rendered/qwen3tts-talker-first-audio-after-fix.log');
const SLOW = 'speech-628f17161fc5a104a9aeb486cbfaa141';
const MARKUP = 'speech-<img src=x onerror=alert(1)>';
const TARGET = 'time to first audio (stage 1 · code2wav)';
const oneRequestText = (id: string): string =>
  `Time to first audio (stage 1 · code2wav): only one request in scope measured it, ${id} (4.00 s). ` +
  'There is no tail to explain: a tail is compared with the other requests part by part.';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-webview-compare-one-'));

let harness: WebviewHarness;

async function resultOf(baseline: string, candidate: string): Promise<CompareResult> {
  const [b, c] = await Promise.all([baseline, candidate].map((f) => loadRun(f, { excludeCold: false })));
  return {
    report: compareRuns(b!, c!),
    baselineRun: { name: path.basename(baseline), imported: true, detail: baseline },
    candidateRun: { name: path.basename(candidate), imported: true, detail: candidate },
  };
}

/** The tail table as drawn: each body row's header and cells. */
async function tailTable(page: Page): Promise<string[][]> {
  return page.evaluate<string[][]>(`[...document.querySelectorAll('[data-testid="compare-tail"] tbody tr')].map(
    (tr) => [...tr.children].map((c) => c.textContent),
  )`);
}

before(async () => {
  // The compare panel asks nothing of a session: the harness's session data is not read.
  harness = await WebviewHarness.start({} as SyntheticSession);
});

after(async () => {
  await harness?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('compare panel, a baseline of one request', () => {
  test('the baseline says its one request and value, its column is empty; the candidate keeps its tail', async () => {
    const page = await harness.openCompare(await resultOf(ONE, SIX), { width: 1000, height: 900 });
    try {
      await page.getByTestId('compare-tail').waitFor();
      assert.equal(
        await page.getByTestId('compare-tail-sentence').textContent(),
        `The p99 excess of ${TARGET}: +3.90 s over the median in the candidate, most in stage 0 · talker ` +
          'prefill+decode (one output) (+3.90 s); the baseline has no tail, only one request measured it.',
      );
      assert.equal(await page.getByTestId('compare-tail-one-request-baseline').textContent(), oneRequestText(SLOW));
      assert.equal(await page.getByTestId('compare-tail-one-request-candidate').count(), 0);
      assert.deepEqual(await tailTable(page), [
        ['tail', oneRequestText(SLOW), '1 of 6 requests ≥ 3.80 s, +3.90 s over the median 96.7 ms'],
        ['stage 0 · talker prefill+decode (one output)', '–', '+3.90 s (100%)'],
        ['preprocess', '–', '+1.82 ms (0%)'],
        ['stage 0 · talker queued', '–', '+0.06 ms (0%)'],
        ['stage 1 · code2wav rest of gen time', '–', '+1.99 s (apart)'],
        ['stage 1 · code2wav decode', '–', '+1.25 s (apart)'],
        ['stage 1 · code2wav prefill', '–', '+500 ms (apart)'],
        ['stage 1 · code2wav queued', '–', '+162 ms (apart)'],
        ['residual', '–', '−1.42 ms'],
      ]);
      const all = await page.locator('body').innerText();
      assert.doesNotMatch(all, /\+0 ms|1 of 1 requests/);
      assert.deepEqual(await page.evaluate('window.__cspViolations'), []);
    } finally {
      await page.context().close();
    }
  });

  test('at 800 px the one-request sentence wraps as prose inside the tail box', async () => {
    const page = await harness.openCompare(await resultOf(ONE, SIX), { width: 800, height: 900 });
    try {
      await page.getByTestId('compare-tail').waitFor();
      const g = (await page.evaluate(`(() => {
        const b = document.querySelector('[data-testid="compare-tail-scroll"]');
        const cell = document.querySelector('[data-testid="compare-tail-one-request-baseline"]');
        const r = document.createRange();
        r.selectNodeContents(cell);
        const lines = new Set([...r.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top))).size;
        return { scroll: b.scrollWidth, client: b.clientWidth, lines };
      })()`)) as { scroll: number; client: number; lines: number };
      assert.ok(g.scroll <= g.client, JSON.stringify(g));
      assert.ok(g.lines > 2, JSON.stringify(g));
    } finally {
      await page.context().close();
    }
  });
});

describe('compare panel, both runs of one request', () => {
  test('no tail parts at all: each run its request', async () => {
    const page = await harness.openCompare(await resultOf(ONE, ONE), { width: 1000, height: 900 });
    try {
      await page.getByTestId('compare-tail').waitFor();
      assert.equal(
        await page.getByTestId('compare-tail-sentence').textContent(),
        `The p99 excess of ${TARGET}: neither run has a tail, only one request measured it in each.`,
      );
      assert.deepEqual(await tailTable(page), [['tail', oneRequestText(SLOW), oneRequestText(SLOW)]]);
    } finally {
      await page.context().close();
    }
  });
});

describe('compare panel, a one-request candidate whose id carries markup', () => {
  test('the id is text, and nothing runs', async () => {
    const log = path.join(tmp, 'markup.log');
    fs.writeFileSync(log, fs.readFileSync(ONE, 'utf8').replaceAll(SLOW, MARKUP));
    const page = await harness.openCompare(await resultOf(SIX, log), { width: 1000, height: 900 });
    try {
      await page.getByTestId('compare-tail').waitFor();
      assert.equal(await page.getByTestId('compare-tail-one-request-candidate').textContent(), oneRequestText(MARKUP));
      assert.equal(await page.locator('img').count(), 0);
      assert.equal(await page.evaluate('window.__alerts'), 0);
      assert.deepEqual(await page.evaluate('window.__cspViolations'), []);
    } finally {
      await page.context().close();
    }
  });
});
