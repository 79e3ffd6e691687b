// The Tail tab of Latency Details for a session without a request (built bundle in headless
// Chromium, fed through the core's own analysis): no empty target select, quantiles or load at
// arrival, but what is missing and why, as the request table says it: the server has not finished
// a request yet (a running session), or the log had no per-request stage tables (an ended one).
// A session with requests keeps its controls.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { REPO_ROOT, WebviewHarness, waitUntil } from '../fixtures/webview/browserHarness';
import { FakeHost } from '../fixtures/webview/fakeHost';
import type { WebviewPage } from '../fixtures/webview/browserHarness';
import { sessionOfLog } from '../fixtures/webview/logSession';
import type { SyntheticSession } from '../fixtures/webview/syntheticSession';
import type { SessionStatus } from '../../server/protocol';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-tail-empty-'));
const EMPTY = path.join(dir, 'empty.log');
// INFO-level lines only: the server ran without --log-stats (no stage table, so no request).
const NO_TABLES = path.join(dir, 'no-tables.log');
fs.writeFileSync(EMPTY, '');
fs.writeFileSync(
  NO_TABLES,
  [
    'INFO 10-19 07:12:01 [api_server.py:1] Starting vLLM-Omni API server',
    'INFO 10-19 07:12:02 [launcher.py:2] Route: /v1/audio/speech, Methods: POST',
    '',
  ].join('\n'),
);
const NO_STATS =
  'No tail to explain: the session has no request. No per-request stage statistics found. vLLM-Omni prints them with --log-stats; its stats tables need VLLM_LOGGING_LEVEL=DEBUG.';

let harness: WebviewHarness;

before(async () => {
  harness = await WebviewHarness.start(sessionOfLog(EMPTY));
});

after(async () => {
  await harness?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function withStatus(data: SyntheticSession, status: SessionStatus): SyntheticSession {
  return { ...data, session: { ...data.session, status } };
}

async function openTail(data: SyntheticSession): Promise<WebviewPage> {
  const view = await harness.open('latencyPanel', { width: 1000, height: 600 }, new FakeHost(data));
  await view.page.getByTestId('tab-tail').click();
  await waitUntil(view.page, `window.__posted.some((m) => m.type === 'queryTail')`);
  return view;
}

/** What the tab shows: its empty message (null when hidden) and whether the target select and load at arrival are visible. */
async function tailShows(view: WebviewPage): Promise<{ empty: string | null; select: boolean; load: boolean }> {
  return view.page.evaluate(`(() => {
    const empty = document.querySelector('[data-testid="tail-empty"]');
    const visible = (id) => document.querySelector('[data-testid="' + id + '"]').checkVisibility();
    return {
      empty: empty.checkVisibility() ? empty.innerText : null,
      select: visible('tail-target'),
      load: visible('load-at-arrival'),
    };
  })()`);
}

async function settled(view: WebviewPage): Promise<void> {
  await waitUntil(
    view.page,
    `document.querySelector('[data-testid="tail-empty"]').checkVisibility() || document.querySelector('[data-testid="tail-target"]').options.length > 0`,
  );
}

test('an ended session whose log had no request tables: the Tail tab says so instead of an empty target select', async () => {
  for (const log of [EMPTY, NO_TABLES]) {
    const data = sessionOfLog(log);
    assert.equal(data.summary.requestCount, 0);
    const view = await openTail(withStatus(data, 'stopped'));
    try {
      await settled(view);
      assert.deepEqual(await tailShows(view), { empty: NO_STATS, select: false, load: false }, log);
      assert.equal(await view.page.getByTestId('tail-empty').getAttribute('role'), 'status');
    } finally {
      await view.close();
    }
  }
});

test('a running session that has not finished a request yet: the Tail tab says the tail comes with the first requests', async () => {
  const view = await openTail(withStatus(sessionOfLog(EMPTY), 'running'));
  try {
    await settled(view);
    assert.deepEqual(await tailShows(view), {
      empty:
        'No request has completed yet, so there is no tail to explain. It appears here as the server finishes requests (a request counts once its stage tables are printed).',
      select: false,
      load: false,
    });
  } finally {
    await view.close();
  }
});

test('a session with requests keeps its target select and load at arrival, with no empty message', async () => {
  const data = sessionOfLog(path.join(REPO_ROOT, 'test/fixtures/logs/qwen3tts-one-request.log'));
  assert.equal(data.summary.requestCount, 1);
  const view = await openTail(data);
  try {
    await settled(view);
    const shown = await tailShows(view);
    assert.deepEqual(shown, { empty: null, select: true, load: true });
    assert.ok((await view.page.getByTestId('tail-target').locator('option').count()) > 0);
  } finally {
    await view.close();
  }
});
