// A growing log whose first lines are vLLM's periodic `Engine NNN:` lines, tailed by the
// language server (dist/server.js, a real child process on stdio): while the engines report a
// request running, the session is waiting for its first request, not a log that "holds Engine
// lines alone" (engine-stats-only); once the request's tables are appended it has numbers.
// A log whose engines go idle again with no table gets the finding while still tailed; the
// same lines imported as a whole log get it at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startLanguageServer, storageForFile, type LspProcess } from './support/lspProcess';
import { waitFor } from './support/waitFor';
import { asyncChunk, renderRequest } from '../unit/support/explainLogs';

const storage = storageForFile('stage-lens-lsp-tail-engine-');

// vLLM's loggers.py line, every 10 s while a request runs.
const engineLine = (second: number, running: number): string =>
  `(APIServer pid=4242) INFO 10-22 09:30:${String(second).padStart(2, '0')} [loggers.py:127] Engine 000: ` +
  `Avg prompt throughput: 6.4 tokens/s, Avg generation throughput: ${running > 0 ? '5.0' : '0.0'} tokens/s, ` +
  `Running: ${running} reqs, Waiting: 0 reqs, GPU KV cache usage: ${running > 0 ? '1.2' : '0.0'}%, Prefix cache hit rate: 0.0%\n`;
const BOOT = '(APIServer pid=4242) INFO 10-22 09:30:00 [api_server.py:1] vLLM API server version 0.11.0\n';

async function summaryOf(client: LspProcess, sessionId: string) {
  return client.request('stageLens/summary', { sessionId });
}

/** Waits until the session has read `n` Engine lines (its load-over-time gauges). */
async function engineLinesRead(client: LspProcess, sessionId: string, n: number): Promise<void> {
  await waitFor(`${n} engine lines read`, async () => {
    const { series } = await client.request('stageLens/overTime', { sessionId });
    const points = series.gauges.filter((g) => g.source === 'log').reduce((a, g) => a + g.running.length, 0);
    return points >= n || undefined;
  });
}

const engineOnly = (findings: readonly { code: string }[]): boolean =>
  findings.some((f) => f.code === 'engine-stats-only');

test(
  'a tailed log with Engine lines before its first request waits for it; the request then has numbers',
  { timeout: 60_000 },
  async () => {
    const client = await startLanguageServer(storage);
    const file = path.join(storage, 'early.log');
    fs.writeFileSync(file, BOOT + engineLine(10, 1) + engineLine(20, 1));
    const session = await client.request('stageLens/tail', { path: file, fromStart: true });
    await engineLinesRead(client, session.id, 2);
    const early = await summaryOf(client, session.id);
    assert.equal(early.requestCount, 0);
    assert.deepEqual(
      early.findings.map((f) => f.code),
      [],
      'a request running for 10 s has not printed its table yet',
    );

    fs.appendFileSync(file, renderRequest(asyncChunk('speech-00', 0, '10-22 09:30:25')) + engineLine(30, 0));
    await waitFor('the first request', async () => (await client.session(session.id))?.requestCount === 1 || undefined);
    const later = await summaryOf(client, session.id);
    assert.equal(later.requestCount, 1);
    assert.ok(!engineOnly(later.findings));
    const talker = later.stages.find((s) => s.stageId === 0);
    assert.equal(talker?.fields['vllm_prefill_ms']?.p50, 100);
    assert.equal(later.endToEnd?.ms.p50, 800);
    await client.request('stageLens/stop', { sessionId: session.id });
  },
);

test(
  'a tailed log whose engines go idle with no table gets engine-stats-only; imported, at once',
  { timeout: 60_000 },
  async () => {
    const client = await startLanguageServer(storage);
    const file = path.join(storage, 'info-only.log');
    fs.writeFileSync(file, BOOT + engineLine(10, 1) + engineLine(20, 1));
    const session = await client.request('stageLens/tail', { path: file, fromStart: true });
    await engineLinesRead(client, session.id, 2);
    assert.ok(!engineOnly((await summaryOf(client, session.id)).findings));

    fs.appendFileSync(file, engineLine(30, 0));
    const found = await waitFor('engine-stats-only', async () => {
      const f = (await summaryOf(client, session.id)).findings.find((x) => x.code === 'engine-stats-only');
      return f;
    });
    assert.match(found.message, /^The log has 3 vLLM engine stats lines \(`Engine NNN:`, 1 engine\) and no request/);
    await client.request('stageLens/stop', { sessionId: session.id });

    // The first two lines alone, imported: a whole log, so the finding is there with no wait.
    const whole = path.join(storage, 'whole.log');
    fs.writeFileSync(whole, BOOT + engineLine(10, 1) + engineLine(20, 1));
    const imported = await client.request('stageLens/import', { path: whole });
    await waitFor(
      'the import to end',
      async () => (await client.session(imported.id))?.status === 'exited' || undefined,
    );
    assert.ok(engineOnly((await summaryOf(client, imported.id)).findings));
  },
);
