// The owner lock of a session folder between real processes: a live holder keeps it; a
// holder killed with SIGKILL leaves a stale lock that is taken over at once; a pid that now
// names another process, and a holder on another machine that stopped its heartbeat, are
// gone too; of several processes taking over one stale lock at the same instant, exactly
// one gets it; a holder whose lock was taken over learns it at its next heartbeat.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LOCK_FILE, OwnerLock, readLockState, STALE_AFTER_MS } from '../../server/capture/storage/ownerLock';
import { selfIdentity } from '../../server/capture/storage/processIdentity';

const ROOT = path.resolve(__dirname, '..', '..');
const HOLDER = path.join(ROOT, 'test', 'integration', 'support', 'lockHolder.ts');

function tmp(t: { after(fn: () => void): void }): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-lock-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function run(args: string[]): { child: ChildProcess; line: Promise<string> } {
  const child = spawn(process.execPath, ['--import', 'tsx', HOLDER, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = new Promise<string>((resolve) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (out.includes('\n')) resolve(out.trim());
    });
    child.once('exit', () => resolve(out.trim()));
  });
  return { child, line };
}

function writeLock(dir: string, record: Record<string, unknown>): void {
  fs.writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify(record));
}

test('a live holder keeps the lock; killed with SIGKILL, its lock is stale and taken over at once', async (t) => {
  const dir = tmp(t);
  const holder = run([dir, 'hold']);
  t.after(() => {
    holder.child.kill('SIGKILL');
  });
  assert.match(await holder.line, /^locked [0-9a-f]+$/);
  const held = readLockState(dir);
  assert.equal(held.kind, 'held');
  assert.equal(held.kind === 'held' ? held.owner?.pid : null, holder.child.pid);
  assert.equal(OwnerLock.acquire(dir), null, 'a live holder is never taken over');

  holder.child.kill('SIGKILL');
  await new Promise((r) => holder.child.once('exit', r));
  const stale = readLockState(dir);
  assert.equal(stale.kind, 'stale', 'no heartbeat wait: the process is gone');
  const mine = OwnerLock.acquire(dir);
  assert.ok(mine !== null);
  const onDisk = JSON.parse(fs.readFileSync(path.join(dir, LOCK_FILE), 'utf8')) as { pid: number; token: string };
  assert.deepEqual([onDisk.pid, onDisk.token], [process.pid, mine.token]);
  mine.release();
  assert.equal(readLockState(dir).kind, 'free');
});

test('a pid that names another process now, and a silent holder on another machine, are gone', (t) => {
  const dir = tmp(t);
  const me = selfIdentity();
  // This test's own parent process is alive, but started at another time than the lock says.
  writeLock(dir, {
    pid: process.ppid,
    host: me.host,
    bootId: me.bootId,
    startTicks: '1',
    token: 'old',
    heartbeatAt: Date.now(),
  });
  assert.equal(readLockState(dir).kind, me.startTicks === null ? 'held' : 'stale');
  // Another boot of this machine.
  writeLock(dir, {
    pid: process.pid,
    host: me.host,
    bootId: 'another-boot',
    startTicks: me.startTicks,
    token: 'old',
    heartbeatAt: Date.now(),
  });
  assert.equal(readLockState(dir).kind, me.bootId === null ? 'held' : 'stale');
  // Another machine sharing the folder: only its heartbeat counts.
  writeLock(dir, {
    pid: 1,
    host: 'build-host-2',
    bootId: null,
    startTicks: null,
    token: 'remote',
    heartbeatAt: Date.now(),
  });
  assert.equal(readLockState(dir).kind, 'held');
  writeLock(dir, {
    pid: 1,
    host: 'build-host-2',
    bootId: null,
    startTicks: null,
    token: 'remote',
    heartbeatAt: Date.now() - STALE_AFTER_MS - 1,
  });
  assert.equal(readLockState(dir).kind, 'stale');
  // An unreadable lock counts as held while it is recent (being written), stale once old.
  fs.writeFileSync(path.join(dir, LOCK_FILE), '{"pid": 12');
  assert.equal(readLockState(dir).kind, 'held');
  const old = (Date.now() - STALE_AFTER_MS - 1000) / 1000;
  fs.utimesSync(path.join(dir, LOCK_FILE), old, old);
  assert.equal(readLockState(dir).kind, 'stale');
});

test(
  'processes taking over one stale lock at the same instant: exactly one gets it',
  { timeout: 60_000 },
  async (t) => {
    const dir = tmp(t);
    for (let round = 0; round < 4; round++) {
      writeLock(dir, {
        pid: 1,
        host: 'gone-host',
        bootId: null,
        startTicks: null,
        token: `stale-${round}`,
        heartbeatAt: 0,
      });
      const goAt = Date.now() + 2500;
      const racers = [
        run([dir, 'race', String(goAt)]),
        run([dir, 'race', String(goAt)]),
        run([dir, 'race', String(goAt)]),
      ];
      const lines = await Promise.all(racers.map((r) => r.line));
      const winners = lines.filter((l) => l.startsWith('locked'));
      assert.equal(winners.length, 1, `round ${round}: ${lines.join(' | ')}`);
      const token = (JSON.parse(fs.readFileSync(path.join(dir, LOCK_FILE), 'utf8')) as { token: string }).token;
      assert.equal(winners[0], `locked ${token}`);
      assert.ok(!fs.existsSync(path.join(dir, `${LOCK_FILE}.takeover`)), 'the takeover marker is gone');
    }
  },
);

test('a holder whose lock was taken over learns it at its next heartbeat and does not remove the new one', (t) => {
  const dir = tmp(t);
  const first = OwnerLock.acquire(dir);
  assert.ok(first !== null);
  // Another process judged this holder gone (as from another machine, after its heartbeat stopped).
  writeLock(dir, {
    pid: 1,
    host: 'build-host-2',
    bootId: null,
    startTicks: null,
    token: 'theirs',
    heartbeatAt: Date.now(),
  });
  assert.equal(first.heartbeat(), false);
  first.release();
  assert.equal((JSON.parse(fs.readFileSync(path.join(dir, LOCK_FILE), 'utf8')) as { token: string }).token, 'theirs');
});
