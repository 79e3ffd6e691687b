// The request table on a tail, over a real connection: the language server (dist/server.js,
// a real child process on stdio) tails a planted log (speech-07 and speech-13 with the
// talker prefill 1,000 ms longer); a page asked with `atLeast` the tail's threshold and
// sorted by the target lists exactly the tail attribution's requests, slowest first; the
// same with a time window; a target no request measured lists nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startLanguageServer, storageForFile } from './support/lspProcess';
import { secondlyRequest } from '../unit/support/explainLogs';

const storage = storageForFile('stage-lens-lsp-tail-table-');

const planted = (i: number): string => secondlyRequest(i, i === 7 || i === 13 ? 1000 + i : 0);

test(
  "a page filtered to a tail lists the tail attribution's requests, slowest first",
  { timeout: 60_000 },
  async () => {
    const client = await startLanguageServer(storage);
    const file = path.join(storage, 'server.log');
    fs.writeFileSync(file, Array.from({ length: 20 }, (_, i) => planted(i)).join(''));
    const session = await client.request('stageLens/tail', { path: file, fromStart: true });
    await client.requestsRead(session.id, 20);

    const tail = (
      await client.request('stageLens/tailAttribution', { sessionId: session.id, target: 'e2e', quantile: 'p90' })
    ).tails[0]!;
    assert.deepEqual(tail.requestIds, ['speech-13', 'speech-07'], 'the planted slow requests, slowest first');
    const page = await client.request('stageLens/requests', {
      sessionId: session.id,
      offset: 0,
      limit: 50,
      atLeast: { target: 'e2e', ms: tail.thresholdMs },
      sortBy: 'target:e2e',
      descending: true,
    });
    assert.equal(page.total, tail.requestCount);
    assert.deepEqual(
      page.requests.map((r) => r.requestId),
      tail.requestIds,
    );

    // With a window that holds only speech-07 (finished at 09:00:17).
    const from = Date.UTC(new Date().getUTCFullYear(), 9, 22, 9, 0, 17);
    const windowed = await client.request('stageLens/requests', {
      sessionId: session.id,
      offset: 0,
      limit: 50,
      atLeast: { target: 'e2e', ms: tail.thresholdMs },
      scope: { fromMs: from, toMs: from + 999 },
    });
    assert.deepEqual(
      windowed.requests.map((r) => r.requestId),
      ['speech-07'],
    );

    // A target no request measured: nothing is at or above anything (unknown is not 0).
    const none = await client.request('stageLens/requests', {
      sessionId: session.id,
      offset: 0,
      limit: 50,
      atLeast: { target: 'stage9.firstOutput', ms: 0 },
    });
    assert.equal(none.total, 0);
    // Sorting by a target: the fastest first ascending, requests without it last.
    const ascending = await client.request('stageLens/requests', {
      sessionId: session.id,
      offset: 0,
      limit: 50,
      sortBy: 'target:e2e',
    });
    assert.equal(ascending.total, 20);
    assert.deepEqual(
      ascending.requests.slice(-2).map((r) => r.requestId),
      ['speech-07', 'speech-13'],
    );
    await client.request('stageLens/stop', { sessionId: session.id });
  },
);
