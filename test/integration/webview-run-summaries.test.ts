// A session whose log has a run summary vLLM-Omni printed itself (a real public paste of the
// December 2025 single-line summary dict, cut off mid-dict, and no request; omni.py's [Summary]
// after a request's dict), in the built side panel and Latency Details in headless Chromium:
// both show the dict's numbers as the server printed them, under the log's names, with where they come from and that the values after the
// cut are unknown, not 0. A summary with a key printed as None and a hostile key name shows the
// None as a row that says not measured (never 0, never no row) and the name as text.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { REPO_ROOT, WebviewHarness } from '../fixtures/webview/browserHarness';
import type { SyntheticSession } from '../fixtures/webview/syntheticSession';
import { FakeHost } from '../fixtures/webview/fakeHost';
import { importedSessionOfLog } from '../fixtures/webview/logSession';

const LOG = path.join(REPO_ROOT, 'test/fixtures/real-logs/14-issue533-legacy-summary-dict.log');
/** omni.py's [Summary] (3 requests) after one request's request_level_metrics dict. */
const OMNI_SUMMARY_LOG = path.join(REPO_ROOT, 'test/fixtures/real-logs/08-pr500-legacy-omni-summary.log');
/** omni.py's [Summary] dict with values printed as None and a nan. */
const NONE_LOG = path.join(REPO_ROOT, 'test/fixtures/logs/legacy-summary-none.log');
/** Two runs' [Summary] dicts: every stage listed, then (the latest) a list without stage 1. */
const TWO_RUNS_LOG = path.join(REPO_ROOT, 'test/fixtures/logs/qwen3-omni-legacy-summaries-two-runs.log');
const SHOTS = path.join(REPO_ROOT, 'test-output/webview');
const HOSTILE_KEY = '<img src=x onerror=alert(1)>_ms';

const sessionOfLog = (log: Buffer, id: string): SyntheticSession => importedSessionOfLog(log, id);

/** Each row of the run summary's table as `field | value`. */
async function rowsOf(page: Page): Promise<string[]> {
  return (await page.evaluate(
    `[...document.querySelectorAll('[data-testid="run-summary-row"]')].map((tr) => [...tr.children].map((c) => c.textContent).join(' | '))`,
  )) as string[];
}

let data: SyntheticSession;
let harness: WebviewHarness;

before(async () => {
  data = sessionOfLog(fs.readFileSync(LOG), 'issue533');
  harness = await WebviewHarness.start(data);
  fs.mkdirSync(SHOTS, { recursive: true });
});

after(async () => {
  await harness?.close();
});

const SOURCE =
  "From the single-line summary dict (vLLM-Omni, December 2025) at line 2, as printed: the run's figures, not any one request's.";

