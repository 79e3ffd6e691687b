// A launched server's /metrics refuses connections until the server listens. Over a real
// language server: a process that opens its metrics port only after a few seconds (as the
// demo simulator does for a moment, a real server while it loads) gets no "connection
// refused" error, and its /metrics is scraped once it listens. With a real scrape of a port
// nobody listens on: a refusal is reported once the start-up grace is over, with what it
// may mean; once the endpoint has answered, a refusal is reported at once.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ScrapeSource, type ScrapeError } from '../../server/capture/scrapeSource';
import { LAUNCH_STARTUP_GRACE, ScrapeStartup } from '../../server/capture/scrapeStartup';
import { BUGGY_CODEC_SCRAPE } from '../unit/support/scrapeFixtures';
import { killLanguageServers, startLanguageServer } from './support/lspProcess';
import { waitFor } from './support/waitFor';
import { unusedPort } from './support/unusedPort';

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-metrics-startup-'));
after(() => {
  killLanguageServers();
  fs.rmSync(scratch, { recursive: true, force: true });
});

test(
  'a launched server that listens only after a while: no refused error while it starts, its /metrics scraped once up',
  { timeout: 60_000 },
  async () => {
    const lsp = await startLanguageServer(path.join(scratch, 'storage'));
    const port = await unusedPort();
    const body = path.join(scratch, 'metrics.txt');
    fs.writeFileSync(body, BUGGY_CODEC_SCRAPE);
    // Listens 3 s after it starts (past the first scrapes, 2 s apart), then serves the scrape for a while.
    const script = `setTimeout(() => require('http').createServer((q, s) => s.end(require('fs').readFileSync(${JSON.stringify(body)}))).listen(${port}, '127.0.0.1', () => console.log('listening')), 3000); setTimeout(() => process.exit(0), 20000);`;
    const info = await lsp.request('stageLens/launch', {
      argv: [process.execPath, '-e', script],
      cwd: scratch,
      metricsUrl: `http://127.0.0.1:${port}/metrics`,
    });
    await waitFor(
      'the scrape of the server once it listens',
      async () => {
        const summary = await lsp.request('stageLens/summary', { sessionId: info.id });
        return summary.histograms.length > 0 ? true : undefined;
      },
      20_000,
      200,
    );
    const errors = lsp.changes.filter((c) => c.session.id === info.id && c.session.lastError !== null);
    assert.deepEqual(
      errors.map((c) => c.session.lastError),
      [],
    );
    assert.equal((await lsp.session(info.id))?.status, 'running');
    await lsp.request('stageLens/stop', { sessionId: info.id });
  },
);

/** The next failed scrape of `source`. */
function nextError(source: ScrapeSource): Promise<ScrapeError> {
  return new Promise((resolve) => {
    const off = source.onError((e) => {
      off();
      resolve(e);
    });
  });
}

test('a port nobody listens on: quiet during the start-up grace, then reported with what it may mean', async () => {
  const url = `http://127.0.0.1:${await unusedPort()}/metrics`;
  const source = new ScrapeSource({ url, intervalMs: 100 });
  const startup = new ScrapeStartup({ graceMs: 400, afterListeningMs: 400 });
  try {
    const first = nextError(source);
    source.start();
    const early = await first;
    assert.equal(early.kind, 'refused');
    assert.equal(startup.report(early), null, 'a refusal right after the launch is the server starting');
    let late = early;
    while (startup.report(late) === null) late = await nextError(source);
    assert.ok(late.at - early.at >= 300, 'reported only once the grace is over');
    assert.match(
      startup.report(late) ?? '',
      new RegExp(
        `^Cannot scrape ${url.replace(/[.?*]/g, '\\$&')}: connection refused \\(is the server running and listening on port \\d+\\?\\)\\. No answer in the \\d+ s since the server started, and its log has not said it is loading: still loading, or not serving /metrics on this port\\?$`,
      ),
    );
  } finally {
    await source.stop();
  }
  // Once the endpoint has answered, a refusal is a server gone: reported at once.
  const answered = new ScrapeStartup(LAUNCH_STARTUP_GRACE);
  answered.up();
  const refused: ScrapeError = {
    url,
    kind: 'refused',
    message: `Cannot scrape ${url}: connection refused.`,
    at: Date.now(),
    status: null,
    receivedBytes: 0,
    consecutiveFailures: 1,
  };
  assert.equal(answered.report(refused), refused.message);
  // Something answered with an error: not the server starting.
  assert.equal(
    new ScrapeStartup(LAUNCH_STARTUP_GRACE).report({ ...refused, kind: 'status', status: 404 }),
    refused.message,
  );
});
