// Import Log… of a gzip-compressed log (logrotate's server.log.1.gz) over a real connection to
// the language server: the session reads the log inside, as many requests as the plain file
// gives; a file cut short ends the import with what came before the cut, never an error.
import { waitFor } from './support/waitFor';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import type { SessionInfo } from '../../server/protocol';
import { buildCli, DeployLspClient, ROOT } from './support/lspDeployHarness';

const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'upstream-rendered', 'qwen3tts-talker-first-audio-after-fix.log');

let client: DeployLspClient;
let scratch: string;

before(async () => {
  buildCli();
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-import-gzip-'));
  client = await DeployLspClient.start({ diagnosticsDelayMs: 0, storageDir: path.join(scratch, 'sessions') });
});

after(async () => {
  await client.stop();
  fs.rmSync(scratch, { recursive: true, force: true });
});

async function importFile(name: string, bytes: Buffer): Promise<SessionInfo> {
  const file = path.join(scratch, name);
  fs.writeFileSync(file, bytes);
  const started = await client.request<SessionInfo>('stageLens/import', { path: file });
  return waitFor('the import to end', async () => {
    const info = (await client.request<SessionInfo[]>('stageLens/listSessions', {})).find((s) => s.id === started.id);
    return info?.status === 'exited' || info?.status === 'error' ? info : undefined;
  });
}

test('a .gz log imports as the plain log does; one cut short keeps the requests before the cut', async () => {
  const log = fs.readFileSync(FIXTURE);
  const plain = await importFile('server.log', log);
  assert.equal(plain.status, 'exited');
  assert.ok(plain.requestCount > 1, String(plain.requestCount));

  const gz = await importFile('server.log.1.gz', zlib.gzipSync(log));
  assert.equal(gz.status, 'exited', gz.lastError ?? '');
  assert.equal(gz.requestCount, plain.requestCount);
  assert.equal(gz.lastError, null);

  // Cut in the middle: what a streaming gunzip gives of it is what the session holds.
  const whole = zlib.gzipSync(log);
  const cut = whole.subarray(0, whole.length >> 1);
  const prefix = zlib.gunzipSync(cut, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
  const prefixSession = await importFile('prefix.log', prefix);
  const cutSession = await importFile('cut.log.1.gz', cut);
  assert.equal(cutSession.status, 'exited', cutSession.lastError ?? '');
  assert.equal(cutSession.requestCount, prefixSession.requestCount);
  assert.ok(
    cutSession.requestCount > 0 && cutSession.requestCount < plain.requestCount,
    String(cutSession.requestCount),
  );
  // Nothing of it is a compressed-file finding: it was read.
  const findings = await client.request<{ code: string }[]>('stageLens/findings', { sessionId: gz.id });
  assert.ok(!findings.some((f) => f.code === 'input-compressed'), JSON.stringify(findings.map((f) => f.code)));
});
