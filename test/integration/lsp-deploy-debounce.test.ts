// Diagnostics are pushed at once when a document opens and after a quiet time while it
// is edited (the debounce set by `initializationOptions.deployDiagnosticsDelayMs`). The quiet time
// is long enough that "at once" and "after the quiet time" stay apart on a loaded machine.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DeployLspClient, FIXTURES } from './support/lspDeployHarness';

let client: DeployLspClient;
let scratch: string;
before(async () => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-debounce-'));
  // Its sessions are stored in the scratch folder, never in the user's.
  client = await DeployLspClient.start({ diagnosticsDelayMs: 1500, storageDir: path.join(scratch, 'sessions') });
});
after(async () => {
  await client.stop();
  fs.rmSync(scratch, { recursive: true, force: true });
});

test('open publishes at once; edits publish once, after the quiet time', async () => {
  const file = path.join(FIXTURES, 'qwen3_tts.yaml');
  const text = fs.readFileSync(file, 'utf8');
  let start = Date.now();
  const uri = await client.open(file);
  assert.deepEqual(await client.diagnostics(uri, 1), []);
  assert.ok(Date.now() - start < 1000, `open took ${Date.now() - start} ms`);

  start = Date.now();
  await client.change(uri, text.replace('async_chunk: true', 'asyn_chunk: true'));
  const last = await client.change(uri, text.replace('async_chunk: true', 'asyn_chunk: tru'));
  const found = await client.diagnostics(uri, last);
  assert.ok(Date.now() - start >= 1480, `published after ${Date.now() - start} ms`);
  assert.deepEqual(
    found.map((d) => [d.code, d.range.start.line + 1]),
    [['unknown-key', 15]],
  );
  // open, then one publish for both edits: the first edit was never published on its own
  await new Promise((resolve) => setTimeout(resolve, 1700));
  assert.equal(client.publishCounts.get(uri), 2);
});
