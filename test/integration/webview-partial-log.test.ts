// An imported .gz whose data broke off, in the built side panel and Latency Details in headless
// Chromium: both headers say, under the session's name, that its numbers are of part of the log
// and where the data was cut (its sentence in the mark's tooltip); a whole log's headers say
// nothing of it. The status bar's headline latency reads as the side panel's headline value.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { after, before, test } from 'node:test';
import { REPO_ROOT, WebviewHarness } from '../fixtures/webview/browserHarness';
import type { SyntheticSession } from '../fixtures/webview/syntheticSession';
import { FakeHost } from '../fixtures/webview/fakeHost';
import { importedSessionOfLog } from '../fixtures/webview/logSession';
import { statusHeadline } from '../../webview/shared/sessionStatus';

const LOG = path.join(REPO_ROOT, 'test/fixtures/upstream-rendered/qwen3tts-talker-first-audio-after-fix.log');
const SHOTS = path.join(REPO_ROOT, 'test-output/webview');
const OMNI_LOG = path.join(REPO_ROOT, 'test/fixtures/upstream-rendered/qwen3-omni-three-stage-transfers.log');

let whole: SyntheticSession;
let cut: SyntheticSession;
let harness: WebviewHarness;

before(async () => {
  // What Import Log... holds of a .gz cut at half its size: the log a streaming gunzip gives of it.
  const gz = zlib.gzipSync(fs.readFileSync(LOG));
  const prefix = zlib.gunzipSync(gz.subarray(0, gz.length >> 1), { finishFlush: zlib.constants.Z_SYNC_FLUSH });
  assert.equal(prefix.length, 14_333);
  whole = importedSessionOfLog(fs.readFileSync(LOG), 'import-whole', 'server.log (imported)');
  const part = importedSessionOfLog(prefix, 'import-cut', 'server.log.1.gz (imported)');
  // As the language server says it of the session (SessionInfo.gzipDamaged).
  cut = { ...part, session: { ...part.session, gzipDamaged: { logBytes: prefix.length } } };
  assert.ok(cut.requests.length > 0);
  harness = await WebviewHarness.start(cut);
});

after(async () => {
  await harness?.close();
});

const TITLE =
  'Partial log: the gzip data broke off after 14 KB of log (input-gzip-damaged). These numbers are of the log before the break; the rest of the file was not read.';

for (const [view, ready] of [
  ['sidePanel', '[data-testid="stage-row"]'],
  ['latencyPanel', '[data-testid="request-total"]'],
] as const) {
  test(`${view}: a cut .gz says "partial" under the session's name; a whole log does not`, async () => {
    const page = await harness.open(view, { width: 900, height: 640 }, new FakeHost(cut));
    try {
      await page.page.locator(ready).first().waitFor({ state: 'attached' });
      const mark = page.page.getByTestId('partial-mark');
      await mark.waitFor({ state: 'visible' });
      assert.equal(await mark.textContent(), 'partial: gzip data cut after 14 KB');
      assert.equal(await mark.getAttribute('title'), TITLE);
      // In the header, beside the numbers' count.
      assert.equal(await page.page.locator('[data-testid="session-header"] [data-testid="partial-mark"]').count(), 1);
      fs.mkdirSync(SHOTS, { recursive: true });
      await page.page.screenshot({ path: path.join(SHOTS, `${view}-partial-log.png`) });
    } finally {
      await page.close();
    }
    const plain = await harness.open(view, { width: 900, height: 640 }, new FakeHost(whole));
    try {
      await plain.page.locator(ready).first().waitFor({ state: 'attached' });
      await plain.page.getByTestId('session-title').filter({ hasText: 'server.log (imported)' }).waitFor();
      assert.equal(await plain.page.getByTestId('partial-mark').isVisible(), false);
      assert.equal(await plain.page.getByTestId('partial-mark').textContent(), '');
    } finally {
      await plain.close();
    }
  });
}

test("the status bar's headline latency is the side panel's headline value, in the same words", async () => {
  // A last stage's first output p50 of 33.7 s (not "33,725 ms" in one place and "33.7 s" in the other).
  const omni = importedSessionOfLog(fs.readFileSync(OMNI_LOG), 'import-omni', 'omni.log (imported)');
  const side = await harness.open('sidePanel', { width: 900, height: 640 }, new FakeHost(omni));
  try {
    await side.page.waitForSelector('[data-testid="stage-row"]');
    const value = side.page.getByTestId('trend-value');
    await side.page.waitForFunction(`document.querySelector('[data-testid="trend-value"]')?.textContent !== '—'`);
    const shown = (await value.textContent()) ?? '';
    assert.equal(shown, '33.7 s');
    assert.equal(statusHeadline(omni.summary), `1st output p50 ${shown}`);
  } finally {
    await side.close();
  }
});
