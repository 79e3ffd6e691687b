// Retention (stageLens.retention.maxSessions) with real files: saved sessions beyond the
// limit are deleted from the storage folder, oldest first, the newest kept; a session that
// is still capturing (a real tail of a real file) is never deleted. Then the same over a
// real LSP connection: the limit comes as initializationOptions.retention, changes with
// stageLens/setRetention, and deletions are announced with stageLens/sessionsRemoved.
import { waitFor as waitUntil } from './support/waitFor';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import { buildSync } from 'esbuild';
import {
  createProtocolConnection,
  InitializeRequest,
  InitializedNotification,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-languageserver-protocol/node';
import { SessionFiles } from '../../server/capture/sessionFiles';
import { SessionRegistry } from '../../server/capture/sessionRegistry';
import { realSourceFactories } from '../../server/capture/sourceFactories';
import type { ClientNotifications, SessionInfo, SessionStatus } from '../../server/protocol';

const ROOT = path.resolve(__dirname, '..', '..');
const LOG_LINE = Buffer.from('INFO 07-24 10:00:00 [api_server.py:1] Started server process\n');
const tmpDirs: string[] = [];
const children: ChildProcess[] = [];

after(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  for (const d of tmpDirs) fs.rmSync(d, { recursive: true, force: true });
});

function tmp(prefix: string): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  tmpDirs.push(d);
  return d;
}

/** A saved session as an earlier language server left it: metadata and captured bytes on disk. */
function saveSession(storage: string, id: string, startedAt: number, status: SessionStatus): void {
  const files = new SessionFiles(storage, id);
  const info: SessionInfo = {
    id,
    kind: 'tail',
    description: `/var/log/${id}.log`,
    title: `log ${id}.log`,
    startedAt,
    status,
    requestCount: 0,
    deployConfig: null,
    lastError: null,
    exit: null,
    problemCount: 0,
  };
  files.writeMeta({ info, tail: { path: `/var/log/${id}.log`, fromStart: true } });
  files.append({ stream: 'file', bytes: LOG_LINE, capturedAt: startedAt });
  files.close();
}

const onDisk = (storage: string): string[] => SessionFiles.listIds(storage).sort();
const sessionDirs = (storage: string): string[] => fs.readdirSync(path.join(storage, 'sessions')).sort();

describe('session registry retention (real files)', () => {
  test('loading: the oldest beyond the limit are deleted, the newest kept (listed from their metadata)', async () => {
    const storage = tmp('stage-lens-retention-');
    const t0 = Date.UTC(2025, 6, 24, 10);
    // s0 was capturing when its server died: not capturing any more, so it may go.
    saveSession(storage, 's0', t0, 'running');
    saveSession(storage, 's1', t0 + 1000, 'stopped');
    saveSession(storage, 's2', t0 + 2000, 'exited');
    saveSession(storage, 's3', t0 + 3000, 'stopped');
    saveSession(storage, 's4', t0 + 4000, 'crashed');
    const removed: string[][] = [];
    const registry = new SessionRegistry(
      storage,
      realSourceFactories(() => undefined),
      { sessionChanged: () => undefined, rawOutput: () => undefined },
    );
    registry.onSessionsRemoved((ids) => removed.push(ids));
    registry.setRetention({ maxSessions: 3 });
    const listed = registry.loadSaved();
    assert.deepEqual(
      listed.map((s) => s.id),
      ['s4', 's3', 's2'],
    );
    assert.deepEqual(onDisk(storage), ['s2', 's3', 's4']);
    assert.deepEqual(sessionDirs(storage), ['s2', 's3', 's4'], 'the folders are gone, bytes and all');
    assert.deepEqual(
      removed.map((ids) => [...ids].sort()),
      [['s0', 's1']],
    );
    // A lower limit applies at once; a higher one deletes nothing.
    assert.deepEqual(registry.setRetention({ maxSessions: 2 }), ['s2']);
    assert.deepEqual(registry.setRetention({ maxSessions: 10 }), []);
    assert.deepEqual(onDisk(storage), ['s3', 's4']);
    await registry.dispose();
  });

  test('a session still capturing is never deleted, even when it is the oldest', async () => {
    const storage = tmp('stage-lens-retention-');
    const logs = tmp('stage-lens-retention-logs-');
    const t0 = Date.now() - 60_000;
    saveSession(storage, 'old', t0, 'stopped');
    const registry = new SessionRegistry(
      storage,
      realSourceFactories(() => undefined),
      { sessionChanged: () => undefined, rawOutput: () => undefined },
    );
    registry.setRetention({ maxSessions: 2 });
    registry.loadSaved();

    const liveLog = path.join(logs, 'live.log');
    fs.writeFileSync(liveLog, LOG_LINE);
    const live = registry.tail({ path: liveLog, fromStart: true });
    await waitFor('the tail to run', () => (registry.get(live.id)?.info.status === 'running' ? true : undefined));
    assert.deepEqual(onDisk(storage), [live.id, 'old'].sort(), 'two sessions, limit two: nothing deleted');

    // Two newer sessions that stop: with a limit of 1 only the newest is kept, and the
    // running tail, older than both, stays.
    const done: string[] = [];
    for (const name of ['a', 'b']) {
      await new Promise((r) => setTimeout(r, 5)); // distinct start times
      const file = path.join(logs, `${name}.log`);
      fs.writeFileSync(file, LOG_LINE);
      const s = registry.tail({ path: file, fromStart: true });
      await registry.stop(s.id);
      done.push(s.id);
    }
    assert.ok(!onDisk(storage).includes('old'), 'the oldest stopped session went when the third arrived');
    const removed = registry.setRetention({ maxSessions: 1 });
    assert.deepEqual(removed, [done[0]]);
    assert.deepEqual(onDisk(storage), [live.id, done[1]].sort());
    assert.equal(registry.get(live.id)?.info.status, 'running');
    assert.ok(
      fs.existsSync(path.join(storage, 'sessions', live.id, 'file.log')),
      'the live capture keeps writing its bytes',
    );

    // Once it stops, it is an old session like any other.
    await registry.stop(live.id);
    assert.deepEqual(registry.enforceRetention(), [live.id]);
    assert.deepEqual(onDisk(storage), [done[1]]);
    await registry.dispose();
  });
});

