// A session of two server boots that served different pipelines (the upstream-rendered Qwen3-TTS
// log, then the Qwen3-Omni one, appended after a restart) in the built side panel and Latency
// Details in headless Chromium, answered as the language server answers (the summary over every
// boot, and over one boot as `analyze --boot` reads it): a notice above the stage rows names each
// boot's pipeline and says what the pooled numbers mean; picking a boot asks the host for that
// boot's numbers and shows them, saying what was left out.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { importedSessionOfLog, importedSummaryOfLog } from '../fixtures/webview/logSession';
import { FakeHost } from '../fixtures/webview/fakeHost';
import { sidewaysOverflow, waitUntil, WebviewHarness } from '../fixtures/webview/browserHarness';
import { bootsLog } from './support/bootLog';

const TTS_MODEL = 'Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice';
const OMNI_MODEL = 'Qwen/Qwen3-Omni-30B-A3B-Instruct';
const LOG = Buffer.from(
  bootsLog([
    { model: TTS_MODEL, fixture: 'qwen3tts-talker-first-audio-after-fix.log' },
    { model: OMNI_MODEL, fixture: 'qwen3-omni-three-stage-transfers.log' },
  ]),
);
const ID = 'two-boots';
const session = importedSessionOfLog(LOG, ID, 'server.log (imported)');
const summaryOfBoot = (boot: number | null) => importedSummaryOfLog(LOG, ID, boot ?? undefined);

let harness: WebviewHarness;
before(async () => {
  harness = await WebviewHarness.start(session);
});
after(async () => {
  await harness?.close();
});

const PIPELINES = [
  `boot 1 (6 requests, ${TTS_MODEL}): stages 0 llm → latent, 1 llm → audio`,
  `boot 2 (3 requests, ${OMNI_MODEL}): stages 0 llm → text, 1 llm → latent, 2 llm → audio`,
];

/** Per stage row: its key and first output cell, as shown. */
const FIRST_OUTPUTS = `[...document.querySelectorAll('[data-testid="stage-row"]')].map((tr) => tr.dataset.stageKey + ' ' + tr.querySelector('td[data-col="field:serving_time_to_first_output_ms"] .v').textContent)`;