test('the side panel shows the summary dict as the server printed it, with its source and its cut', async () => {
  const view = await harness.open('sidePanel', { width: 420, height: 900 });
  try {
    const page = view.page;
    const section = page.getByTestId('run-summary');
    await section.waitFor();
    assert.equal(await section.getAttribute('open'), '', 'open: it is all this log has');
    assert.equal(await page.getByTestId('run-summary-heading').textContent(), 'Run summary as the server printed it');
    assert.equal(await page.getByTestId('run-summary-source').textContent(), SOURCE);
    assert.equal(await page.getByTestId('run-summary-which').isVisible(), false);
    assert.equal(
      await page.getByTestId('run-summary-cut-off').textContent(),
      'It was cut off: the values after the cut are unknown, not 0.',
    );
    const rows = await rowsOf(page);
    assert.equal(rows.length, 46);
    assert.deepEqual(rows.slice(0, 8), [
      'e2e_requests | 1',
      'e2e_total_time_ms | 497,714.531 ms',
      'e2e_sum_time_ms | 497,714.205 ms',
      'e2e_total_tokens | 0',
      'e2e_avg_time_per_request_ms | 497,714.205 ms',
      'e2e_avg_tokens_per_s | 0.000',
      'wall_time_ms | 497,714.531 ms',
      'final_stage_id | 2',
    ]);
    assert.ok(rows.includes('stages.1.total_time_ms | 438,871.449 ms'));
    assert.ok(rows.includes('transfers.0.total_bytes | 39,589,010'));
    // The last value read before the cut; the keys after it have no row (unknown, not 0).
    assert.equal(rows[rows.length - 1], 'transfers.1.rx_samples | 1');
    assert.equal(rows.filter((r) => r.startsWith('transfers.1.rx_total_bytes')).length, 0);
    assert.equal(
      await page.locator('[data-testid="run-summary-row"]').nth(1).getAttribute('title'),
      'e2e_total_time_ms = 497714.5309448242, as the server printed it at line 2',
    );
    // No request: the panel still says why, beside what the server summarized.
    assert.equal(await page.getByTestId('no-stage-stats').isVisible(), true);
    assert.equal(await page.getByTestId('waiting').isVisible(), false);
    // Nothing more will come: no sparkline saying "no headline latency yet".
    assert.equal(await page.getByText('no headline latency yet').isVisible(), false);
    assert.equal(await page.getByTestId('trend').isVisible(), false);
    await page.screenshot({ path: path.join(SHOTS, 'side-panel-run-summary.png'), fullPage: true });
  } finally {
    await view.close();
  }
});

test('Latency Details shows the same summary above its views, open when the log has no request', async () => {
  const view = await harness.open('latencyPanel', { width: 1000, height: 700 });
  try {
    const page = view.page;
    const section = page.getByTestId('run-summary');
    await section.waitFor();
    await page.getByTestId('run-summary-table').waitFor();
    assert.equal(await section.getAttribute('open'), '');
    assert.equal(await page.getByTestId('run-summary-heading').textContent(), 'Run summary as the server printed it');
    assert.equal(await page.getByTestId('run-summary-source').textContent(), SOURCE);
    const rows = await rowsOf(page);
    assert.equal(rows.length, 46);
    assert.equal(rows[1], 'e2e_total_time_ms | 497,714.531 ms');
    await page.screenshot({ path: path.join(SHOTS, 'latency-panel-run-summary.png') });
  } finally {
    await view.close();
  }
  // Beside a request read from its own dict: closed over the request table, one click away.
  const withRequest = sessionOfLog(fs.readFileSync(OMNI_SUMMARY_LOG), 'pr500');
  assert.equal(withRequest.requests.length, 1);
  const details = await harness.open('latencyPanel', { width: 1000, height: 700 }, new FakeHost(withRequest));
  try {
    const page = details.page;
    const section = page.getByTestId('run-summary');
    await section.waitFor();
    assert.equal(await section.getAttribute('open'), null);
    await page.getByTestId('run-summary-heading').click();
    await page.getByTestId('run-summary-table').waitFor();
    assert.equal(
      await page.getByTestId('run-summary-source').textContent(),
      "From omni.py's [Summary] dict (vLLM-Omni before February 2026) at line 11, as printed: the run's figures, not any one request's.",
    );
    assert.deepEqual(await rowsOf(page), [
      'e2e_requests | 3',
      'e2e_total_time_ms | 655,866.803 ms',
      'e2e_sum_time_ms | 1,967,503.714 ms',
      'e2e_total_tokens | 0',
      'e2e_avg_time_per_request_ms | 655,834.571 ms',
      'e2e_avg_tokens_per_s | 0.000',
      'wall_time_ms | 655,866.803 ms',
    ]);
  } finally {
    await details.close();
  }
});

