// A log concatenated with itself, imported through the language server (dist/server.js over
// stdio): the session's summary, whole and over a window of its stored requests, says its
// request ids were seen more than once, and keeps the repeats as requests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { startLanguageServer, storageForFile } from './support/lspProcess';

const ROOT = path.resolve(__dirname, '..', '..');
const storage = storageForFile('stage-lens-repeated-');

test(
  'an imported log read twice: repeated-request-ids in the summary and in a window of it',
  { timeout: 60_000 },
  async () => {
    const lsp = await startLanguageServer(storage);
    const log = path.join(ROOT, 'test', 'fixtures', 'logs', 'qwen3-omni-concatenated-twice.log');
    const session = await lsp.importLog(log);
    // The whole session (its live findings), then a window over its stored requests (findings made again from the store).
    for (const windowSeconds of [undefined, 3600]) {
      const summary = await lsp.request('stageLens/summary', {
        sessionId: session.id,
        ...(windowSeconds === undefined ? {} : { windowSeconds }),
      });
      assert.equal(summary.requestCount, 6);
      const f = summary.findings.find((x) => x.code === 'repeated-request-ids');
      assert.ok(f !== undefined, summary.findings.map((x) => x.code).join(' '));
      assert.equal(f.severity, 'warning');
      assert.equal(f.requestCount, 3);
      assert.match(f.message, /^3 request ids were seen more than once: 3 requests print again a record/);
      assert.match(f.message, /e\.g\. chatcmpl-3c88c0cf9be8c9bf, again at line 213 as chatcmpl-3c88c0cf9be8c9bf#2/);
    }
  },
);