test('side panel: the boots named above the stage rows; a boot picked shows its numbers only', async () => {
  const view = await harness.open('sidePanel', { width: 420, height: 900 }, new FakeHost(session, { summaryOfBoot }));
  try {
    const page = view.page;
    const boots = page.getByTestId('boots');
    await boots.waitFor();
    assert.equal(await boots.getAttribute('data-differ'), 'true');
    assert.deepEqual(await page.getByTestId('boots-pipelines').locator('li').allTextContents(), PIPELINES);
    assert.equal(
      await page.getByTestId('boots-note').textContent(),
      "Numbers over all boots pool each stage id over every boot, so a stage's percentiles mix different stages (and models) and describe none of them.",
    );
    assert.deepEqual(await page.getByTestId('boot-pick').locator('option').allTextContents(), [
      'All boots (9 requests)',
      `boot 1 · 6 requests · ${TTS_MODEL}`,
      `boot 2 · 3 requests · ${OMNI_MODEL}`,
    ]);
    assert.equal(await page.getByTestId('boot-pick').inputValue(), 'all');
    // Where the numbers are: above the stage rows, not under them with the findings.
    const top = async (selector: string) => (await page.locator(selector).first().boundingBox())?.y ?? Number.NaN;
    assert.ok((await top('[data-testid="boots"]')) < (await top('[data-testid="stage-row"]')));
    // Pooled (analyze without --boot): stage 1's first output p50 is 126 ms, the TTS codec's and the Omni talker's mixed.
    assert.deepEqual(await page.evaluate(FIRST_OUTPUTS), ['0 615', '1 126', '2 33,725']);

    await page.getByTestId('boot-pick').selectOption('2');
    await waitUntil(page, `document.querySelector('[data-testid="boots-note"]').textContent.startsWith('Boot 2')`);
    assert.deepEqual(
      (await view.posted()).filter((m) => m.type === 'selectBoot'),
      [{ type: 'selectBoot', sessionId: ID, boot: 2 }],
    );
    assert.equal(
      await page.getByTestId('boots-note').textContent(),
      'Boot 2: the requests of server boot 2 only; 6 requests of boot 1 left out.',
    );
    // analyze --boot 2: stage 0 460.5, stage 1 8,209.607, stage 2 33,724.85 ms.
    assert.deepEqual(await page.evaluate(FIRST_OUTPUTS), ['0 461', '1 8,210', '2 33,725']);
    assert.equal(await page.getByTestId('session-meta').textContent(), 'imported · 3 requests');
    // One boot served one pipeline: its own findings have no boots-differ warning.
    assert.doesNotMatch((await page.getByTestId('live').textContent()) ?? '', /served 2 different pipelines/);

    // The pick is kept: a reload asks the host for boot 2 again.
    await page.reload();
    await waitUntil(page, `document.querySelector('[data-testid="boots-note"]')?.textContent.startsWith('Boot 2')`);
    assert.equal(await page.getByTestId('boot-pick').inputValue(), '2');
    assert.deepEqual(await page.evaluate(FIRST_OUTPUTS), ['0 461', '1 8,210', '2 33,725']);

    await page.getByTestId('boot-pick').selectOption('all');
    await waitUntil(
      page,
      `document.querySelector('[data-testid="boots-note"]').textContent.startsWith('Numbers over all boots')`,
    );
    assert.deepEqual(await page.evaluate(FIRST_OUTPUTS), ['0 615', '1 126', '2 33,725']);
  } finally {
    await view.close();
  }
});

test('side panel at its narrowest: the boots notice and the pick stay inside it', async () => {
  const view = await harness.open('sidePanel', { width: 190, height: 900 }, new FakeHost(session, { summaryOfBoot }));
  try {
    const page = view.page;
    await page.getByTestId('boots').waitFor();
    await page.getByTestId('boot-pick').selectOption('1');
    await waitUntil(page, `document.querySelector('[data-testid="boots-note"]').textContent.startsWith('Boot 1')`);
    const overflow = await sidewaysOverflow(page, '[data-testid="boots"]');
    assert.deepEqual(overflow.outside, []);
    assert.ok(overflow.scrollWidth <= overflow.clientWidth, JSON.stringify(overflow));
  } finally {
    await view.close();
  }
});

