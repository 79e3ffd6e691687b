// A /metrics-only session (Attach to Metrics URL) over the real language-server connection,
// scraping a real simulator on loopback: it has histograms and no per-request log, so a CSV
// export is refused with why (and JSON, which holds the histograms, offered), not written as
// a bare header.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { killLanguageServers, startLanguageServer } from './support/lspProcess';
import { SimProcess } from './support/simulateProcess';
import { waitFor } from './support/waitFor';

const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-metrics-only-'));
const sims: SimProcess[] = [];

after(() => {
  killLanguageServers();
  for (const s of sims) if (s.exitCode === null) s.signal('SIGKILL');
  fs.rmSync(storage, { recursive: true, force: true });
});

test('CSV export of a /metrics-only session says it would be empty and points to JSON; JSON holds the histograms', async () => {
  const sim = new SimProcess(['--port', '0']);
  sims.push(sim);
  const port = await sim.port();
  const lsp = await startLanguageServer(storage);
  const info = await lsp.request('stageLens/scrape', { url: `http://127.0.0.1:${port}/metrics`, intervalMs: 300 });
  await waitFor('histograms with a finished request', async () => {
    const s = await lsp.request('stageLens/summary', { sessionId: info.id });
    return s.histograms.some((h) => h.family === 'vllm:e2e_request_latency_seconds' && (h.count ?? 0) > 0)
      ? true
      : undefined;
  });
  const csv = path.join(storage, 'out.csv');
  await assert.rejects(
    lsp.request('stageLens/export', { sessionId: info.id, format: 'csv', path: csv }),
    /reads only \/metrics: it has no per-request log, so a CSV would be empty\. Export it as JSON/,
  );
  assert.equal(fs.existsSync(csv), false, 'no header-only file left behind');
  const json = path.join(storage, 'out.json');
  await lsp.request('stageLens/export', { sessionId: info.id, format: 'json', path: json });
  const doc = JSON.parse(fs.readFileSync(json, 'utf8')) as { histograms?: unknown[] };
  assert.ok((doc.histograms?.length ?? 0) > 0, 'the JSON holds the /metrics histograms');
  sim.signal('SIGTERM');
});

test('a restart of the scraped server (its counts go down) is said: when, and which series', async () => {
  const first = new SimProcess(['--port', '0']);
  sims.push(first);
  const port = await first.port();
  const lsp = await startLanguageServer(storage);
  const info = await lsp.request('stageLens/scrape', { url: `http://127.0.0.1:${port}/metrics`, intervalMs: 300 });
  const e2eCount = async (): Promise<number> => {
    const s = await lsp.request('stageLens/summary', { sessionId: info.id });
    return s.histograms
      .filter((h) => h.family === 'vllm:e2e_request_latency_seconds')
      .reduce((n, h) => n + (h.count ?? 0), 0);
  };
  await waitFor('a few finished requests', async () => ((await e2eCount()) >= 3 ? true : undefined));
  const beforeRestart = await lsp.request('stageLens/summary', { sessionId: info.id });
  assert.equal(beforeRestart.scrapeRestart ?? null, null, 'no restart while the counts grow');
  first.signal('SIGKILL');
  await first.exited;
  const killedAt = Date.now();
  const second = new SimProcess(['--port', String(port)]);
  sims.push(second);
  await second.port();
  const restart = await waitFor('the restart to be seen', async () => {
    const s = await lsp.request('stageLens/summary', { sessionId: info.id });
    return s.scrapeRestart ?? undefined;
  });
  assert.ok(restart.atMs >= killedAt, 'seen after the restart');
  assert.ok(restart.after < restart.before, `${restart.series}: ${restart.before} -> ${restart.after}`);
  assert.match(restart.series, /^vllm(_omni)?:/);
  second.signal('SIGTERM');
});
