// Replicas and preemptions over a real connection (dist/server.js, a child process on stdio):
// a stage that ran on two replicas has each replica's summary beside the stage's, as the CLI's
// table prints them (whole session and a scope alike); the tail of a log with a preempted
// request comes with explain's "Preemptions" answer for the target and quantile asked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { startLanguageServer, storageForFile, type LspProcess } from './support/lspProcess';

const ROOT = path.resolve(__dirname, '..', '..');
const LOGS = path.join(ROOT, 'test/fixtures/logs');
const storage = storageForFile('stage-lens-lsp-replicas-');

async function imported(lsp: LspProcess, log: string): Promise<string> {
  const session = await lsp.importLog(path.join(LOGS, log));
  return session.id;
}

test('a stage on two replicas: per-replica summaries beside the stage, over the session and over a scope', async () => {
  const lsp = await startLanguageServer(storage);
  const sessionId = await imported(lsp, 'codec-two-replicas.log');
  const summary = await lsp.request('stageLens/summary', { sessionId });
  assert.deepEqual(
    summary.stages.map((s) => [s.stageKey, s.replicaId, s.requestCount]),
    [
      ['0', null, 8],
      ['1', null, 8],
    ],
  );
  // The CLI's table: stage 1 replica 0 n=4 decode p50 508.3, replica 1 n=4 decode p50 789.0.
  const replicas = summary.replicas ?? [];
  assert.deepEqual(
    replicas.map((r) => [r.stageKey, r.replicaId, r.requestCount, Number(r.split.decodeMs?.p50.toFixed(1))]),
    [
      ['1', 0, 4, 508.3],
      ['1', 1, 4, 789],
    ],
  );
  // The request table sorts by the replica a stage ran on.
  const page = await lsp.request('stageLens/requests', { sessionId, offset: 0, limit: 8, sortBy: '1.replica' });
  assert.deepEqual(
    page.requests.map((r) => r.stages.find((s) => s.stageKey === '1')?.replicaId),
    [0, 0, 0, 0, 1, 1, 1, 1],
  );
  const descending = await lsp.request('stageLens/requests', {
    sessionId,
    offset: 0,
    limit: 1,
    sortBy: '1.replica',
    descending: true,
  });
  assert.equal(descending.requests[0]?.stages.find((s) => s.stageKey === '1')?.replicaId, 1);
  // Filtered to one replica of the stage.
  const onReplica1 = await lsp.request('stageLens/requests', {
    sessionId,
    offset: 0,
    limit: 8,
    stageId: 1,
    replicaId: 1,
  });
  assert.equal(onReplica1.total, 4);
  assert.deepEqual(
    onReplica1.requests.map((r) => r.stages.find((s) => s.stageKey === '1')?.replicaId),
    [1, 1, 1, 1],
  );
  // Cold left out (a scope): replica 1 keeps 3 requests, its decode p50 1,289.
  const scoped = await lsp.request('stageLens/summary', { sessionId, scope: { excludeCold: true } });
  assert.deepEqual(
    (scoped.replicas ?? []).map((r) => [r.replicaId, r.requestCount, Math.round(r.split.decodeMs?.p50 ?? -1)]),
    [
      [0, 4, 508],
      [1, 3, 1289],
    ],
  );
});

test("the tail answer carries explain's preemptions for the target and quantile asked", async () => {
  const lsp = await startLanguageServer(storage);
  const sessionId = await imported(lsp, 'preempted-decode.log');
  const tail = await lsp.request('stageLens/tailAttribution', { sessionId, target: 'e2e', quantile: 'p95' });
  const p = tail.preemptions ?? null;
  assert.notEqual(p, null);
  // As `stage-lens explain` prints it for this log.
  assert.equal(p?.target, 'e2e');
  assert.equal(p?.quantile, 'p95');
  assert.equal(p?.reading, 'notOverRepresented');
  assert.equal(
    p?.readingText,
    'The one request in the p95 tail printed no preemption: preemption does not explain it.',
  );
  assert.deepEqual(p?.stages, [{ stageKey: '0', stageId: 0, tailPreempted: 0, allPreempted: 1 }]);
  assert.equal(p?.scopeCount, 12);

  // A log where no request printed a preemption: null, not a section of zeros.
  const other = await imported(lsp, 'codec-two-replicas.log');
  const none = await lsp.request('stageLens/tailAttribution', { sessionId: other, target: 'e2e', quantile: 'p99' });
  assert.equal(none.preemptions, null);
});