test('a key printed as None has a row saying not measured; a hostile key name is text; several summaries say which is shown', async () => {
  const log = Buffer.from(
    [
      "{'e2e_requests': 1, 'wall_time_ms': 10.5}",
      `{'e2e_requests': 2, '${HOSTILE_KEY}': 1.5, 'e2e_total_time_ms': None, 'wall_time_ms': 12.25}`,
      '',
    ].join('\n'),
  );
  const hostile = sessionOfLog(log, 'hostile');
  const view = await harness.open('sidePanel', { width: 420, height: 700 }, new FakeHost(hostile));
  try {
    const page = view.page;
    await page.getByTestId('run-summary-table').waitFor();
    assert.deepEqual(await rowsOf(page), [
      'e2e_requests | 2',
      `${HOSTILE_KEY} | 1.500 ms`,
      'e2e_total_time_ms | not measured (None)',
      'wall_time_ms | 12.250 ms',
    ]);
    const none = page.locator('[data-testid="run-summary-row"]').nth(2);
    assert.equal(await none.locator('td').isVisible(), true);
    assert.equal(await none.locator('td').getAttribute('data-state'), 'notMeasured');
    assert.equal(await none.getAttribute('title'), 'e2e_total_time_ms = None, as the server printed it at line 2');
    assert.equal(await page.locator('[data-testid="run-summary"] img').count(), 0);
    assert.equal(
      await page.getByTestId('run-summary-source').textContent(),
      "From the single-line summary dict (vLLM-Omni, December 2025) at line 2, as printed: the run's figures, not any one request's.",
    );
    assert.equal(
      await page.getByTestId('run-summary-which').textContent(),
      'The latest of 2 run summaries in the log; the earlier ones below, latest first.',
    );
    assert.equal(await page.getByTestId('run-summary-cut-off').isVisible(), false);
  } finally {
    await view.close();
  }
});

test('the fixture with None and nan in its [Summary]: both panels show a not-measured row, never 0, and the nan as printed', async () => {
  const withNone = sessionOfLog(fs.readFileSync(NONE_LOG), 'none');
  for (const [panel, width] of [
    ['sidePanel', 280],
    ['latencyPanel', 1000],
  ] as const) {
    const view = await harness.open(panel, { width, height: 900 }, new FakeHost(withNone));
    try {
      const page = view.page;
      const section = page.getByTestId('run-summary');
      await section.waitFor();
      if ((await section.getAttribute('open')) === null) await page.getByTestId('run-summary-heading').click();
      await page.getByTestId('run-summary-table').waitFor();
      const rows = await rowsOf(page);
      assert.ok(rows.includes('e2e_avg_tokens_per_s | not measured (None)'), `${panel}: ${rows.join('\n')}`);
      assert.ok(rows.includes('stages.1.total_time_ms | not measured (None)'));
      assert.ok(rows.includes('stages.1.avg_time_per_request_ms | not measured (None)'));
      assert.ok(rows.includes('stages.1.avg_tokens_per_s | nan'));
      assert.ok(rows.includes('stages.0.total_time_ms | 812.346 ms'));
      assert.equal(rows.filter((r) => r.startsWith('final_stage_id')).length, 0);
      const cell = page.locator('[data-testid="run-summary-row"]', { hasText: 'e2e_avg_tokens_per_s' }).locator('td');
      assert.equal(await cell.innerText(), 'not measured (None)', 'shown, not only in a hover');
      // The words fit the side bar's narrowest width: the cell is inside the panel.
      const box = await cell.boundingBox();
      assert.ok(box !== null && box.x + box.width <= width, `${panel}: ${JSON.stringify(box)}`);
      await page.screenshot({ path: path.join(SHOTS, `${panel}-run-summary-none.png`), fullPage: true });
    } finally {
      await view.close();
    }
  }
});

