// How long a live stream must be quiet before its last request is final (idleFlush.ts): the
// same for the language server's sessions and the CLI's live table; a followed file's bytes
// come once per poll, so its quiet counts beyond the poll interval.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IDLE_FLUSH_MS, idleWaitMs, quietSince } from '../../server/capture/idleFlush';
import { TailSource } from '../../server/capture/tailSource';

test('a pushed stream waits 300 ms; a followed file 300 ms beyond its poll interval', () => {
  assert.equal(IDLE_FLUSH_MS, 300);
  assert.equal(idleWaitMs([]), 300);
  assert.equal(idleWaitMs([{}]), 300);
  assert.equal(idleWaitMs([new TailSource({ path: '/nonexistent/server.log', fromStart: true })]), 550);
  assert.equal(
    idleWaitMs([{}, new TailSource({ path: '/nonexistent/a.log', fromStart: true, intervalMs: 1000 })]),
    1300,
  );
});

test('quiet once the wait has passed since the last chunk, not before', () => {
  assert.equal(quietSince(10_000, 550, 10_549), false);
  assert.equal(quietSince(10_000, 550, 10_550), true);
});
