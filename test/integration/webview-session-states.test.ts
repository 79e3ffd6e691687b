// Sessions coming and ending under the built webviews in headless Chromium (real HTML shell,
// strict CSP), fed by the fake host with sessions read from files by the core: Latency Details
// opened with no session (a code lens clicked before any capture) drops the host's "No session
// is open." once a session arrives; an import that ended with no per-request stage statistics
// (a YAML file, a compressed log) says why, in the CLI's words, instead of waiting for a request.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { LogStreamParser } from '../../server/core/log';
import { StreamAnalysis } from '../../server/core/analysis/streamAnalysis';
import { NO_STAGE_STATS_TEXT } from '../../server/core/analysis/noStageStats';
import type { SessionStatus, SummaryResult } from '../../server/protocol';
import { REPO_ROOT, WebviewHarness, waitUntil } from '../fixtures/webview/browserHarness';
import { FakeHost } from '../fixtures/webview/fakeHost';
import { sessionOfLog } from '../fixtures/webview/logSession';
import type { SyntheticSession } from '../fixtures/webview/syntheticSession';
import { spansOf } from '../fixtures/webview/syntheticSession';
import { parseExposition } from '../../server/core/metricsText';
import { histogramSummariesOf } from '../../server/core/metricsText/scrapeSummary';
import { METRICS_ONLY_TEXT } from '../../webview/shared/scrapeRequests';
import { statusBarWords } from '../../webview/shared/sessionStatus';
import { HEALTHY_SCRAPE } from '../unit/support/scrapeFixtures';

const LOG = path.join(REPO_ROOT, 'test/fixtures/upstream-rendered/qwen3tts-talker-first-audio-before-fix.log');
const YAML = path.join(REPO_ROOT, 'test/fixtures/deploy/qwen3_omni_moe.yaml');
const DEBUG_NO_TABLES = path.join(REPO_ROOT, 'test/fixtures/real-logs/10-pr1463-debug-stage-prefix.log');

/** An import of `bytes` read whole, its summary as the language server's sessionSummary makes it. */
function importOf(bytes: Buffer, file: string, status: SessionStatus): SyntheticSession {
  const analysis = new StreamAnalysis();
  const parser = new LogStreamParser();
  analysis.ingest(parser.push(bytes));
  analysis.ingest(parser.end());
  analysis.flush();
  const live = analysis.summary();
  const requests = [...analysis.requests];
  const id = `import-${path.basename(file)}`;
  const summary: SummaryResult = {
    sessionId: id,
    requestCount: requests.length,
    stages: live.stages,
    findings: live.findings,
    histograms: [],
    prometheus: null,
    endToEnd: live.endToEnd,
    tablesMissing: live.tablesMissing,
    overallSummaries: live.overallSummaries,
    edges: live.edges,
    debugLines: live.debugLines,
  };
  return {
    session: {
      id,
      kind: 'import',
      description: file,
      startedAt: Date.UTC(2026, 11, 4),
      status,
      requestCount: requests.length,
      deployConfig: null,
      lastError: null,
      exit: null,
      problemCount: 0,
      title: path.basename(file),
    },
    stageNames: {},
    requests,
    summary,
    spans: spansOf(requests),
  };
}

let harness: WebviewHarness;
let tmp: string;

before(async () => {
  harness = await WebviewHarness.start(sessionOfLog(LOG));
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-states-'));
});

