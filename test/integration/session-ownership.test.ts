// The owner lock follows a window's capture (a registry in this process, real files, a real
// child process): held from the session's creation, released when the capture ends on its
// own (a process that exits), on Stop, or on an error; taken again when a tailed path that
// was in error becomes readable, with its status written again. Once released, the session
// is like any saved one: retention may delete it.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SessionFiles } from '../../server/capture/sessionFiles';
import { SessionRegistry } from '../../server/capture/sessionRegistry';
import { realSourceFactories } from '../../server/capture/sourceFactories';
import { readLockState } from '../../server/capture/storage/ownerLock';
import { waitFor } from './support/waitFor';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-ownership-'));
const storage = path.join(dir, 'storage');
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const lockOf = (id: string): string => readLockState(path.join(storage, 'sessions', id)).kind;
const storedStatus = (id: string): string | undefined => new SessionFiles(storage, id).readMeta()?.info.status;

test(
  'the lock is held while capturing, released when the capture ends or fails, taken again on recovery',
  { timeout: 30_000 },
  async () => {
    const registry = new SessionRegistry(
      storage,
      realSourceFactories(() => undefined),
      { sessionChanged: () => undefined, rawOutput: () => undefined },
      { scanIntervalMs: 0 },
    );
    registry.loadSaved();
    try {
      // A process that exits by itself.
      const launched = registry.launch({
        argv: [process.execPath, '-e', 'setTimeout(() => console.log("done"), 300)'],
        cwd: dir,
      });
      assert.equal(lockOf(launched.id), 'held');
      await waitFor(
        'the process to exit',
        () => (registry.info(launched.id)?.status === 'exited' ? true : undefined),
        10_000,
      );
      assert.equal(lockOf(launched.id), 'free');
      assert.deepEqual(registry.info(launched.id)?.access, { readOnly: false, ownerPid: null, loaded: true });

      // A tailed path that is a folder (an error), then a file.
      const target = path.join(dir, 'server.log');
      fs.mkdirSync(target);
      const tailed = registry.tail({ path: target, fromStart: true });
      await waitFor('the tail error', () => (registry.info(tailed.id)?.status === 'error' ? true : undefined), 10_000);
      assert.equal(lockOf(tailed.id), 'free');
      assert.equal(storedStatus(tailed.id), 'error');
      fs.rmdirSync(target);
      fs.writeFileSync(target, 'INFO 07-24 10:00:00 [api_server.py:1] Started server process\n');
      await waitFor(
        'the tail to recover',
        () => (registry.info(tailed.id)?.status === 'running' ? true : undefined),
        10_000,
      );
      assert.equal(lockOf(tailed.id), 'held');
      assert.equal(storedStatus(tailed.id), 'running', 'the status is written again by the owner');
      assert.deepEqual(registry.info(tailed.id)?.access, { readOnly: false, ownerPid: process.pid, loaded: true });

      // Stop: released; retention may now delete the older, finished session.
      await registry.stop(tailed.id);
      assert.equal(lockOf(tailed.id), 'free');
      assert.deepEqual(registry.setRetention({ maxSessions: 1 }), [launched.id]);
      assert.deepEqual(SessionFiles.listIds(storage), [tailed.id]);
    } finally {
      await registry.dispose();
    }
  },
);
