// A launched server's own log says how far its start is. Between vLLM's `vLLM API server
// version` line and `Starting vLLM API server on ...` it loads its models (minutes, for a real
// vLLM-Omni server): refusals of its /metrics are no error however long that takes, past the
// time grace a log without those lines gets. Once it says it starts the API server, a port that
// stays closed is reported after a short grace, with what it may mean. Real child processes,
// real HTTP refusals, a real session registry (its grace shortened).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SessionRegistry } from '../../server/capture/sessionRegistry';
import { realSourceFactories } from '../../server/capture/sourceFactories';
import type { SessionInfo } from '../../server/protocol';
import { BUGGY_CODEC_SCRAPE } from '../unit/support/scrapeFixtures';
import { waitFor } from './support/waitFor';
import { unusedPort } from './support/unusedPort';

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-loading-log-'));
const GRACE = { graceMs: 300, afterListeningMs: 1500 };
const VERSION_LINE = 'INFO 12-04 13:00:00 [api_server.py:1888] vLLM API server version 0.11.0';
const startingLine = (port: number): string =>
  `INFO 12-04 13:00:04 [api_server.py:1900] Starting vLLM API server on http://127.0.0.1:${port}`;

const changes: { at: number; info: SessionInfo }[] = [];
const registry = new SessionRegistry(
  path.join(scratch, 'storage'),
  realSourceFactories(() => undefined, GRACE),
  { sessionChanged: (info) => changes.push({ at: Date.now(), info }), rawOutput: () => undefined },
  { scanIntervalMs: 0 },
);
registry.loadSaved();
after(async () => {
  await registry.dispose();
  fs.rmSync(scratch, { recursive: true, force: true });
});

const errorsOf = (id: string): { at: number; message: string }[] =>
  changes
    .filter((c) => c.info.id === id && c.info.lastError !== null)
    .map((c) => ({ at: c.at, message: c.info.lastError as string }));

test(
  'loading (version line printed, API server not yet started) past the time grace: no error; scraped once it listens',
  { timeout: 30_000 },
  async () => {
    const port = await unusedPort();
    const body = path.join(scratch, 'metrics.txt');
    fs.writeFileSync(body, BUGGY_CODEC_SCRAPE);
    // Loads for 4.5 s: two scrapes (2 s apart) refused, each past the 300 ms time grace.
    const script = `console.log(${JSON.stringify(VERSION_LINE)});
setTimeout(() => {
  console.log(${JSON.stringify(startingLine(port))});
  require('http').createServer((q, s) => s.end(require('fs').readFileSync(${JSON.stringify(body)}))).listen(${port}, '127.0.0.1');
}, 4500);
setTimeout(() => process.exit(0), 20000);`;
    const info = registry.launch({
      argv: [process.execPath, '-e', script],
      cwd: scratch,
      metricsUrl: `http://127.0.0.1:${port}/metrics`,
    });
    await waitFor(
      'the scrape of the server once it listens',
      () => (registry.require(info.id).histograms().length > 0 ? true : undefined),
      20_000,
      100,
    );
    assert.deepEqual(errorsOf(info.id), []);
    assert.deepEqual(registry.require(info.id).serverStartLine()?.marker, 'api-server-start');
    await registry.stop(info.id);
  },
);

test(
  'the log says the API server starts but the port stays closed: reported after the short grace, saying so',
  { timeout: 30_000 },
  async () => {
    const port = await unusedPort();
    const script = `console.log(${JSON.stringify(VERSION_LINE)});
setTimeout(() => console.log(${JSON.stringify(startingLine(port))}), 1000);
setTimeout(() => process.exit(0), 20000);`;
    const launchedAt = Date.now();
    const info = registry.launch({
      argv: [process.execPath, '-e', script],
      cwd: scratch,
      metricsUrl: `http://127.0.0.1:${port}/metrics`,
    });
    const first = await waitFor('the refusal reported', () => errorsOf(info.id)[0], 20_000, 100);
    assert.match(
      first.message,
      /connection refused .*\. The server's log said "Starting vLLM API server" \d+ s ago: is \/metrics served on this port\?$/,
    );
    // Not before the line (1 s) plus the short grace (1.5 s).
    assert.ok(first.at - launchedAt >= 2500, `reported ${first.at - launchedAt} ms after the launch`);
    await registry.stop(info.id);
  },
);

test('a log that says nothing of its start: the time grace alone, as before', { timeout: 30_000 }, async () => {
  const port = await unusedPort();
  const info = registry.launch({
    argv: [process.execPath, '-e', 'setTimeout(() => process.exit(0), 20000)'],
    cwd: scratch,
    metricsUrl: `http://127.0.0.1:${port}/metrics`,
  });
  const first = await waitFor('the refusal reported', () => errorsOf(info.id)[0], 20_000, 100);
  assert.match(first.message, /and its log has not said it is loading: still loading, or not serving \/metrics/);
  await registry.stop(info.id);
});