after(async () => {
  await harness?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('Latency Details opened before any session', () => {
  test('the host\'s "No session is open." goes when a session arrives, and stays gone across switches', async () => {
    const data = sessionOfLog(LOG);
    const host = new FakeHost(data);
    const view = await harness.open('latencyPanel', { width: 1000, height: 600 }, host);
    try {
      const page = view.page;
      // As the host shows it with no session: the empty state; then the code lens's filter,
      // whose page query the host answers with an error.
      await view.dispatch({ type: 'session', session: null, stageNames: {} });
      await waitUntil(page, `!document.querySelector('[data-testid="empty-state"]').hidden`);
      await view.dispatch({ type: 'filter', filter: { stageId: 0 } });
      await view.dispatch({ type: 'error', message: 'No session is open.' });
      const error = page.getByTestId('error');
      // Kept (hidden with the empty state's page) until a session is shown.
      assert.equal(await page.evaluate(`document.querySelector('[data-testid="error"]').hidden`), false);
      assert.equal(await error.textContent(), 'No session is open.');
      // The user imports a log.
      for (const m of host.show(data)) await view.dispatch(m);
      await waitUntil(page, `document.querySelector('[data-testid="request-total"]')?.dataset.total === '6'`);
      assert.equal(await page.getByTestId('session-title').textContent(), data.session.title);
      assert.equal(await error.isVisible(), false, 'the error of no session stays over a loaded session');
      // A later error about this session shows; switching to another session drops it.
      await view.dispatch({ type: 'error', message: 'queryRequests failed: boom' });
      assert.equal(await error.isVisible(), true);
      const other = sessionOfLog(LOG, { id: 'import-other' });
      for (const m of host.show(other)) await view.dispatch(m);
      await waitUntil(page, `document.querySelector('[data-testid="request-total"]')?.dataset.total === '6'`);
      assert.equal(await error.isVisible(), false);
    } finally {
      await view.close();
    }
  });
});

describe('an import that ended with no per-request stage statistics', () => {
  const cases = [
    {
      name: 'a deploy YAML imported as a log',
      file: YAML,
      bytes: () => fs.readFileSync(YAML),
      text: 'No per-request stage statistics: the input is a deploy config (YAML), not a server log (see Findings).',
    },
    {
      // zstd: Node has no decoder for it (a gzip log is read as the log inside).
      name: 'a zstd-compressed log',
      file: `${LOG}.zst`,
      bytes: () => Buffer.concat([Buffer.from([0x28, 0xb5, 0x2f, 0xfd]), Buffer.alloc(200, 7)]),
      text: 'No per-request stage statistics: the input is a compressed file, not a text log (see Findings).',
    },
    {
      // A file whose space was reserved and never written: zeros only.
      name: 'a zero-filled file',
      file: 'preallocated.log',
      bytes: () => Buffer.alloc(50_000),
      text: 'No per-request stage statistics: the input is NUL bytes only (a zero-filled file), no text (see Findings).',
    },
    {
      // A server at VLLM_LOGGING_LEVEL=DEBUG without --log-stats: the level is there, the flag is not.
      name: 'a DEBUG log with no stats table (real-logs 10)',
      file: DEBUG_NO_TABLES,
      bytes: () => {
        const text = fs.readFileSync(DEBUG_NO_TABLES, 'utf8');
        return Buffer.from(text.slice(text.indexOf('\n') + 1));
      },
      text: 'No per-request stage statistics found. vLLM-Omni prints them with --log-stats, at VLLM_LOGGING_LEVEL=DEBUG; this log has DEBUG lines, so the server already logs at DEBUG: what is missing is --log-stats.',
    },
    {
      name: 'an INFO-only log with no stats table',
      file: 'info-only.log',
      bytes: () =>
        Buffer.from(
          'INFO 03-02 10:00:00 [api_server.py:1888] vLLM API server version 0.11.0\n' +
            '(APIServer pid=7) INFO 03-02 10:00:01 [omni.py:463] [Orchestrator] All stages initialized successfully\n',
        ),
      text: NO_STAGE_STATS_TEXT,
    },
  ];
  for (const c of cases) {
    test(`${c.name}: the side panel and the table say why, not "waiting" nor "No requests yet"`, async () => {
      const data = importOf(c.bytes(), c.file, 'exited');
      assert.equal(data.requests.length, 0);
      const side = await harness.open('sidePanel', { width: 300, height: 700 }, new FakeHost(data));
      try {
        const page = side.page;
        await waitUntil(
          page,
          `document.querySelector('[data-testid="session-meta"]')?.textContent === 'imported · 0 requests'`,
        );
        const notice = page.getByTestId('no-stage-stats');
        await notice.waitFor();
        assert.equal(await notice.textContent(), c.text);
        assert.equal(await page.getByTestId('waiting').isVisible(), false);
      } finally {
        await side.close();
      }
      const details = await harness.open('latencyPanel', { width: 1000, height: 600 }, new FakeHost(data));
      try {
        const page = details.page;
        await waitUntil(page, `document.querySelector('[data-testid="request-total"]')?.dataset.total === '0'`);
        const empty = page.getByTestId('request-table-empty');
        await empty.filter({ hasText: 'No per-request stage statistics' }).waitFor();
        assert.equal(await empty.textContent(), c.text);
      } finally {
        await details.close();
      }
    });
  }

  test("the text is the CLI's: --log-stats and VLLM_LOGGING_LEVEL=DEBUG", () => {
    assert.equal(
      NO_STAGE_STATS_TEXT,
      'No per-request stage statistics found. vLLM-Omni prints them with --log-stats; its stats tables need VLLM_LOGGING_LEVEL=DEBUG.',
    );
  });

  test('while the import still reads, no request yet is still "waiting"; when it ends, the reason replaces it', async () => {
    const reading = importOf(fs.readFileSync(YAML), YAML, 'running');
    const host = new FakeHost(reading);
    const side = await harness.open('sidePanel', { width: 300, height: 700 }, host);
    try {
      const page = side.page;
      await waitUntil(
        page,
        `document.querySelector('[data-testid="session-meta"]')?.textContent === 'importing · 0 requests'`,
      );
      assert.equal(await page.getByTestId('waiting').isVisible(), true);
      assert.equal(await page.getByTestId('no-stage-stats').isVisible(), false);
      const ended = { ...reading, session: { ...reading.session, status: 'exited' as const } };
      for (const m of host.show(ended)) await side.dispatch(m);
      await page.getByTestId('no-stage-stats').waitFor();
      assert.equal(await page.getByTestId('waiting').isVisible(), false);
    } finally {
      await side.close();
    }
  });
});

describe('a /metrics-only session (Attach to Metrics URL)', () => {
  const histograms = histogramSummariesOf(parseExposition(HEALTHY_SCRAPE));
  const data: SyntheticSession = {
    session: {
      id: 'scrape-1',
      kind: 'scrape',
      description: 'http://127.0.0.1:8000/metrics',
      startedAt: Date.UTC(2026, 11, 4),
      status: 'running',
      requestCount: 0,
      deployConfig: null,
      lastError: null,
      exit: null,
      problemCount: 0,
      title: '/metrics of 127.0.0.1:8000',
    },
    stageNames: {},
    requests: [],
    summary: {
      sessionId: 'scrape-1',
      requestCount: 0,
      stages: [],
      findings: [],
      histograms,
      prometheus: null,
      endToEnd: null,
      tablesMissing: null,
      overallSummaries: null,
      edges: [],
    },
    spans: spansOf([]),
  };

  /** The side panel's restart note over `session`'s histograms, as shown. */
  async function restartNote(session: SyntheticSession): Promise<string | null> {
    const side = await harness.open('sidePanel', { width: 300, height: 800 }, new FakeHost(session));
    try {
      const note = side.page.getByTestId('scrape-restart');
      await note.waitFor();
      return await note.textContent();
    } finally {
      await side.close();
    }
  }

  // An imported /metrics file is such a session too (SessionInfo.importedScrape), ended.
  const imported: SyntheticSession = {
    ...data,
    session: {
      ...data.session,
      kind: 'import',
      status: 'exited',
      importedScrape: true,
      description: '/tmp/metrics.prom',
    },
  };
  for (const [name, session, status] of [
    ['an attached /metrics URL', data, 'running'],
    ['an imported /metrics file', imported, 'imported'],
  ] as const)
    test(`${name}: the views say it has no per-request log and where its histograms are; the count is the scrape's requests`, async () => {
      const side = await harness.open('sidePanel', { width: 300, height: 800 }, new FakeHost(session));
      try {
        const page = side.page;
        // HEALTHY_SCRAPE: 8 requests in each stage's TTFT histogram (its ITL counts tokens).
        await waitUntil(
          page,
          `document.querySelector('[data-testid="session-meta"]')?.textContent === '${status} · 8 requests in /metrics'`,
        );
        const notice = page.getByTestId('no-stage-stats');
        await notice.waitFor();
        assert.equal(await notice.textContent(), METRICS_ONLY_TEXT);
        assert.match(METRICS_ONLY_TEXT, /no per-request log/);
        assert.match(METRICS_ONLY_TEXT, /From \/metrics table/);
        assert.equal(await page.getByTestId('waiting').isVisible(), false, 'not "Waiting for the first request…"');
        assert.equal(await page.getByText('From the log', { exact: true }).isVisible(), false);
        assert.equal(await page.getByText('no headline latency yet').isVisible(), false);
        assert.equal(await page.getByTestId('scrape-section').isVisible(), true);
      } finally {
        await side.close();
      }
      const details = await harness.open('latencyPanel', { width: 1000, height: 600 }, new FakeHost(session));
      try {
        const page = details.page;
        const empty = page.getByTestId('request-table-empty');
        await empty.filter({ hasText: 'no per-request log' }).waitFor();
        assert.equal(await empty.textContent(), METRICS_ONLY_TEXT);
      } finally {
        await details.close();
      }
    });

  test('a restart of the scraped server is said over its histograms, with when and which series', async () => {
    const atMs = new Date(2026, 11, 5, 0, 43, 12).getTime();
    const restarted = {
      ...data,
      summary: {
        ...data.summary,
        scrapeRestart: { atMs, series: 'vllm:e2e_request_latency_seconds{stage="0"}', before: 129, after: 21 },
      },
    };
    assert.equal(
      await restartNote(restarted),
      'The server restarted at 00:43:12: counts since then. vllm:e2e_request_latency_seconds{stage="0"} went from 129 to 21, so these histograms cover only the time since the restart.',
    );
  });

  test('a restart seen by `_created` says when the series was created again, its count having grown', async () => {
    const atMs = new Date(2026, 11, 5, 0, 43, 12).getTime();
    const restarted = {
      ...data,
      summary: {
        ...data.summary,
        scrapeRestart: {
          atMs,
          series: 'vllm:request_success_total{engine="0", finished_reason="stop"}',
          before: 14,
          after: 20,
          createdBefore: new Date(2026, 11, 4, 22, 5, 0).getTime() / 1000,
          createdAfter: new Date(2026, 11, 5, 0, 43, 8).getTime() / 1000,
        },
      },
    };
    assert.equal(
      await restartNote(restarted),
      'The server restarted at 00:43:12: counts since then. vllm:request_success_total{engine="0", finished_reason="stop"} was created again at 00:43:08 (before: 22:05:00), its count from 14 to 20 across the restart, so these histograms cover only the time since the restart.',
    );
  });

  test("the status bar's words count the scrape's requests, not the log's 0", () => {
    const words = statusBarWords(data.session, data.summary);
    assert.equal(words.text, '8 req (/metrics)');
    assert.match(words.label, /8 requests in \/metrics/);
  });
});
