// Two windows on one storage folder: two real language-server processes (dist/server.js
// on stdio), one storage folder, each capturing a real file it tails. Each lists the
// other's sessions read-only and can follow one live; neither rewrites or stops the
// other's session; retention at 1 in one of them deletes only sessions nobody captures or
// has open; after a SIGKILL of one, the other takes its session over with every request
// it had captured, and a third server afterwards sees it stopped, counted and whole.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SessionFiles } from '../../server/capture/sessionFiles';
import type { SessionInfo } from '../../server/protocol';
import { killLanguageServers, startLanguageServer, type LspProcess } from './support/lspProcess';
import { waitFor } from './support/waitFor';
import { stoppedSession } from './support/savedSession';

const ROOT = path.resolve(__dirname, '..', '..');
const SAMPLE = fs.readFileSync(path.join(ROOT, 'samples', 'qwen3-tts-first-audio-cold-start.log'));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-windows-'));
const storage = path.join(dir, 'storage');
after(() => {
  killLanguageServers();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The sample up to (not including) the access log line of its n-th request: n whole requests. */
function firstRequests(n: number): Buffer {
  let at = -1;
  for (let k = 0; k <= n; k++) at = SAMPLE.indexOf('"POST /v1/audio/speech', at + 1);
  return SAMPLE.subarray(0, SAMPLE.lastIndexOf(0x0a, at) + 1);
}

/** A saved session as a window that has since closed left it: stopped, nobody has it open. */
function savedSession(id: string, startedAt: number): void {
  const files = new SessionFiles(storage, id);
  files.writeMeta({
    info: stoppedSession({ id, kind: 'import', description: `/logs/${id}.log`, startedAt, requestCount: 3 }),
    import: { path: `/logs/${id}.log` },
  });
  files.append({ stream: 'file', bytes: firstRequests(3), capturedAt: startedAt });
  files.close();
}

async function until(
  client: LspProcess,
  what: string,
  id: string,
  ok: (s: SessionInfo) => boolean,
  timeoutMs = 20_000,
): Promise<SessionInfo> {
  return waitFor(
    `${what} (${id})`,
    async () => {
      const s = await client.session(id);
      return s !== undefined && ok(s) ? s : undefined;
    },
    timeoutMs,
    100,
  );
}

test('two language servers, one storage folder: nothing lost, nothing overwritten', { timeout: 120_000 }, async () => {
  const t0 = Date.now() - 3_600_000;
  savedSession('import-old1', t0);
  savedSession('import-old2', t0 + 1000);
  const logA = path.join(dir, 'a.log');
  const logB = path.join(dir, 'b.log');
  fs.writeFileSync(logA, firstRequests(12));
  fs.writeFileSync(logB, firstRequests(5));

  const a = await startLanguageServer(storage);
  const b = await startLanguageServer(storage);

  // Each window captures: A an import (stopped, but open in A) and a live tail, B a live tail.
  const imported = await a.request('stageLens/import', { path: logB });
  await until(a, 'the import to finish', imported.id, (s) => s.status === 'exited');
  const liveA = await a.request('stageLens/tail', { path: logA, fromStart: true });
  const liveB = await b.request('stageLens/tail', { path: logB, fromStart: true });
  await until(a, 'A to capture 12 requests', liveA.id, (s) => s.requestCount === 12);
  await until(b, 'B to capture 5 requests', liveB.id, (s) => s.requestCount === 5);

  // Each lists the other's sessions: read-only, with the owner's pid, counts from the metadata.
  const seenByB = await until(b, "B to see A's session with its count", liveA.id, (s) => s.requestCount === 12);
  assert.equal(seenByB.status, 'running');
  assert.deepEqual(seenByB.access, { readOnly: true, ownerPid: a.pid, loaded: false });
  const seenByA = await until(a, "A to see B's session", liveB.id, (s) => s.requestCount === 5);
  assert.deepEqual(seenByA.access, { readOnly: true, ownerPid: b.pid, loaded: false });
  assert.deepEqual((await a.session(liveA.id))?.access, { readOnly: false, ownerPid: a.pid, loaded: true });
  assert.equal((await b.session(imported.id))?.access?.readOnly, false, "a finished capture is nobody's");

  // B opens A's live session: replayed from A's files, then followed as A captures more.
  assert.equal((await b.request('stageLens/summary', { sessionId: liveA.id })).requestCount, 12);
  fs.appendFileSync(logA, firstRequests(20).subarray(firstRequests(12).length));
  await waitFor(
    "B to follow A's capture to 20 requests",
    async () =>
      (await b.request('stageLens/summary', { sessionId: liveA.id })).requestCount === 20 ? true : undefined,
    20_000,
  );
  const pageInB = await b.request('stageLens/requests', { sessionId: liveA.id, offset: 0, limit: 50 });
  const pageInA = await a.request('stageLens/requests', { sessionId: liveA.id, offset: 0, limit: 50 });
  assert.deepEqual(
    pageInB.requests.map((r) => r.requestId),
    pageInA.requests.map((r) => r.requestId),
    'the same requests in both windows',
  );

  // B may not stop it or write its metadata; a deploy-config match stays in B.
  await assert.rejects(b.request('stageLens/stop', { sessionId: liveA.id }), (err: Error) => {
    // Named by its title, as the picker names it; no internal id, no language server pid.
    assert.equal(err.message, `${seenByB.title} is captured in another window: stop it there`);
    return true;
  });
  const stored = (): SessionInfo | undefined => new SessionFiles(storage, liveA.id).readMeta()?.info;
  const matched = await b.request('stageLens/matchDeployConfig', {
    sessionId: liveA.id,
    deployConfig: '/work/deploy.yaml',
  });
  assert.ok(matched.matched);
  assert.equal(matched.session.deployConfig, '/work/deploy.yaml');
  assert.equal(stored()?.deployConfig, null, "not written to A's session.json");
  assert.equal(stored()?.status, 'running');

  // Retention at 1 in B: the sessions nobody captures or has open go; A's live one, B's own
  // and A's open import stay.
  const { removed } = await b.request('stageLens/setRetention', { maxSessions: 1 });
  assert.deepEqual([...removed].sort(), ['import-old1', 'import-old2']);
  assert.deepEqual(SessionFiles.listIds(storage).sort(), [imported.id, liveA.id, liveB.id].sort());
  await waitFor(
    'A to hear that B deleted the old sessions',
    () => (['import-old1', 'import-old2'].every((id) => a.removed.includes(id)) ? true : undefined),
    10_000,
  );
  assert.equal((await a.session(liveA.id))?.status, 'running');

  // A is killed outright. B takes its session over once it sees A gone, with every request A captured.
  const capturedByA = (await a.request('stageLens/summary', { sessionId: liveA.id })).requestCount;
  assert.equal(capturedByA, 20);
  a.child.kill('SIGKILL');
  await new Promise((r) => a.child.once('exit', r));
  const takenOver = await until(b, "B to take A's session over", liveA.id, (s) => s.status === 'stopped', 20_000);
  assert.match(
    takenOver.lastError ?? '',
    new RegExp(
      `capture was interrupted: the language server that captured it \\(pid ${a.pid}\\) ended; everything captured before is kept`,
    ),
  );
  assert.deepEqual(takenOver.access, { readOnly: false, ownerPid: null, loaded: true });
  assert.equal(takenOver.requestCount, capturedByA);
  assert.equal(stored()?.status, 'stopped');
  assert.equal(stored()?.requestCount, capturedByA, 'the count is saved with the status');
  // The stored bytes, read by the CLI, hold the same requests.
  const cli = JSON.parse(
    execFileSync(
      process.execPath,
      [
        path.join(ROOT, 'dist', 'cli.js'),
        'analyze',
        path.join(storage, 'sessions', liveA.id, 'file.log'),
        '--format',
        'json',
      ],
      { encoding: 'utf8' },
    ),
  ) as { requests: { requestId: string }[] };
  const pageAfter = await b.request('stageLens/requests', { sessionId: liveA.id, offset: 0, limit: 50 });
  assert.deepEqual(
    pageAfter.requests.map((r) => r.requestId),
    cli.requests.map((r) => r.requestId),
  );
  // B's own capture went on all along.
  assert.equal((await b.session(liveB.id))?.status, 'running');

  // A third window later: the session is stopped and whole, nothing left to take over.
  const c = await startLanguageServer(storage);
  const later = await c.session(liveA.id);
  assert.equal(later?.status, 'stopped');
  assert.equal(later?.requestCount, 20);
  assert.equal((await c.request('stageLens/summary', { sessionId: liveA.id })).requestCount, 20);
  assert.equal((await c.session(liveB.id))?.access?.ownerPid, b.pid);
  b.child.kill('SIGTERM');
  c.child.kill('SIGTERM');
});