test('Latency Details: a boot picked is the scope of every view, its requests only', async () => {
  const view = await harness.open(
    'latencyPanel',
    { width: 1200, height: 800 },
    new FakeHost(session, { summaryOfBoot }),
  );
  try {
    const page = view.page;
    await page.getByTestId('boots').waitFor();
    assert.deepEqual(await page.getByTestId('boots-pipelines').locator('li').allTextContents(), PIPELINES);
    const total = `document.querySelector('[data-testid="request-total"]').dataset.total`;
    await waitUntil(page, `${total} === '9'`);

    await page.getByTestId('boot-pick').selectOption('1');
    await waitUntil(page, `${total} === '6'`);
    await waitUntil(page, `document.querySelector('[data-testid="boots-note"]').textContent.startsWith('Boot 1')`);
    const posted = await view.posted();
    assert.deepEqual(
      posted.filter((m) => m.type === 'selectBoot'),
      [{ type: 'selectBoot', sessionId: ID, boot: 1 }],
    );
    const pages = posted.filter((m) => m.type === 'queryRequests');
    assert.deepEqual(pages.at(-1)?.type === 'queryRequests' ? pages.at(-1)?.params.scope : null, { boot: 1 });
    // The ids are boot 1's, as analyze --boot 1 lists them.
    // The table's row slots that hold a request (the rest are empty, recycled).
    const boot1 = session.requests
      .filter((r) => r.boot === 1)
      .map((r) => r.requestId)
      .sort();
    // The rows are drawn once the page of requests arrives, after the total: wait for them.
    await waitUntil(
      page,
      `[...document.querySelectorAll('[data-testid="request-id"]')].filter((e) => e.textContent !== '').length === ${boot1.length}`,
    );
    const ids = (await page.getByTestId('request-id').allTextContents()).filter((t) => t !== '').sort();
    assert.deepEqual(ids, boot1);
    assert.equal(
      await page.getByTestId('boots-note').textContent(),
      'Boot 1: the requests of server boot 1 only; 3 requests of boot 2 left out.',
    );

    // The Each request chart is of boot 1 too, asked of the host with the scope, and says so.
    await page.getByTestId('tab-spans').click();
    const chart = `document.querySelector('[data-testid="spans-canvas"]')`;
    const scopeText = `document.querySelector('[data-testid="spans-scope"]').textContent`;
    await waitUntil(page, `${chart}.dataset.count === '6' && ${chart}.dataset.visible === '6'`);
    const lastSpansScope = async () => {
      const asked = (await view.posted()).filter((m) => m.type === 'querySpans').at(-1);
      return asked?.type === 'querySpans' ? asked.scope : null;
    };
    assert.deepEqual(await lastSpansScope(), { boot: 1 });
    assert.equal(await page.getByTestId('spans-scope').textContent(), '6 of 9 requests: boot 1');
    // The Over time chart above it too: asked with the boot, it says so, and its axis spans boot
    // 1's requests (seconds), not the log's (boot 2 is days later).
    const overTimeScope = `document.querySelector('[data-testid="overtime-scope"]').textContent`;
    const lastOverTimeParams = async () => {
      const asked = (await view.posted()).filter((m) => m.type === 'queryOverTime').at(-1);
      return asked?.type === 'queryOverTime' ? asked.params : null;
    };
    // The scope is said when the series arrives; its axis is drawn a frame later.
    await waitUntil(
      page,
      `${overTimeScope} === '6 of 9 requests: boot 1' && document.querySelector('[data-testid="overtime-canvas"]').dataset.t0 !== undefined`,
    );
    assert.deepEqual(await lastOverTimeParams(), { scope: { boot: 1 } });
    const overTimeAxis = `(() => { const d = document.querySelector('[data-testid="overtime-canvas"]').dataset; return Number(d.t1) - Number(d.t0); })()`;
    const axisMs = (await page.evaluate(overTimeAxis)) as number;
    assert.ok(axisMs > 0 && axisMs < 60_000, `the Over time axis spans ${axisMs} ms`);
    // Cold left out: boot 1's first request is not drawn.
    await page.getByTestId('exclude-cold').check();
    await waitUntil(
      page,
      `${chart}.dataset.count === '5' && ${scopeText} === '5 of 9 requests: boot 1 · cold left out'`,
    );
    assert.deepEqual(await lastSpansScope(), { excludeCold: true, boot: 1 });
    await waitUntil(page, `${overTimeScope} === '5 of 9 requests: boot 1 · cold left out'`);
    assert.deepEqual(await lastOverTimeParams(), { scope: { excludeCold: true, boot: 1 } });
    // Every boot again, cold still left out: each boot's first request is not drawn.
    await page.getByTestId('boot-pick').selectOption('all');
    await waitUntil(page, `${chart}.dataset.count === '7' && ${scopeText} === '7 of 9 requests: cold left out'`);
    await waitUntil(page, `${overTimeScope} === '7 of 9 requests: cold left out'`);
    await page.getByTestId('exclude-cold').uncheck();
    await waitUntil(page, `${chart}.dataset.count === '9' && ${scopeText} === 'Every request of the session (9)'`);
    await waitUntil(page, `${overTimeScope} === 'Every request of the session (9)'`);
    assert.deepEqual(await lastOverTimeParams(), {});
  } finally {
    await view.close();
  }
});