describe('retention over a real LSP connection', () => {
  test('initializationOptions.retention applies at load; setRetention applies at once and is announced', async () => {
    const out = tmp('stage-lens-retention-build-');
    buildSync({
      absWorkingDir: ROOT,
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      logLevel: 'warning',
      outdir: out,
      entryPoints: { server: 'server/lsp/main.ts' },
    });
    const storage = tmp('stage-lens-retention-lsp-');
    const t0 = Date.UTC(2025, 6, 24, 10);
    for (let i = 0; i < 4; i++) saveSession(storage, `lsp${i}`, t0 + i * 1000, 'stopped');

    const child = spawn(process.execPath, [path.join(out, 'server.js'), '--stdio'], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    children.push(child);
    const connection = createProtocolConnection(
      new StreamMessageReader(child.stdout!),
      new StreamMessageWriter(child.stdin!),
    );
    const announced: string[][] = [];
    connection.onNotification('stageLens/sessionsRemoved', (p: ClientNotifications['stageLens/sessionsRemoved']) => {
      announced.push([...p.sessionIds]);
    });
    connection.listen();
    await connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: null,
      capabilities: {},
      initializationOptions: { storageDir: storage, retention: { maxSessions: 2 } },
    });
    await connection.sendNotification(InitializedNotification.type, {});

    const listed = (await connection.sendRequest('stageLens/listSessions', {})) as SessionInfo[];
    assert.deepEqual(
      listed.map((s) => s.id),
      ['lsp3', 'lsp2'],
    );
    assert.deepEqual(onDisk(storage), ['lsp2', 'lsp3']);

    const result = (await connection.sendRequest('stageLens/setRetention', { maxSessions: 1 })) as {
      removed: string[];
    };
    assert.deepEqual(result.removed, ['lsp2']);
    await waitFor('the removal notification', () => (announced.some((ids) => ids.includes('lsp2')) ? true : undefined));
    assert.deepEqual(onDisk(storage), ['lsp3']);
    // A malformed limit keeps the current one (nothing more deleted, no error).
    assert.deepEqual(
      ((await connection.sendRequest('stageLens/setRetention', { maxSessions: -3 })) as { removed: string[] }).removed,
      [],
    );
    assert.deepEqual(
      ((await connection.sendRequest('stageLens/listSessions', {})) as SessionInfo[]).map((s) => s.id),
      ['lsp3'],
    );
    connection.dispose();
    child.kill('SIGKILL');
  });
});

/** waitFor with this file's defaults (10_000 ms, every 50 ms). */
function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 10_000): Promise<T> {
  return waitUntil(what, probe, timeoutMs, 50);
}
