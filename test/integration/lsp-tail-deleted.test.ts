// A followed log file deleted under a session, over the real language-server connection: the
// session says it waits for the file to come back (where errors are shown, not only in the
// terminal), and says nothing more once the file is back.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { startLanguageServer, storageForFile } from './support/lspProcess';
import { waitFor } from './support/waitFor';

const storage = storageForFile('stage-lens-tail-deleted-');

test('a deleted log file: the session says it waits for the file to come back, and stops saying it when it is back', async () => {
  const log = path.join(storage, 'server.log');
  fs.writeFileSync(log, 'INFO 12-05 00:39:54 [api_server.py:1] Starting vLLM API server on http://0.0.0.0:8000\n');
  const lsp = await startLanguageServer(storage);
  const info = await lsp.request('stageLens/tail', { path: log, fromStart: true });
  await waitFor('the tail to run', async () => ((await lsp.session(info.id))?.status === 'running' ? true : undefined));
  fs.rmSync(log);
  const gone = await waitFor('the deletion to be said', async () => {
    const s = await lsp.session(info.id);
    return s?.lastError !== null && s?.lastError !== undefined ? s : undefined;
  });
  assert.equal(gone.lastError, `${log} was deleted; waiting for it to come back`);
  assert.equal(gone.status, 'running');
  fs.writeFileSync(log, 'INFO 12-05 00:40:00 [api_server.py:1] Starting vLLM API server on http://0.0.0.0:8000\n');
  await waitFor('the file to be read again', async () =>
    (await lsp.session(info.id))?.lastError === null ? true : undefined,
  );
});
