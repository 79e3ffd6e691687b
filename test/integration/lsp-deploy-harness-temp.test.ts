// The deploy harness's language server leaves no folder behind: what it makes for the server
// (the --test-numbers file's folder) is removed when the server stops. Its temporary folders are
// made under a folder of this test's own (TMPDIR), so another process's cannot count.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DeployLspClient } from './support/lspDeployHarness';

test('a server started with test numbers: their folder is there while it runs, gone once it stopped', async () => {
  const own = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-harness-temp-'));
  const saved = process.env['TMPDIR'];
  process.env['TMPDIR'] = own;
  try {
    assert.equal(os.tmpdir(), own);
    const client = await DeployLspClient.start({
      diagnosticsDelayMs: 0,
      storageDir: path.join(own, 'sessions'),
      testNumbers: {},
    });
    const made = fs.readdirSync(own).filter((f) => f.startsWith('stage-lens-numbers-'));
    assert.equal(made.length, 1, made.join());
    assert.deepEqual(fs.readdirSync(path.join(own, made[0]!)), ['numbers.json']);
    await client.stop();
    assert.deepEqual(
      fs.readdirSync(own).filter((f) => f !== 'sessions'),
      [],
    );
  } finally {
    if (saved === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = saved;
    fs.rmSync(own, { recursive: true, force: true });
  }
});