test("at the side bar's narrow width a field name wraps after a dot or underscore, never inside a word", async () => {
  const view = await harness.open('sidePanel', { width: 280, height: 900 });
  try {
    const page = view.page;
    await page.getByTestId('run-summary-table').waitFor();
    // Each name's characters that start a new line, with the one before: `_|request` is a break
    // between words, `total_time_m|s` one inside a word.
    const breaks =
      (await page.evaluate(`[...document.querySelectorAll('[data-testid="run-summary-row"] th')].flatMap((th) => {
      const text = th.textContent;
      const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
      const chars = [];
      for (let t = walker.nextNode(); t !== null; t = walker.nextNode())
        for (let i = 0; i < t.data.length; i++) {
          const r = document.createRange();
          r.setStart(t, i);
          r.setEnd(t, i + 1);
          chars.push(r.getBoundingClientRect().top);
        }
      const out = [];
      for (let i = 1; i < chars.length; i++) if (chars[i] > chars[i - 1] + 2) out.push(text.slice(0, i) + '|' + text.slice(i));
      return out;
    })`)) as string[];
    assert.ok(breaks.length > 0, 'some names are wider than the column and wrap');
    const inside = breaks.filter((b) => !/[._]\|/.test(b));
    assert.deepEqual(inside, [], breaks.join('\n'));
    assert.ok(breaks.includes('stages.0.avg_time_per_|request_ms'), breaks.join('\n'));
  } finally {
    await view.close();
  }
});

test('a log of two runs: the latest summary with its stages entries named by stage_id, the earlier one collapsed below', async () => {
  const twoRuns: SyntheticSession = {
    ...sessionOfLog(fs.readFileSync(TWO_RUNS_LOG), 'two-runs'),
    stageNames: { '0': 'thinker', '1': 'talker', '2': 'code2wav' },
  };
  for (const [panel, width] of [
    ['sidePanel', 420],
    ['latencyPanel', 1000],
  ] as const) {
    const view = await harness.open(panel, { width, height: 900 }, new FakeHost(twoRuns));
    try {
      const page = view.page;
      await page.getByTestId('run-summary-table').waitFor();
      assert.match((await page.getByTestId('run-summary-source').textContent()) ?? '', / at line 54, as printed/);
      assert.equal(
        await page.getByTestId('run-summary-which').textContent(),
        'The latest of 2 run summaries in the log; the earlier ones below, latest first.',
      );
      // The latest's list skips stage 1: its stages.1 is stage 2, said above its values.
      const headings = page.locator('[data-testid="run-summary-table"] [data-testid="run-summary-stage"]');
      assert.deepEqual(await headings.allTextContents(), [
        'stages.0 is stage 0 · thinker',
        'stages.1 is stage 2 · code2wav',
      ]);
      assert.equal(
        await page
          .locator('[data-testid="run-summary-row"]', { hasText: 'stages.1.total_time_ms' })
          .getAttribute('title'),
        'stages.1.total_time_ms = None (stage 2 · code2wav), as the server printed it at line 54, 12-27 22:07:41',
      );
      // The earlier run: one closed section with its line and time, its numbers inside.
      const earlier = page.getByTestId('run-summary-earlier');
      assert.equal(await earlier.count(), 1);
      assert.equal(await earlier.getAttribute('open'), null);
      assert.equal(
        await page.getByTestId('run-summary-earlier-heading').textContent(),
        "line 2, 12-27 22:03:23 · omni.py's [Summary] dict (vLLM-Omni before February 2026)",
      );
      const earlierTotal = earlier.locator('[data-testid="run-summary-earlier-row"]', {
        hasText: 'stages.1.total_time_ms',
      });
      assert.equal(await earlierTotal.isVisible(), false);
      await page.getByTestId('run-summary-earlier-heading').click();
      assert.equal(await earlierTotal.locator('td').innerText(), '2,301.750 ms');
      assert.deepEqual(await earlier.getByTestId('run-summary-stage').allTextContents(), [
        'stages.0 is stage 0 · thinker',
        'stages.1 is stage 1 · talker',
        'stages.2 is stage 2 · code2wav',
        'transfers.0 is edge 0 → 1 · thinker → talker',
        'transfers.1 is edge 1 → 2 · talker → code2wav',
      ]);
      // The latest's own rows are its own: the earlier summary's are not among them.
      assert.equal(await page.locator('[data-testid="run-summary-row"]').count(), 19);
      await page.screenshot({ path: path.join(SHOTS, `${panel}-run-summaries-two-runs.png`), fullPage: true });
    } finally {
      await view.close();
    }
  }
});
