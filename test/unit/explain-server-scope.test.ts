// One server of a merged log (kubectl logs --prefix) in the editor's queries: the scope's rows,
// its summary's server list, its engines' gauges; and load at arrival, where one pod's requests
// never count another's in flight (each pod queues its own).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAtArrival } from '../../server/core/explain/loadAtArrival';
import { rowsInScope, scopeCutsRows, scopeKey } from '../../server/core/explain/scope';
import { gaugeInScope, gaugeScopeOf } from '../../server/core/explain/gaugeScope';
import { tailAttribution } from '../../server/core/explain/tailAttribution';
import type { GaugeSamples } from '../../server/core/explain/types';
import { analyse, asyncChunk, BOOT_LINE, renderRequest } from './support/explainLogs';

const at = (s: number): string => `10-22 09:00:${String(s).padStart(2, '0')}`;
const POD_A = 'pod/vllm-omni-0/vllm';
const POD_B = 'pod/vllm-omni-1/vllm';

/** Every line of `text` with the tag kubectl logs --prefix puts before a pod's lines. */
function tagged(server: string, text: string): string {
  return text
    .split('\n')
    .map((line) => (line === '' ? line : `[${server}] ${line}`))
    .join('\n');
}

/**
 * Pod A: 800 ms requests finishing at 10, 16 and 18 s, and a 5,000 ms one finishing at 20 s
 * (arrival 15.5 s), which A's requests arriving at 15.7 and 17.7 s find in flight. Pod B: 800 ms
 * requests finishing at 16 and 18 s, arriving while A's slow one ran, on another GPU. Lines in
 * the order the merged stream prints them (by finish).
 */
function mergedLog(): string {
  const a = (id: string, extra: number, s: number): string =>
    tagged(POD_A, renderRequest(asyncChunk(id, extra, at(s))));
  const b = (id: string, s: number): string => tagged(POD_B, renderRequest(asyncChunk(id, 0, at(s))));
  return [
    tagged(POD_A, BOOT_LINE(at(0))),
    tagged(POD_B, BOOT_LINE(at(0))),
    a('a-10', 0, 10),
    a('a-16', 0, 16),
    b('b-16', 16),
    a('a-18', 0, 18),
    b('b-18', 18),
    a('a-slow', 4200, 20),
  ].join('');
}

test("a merged log's index: each row's server, the servers' request counts, one server's rows", () => {
  const { index } = analyse(mergedLog());
  assert.deepEqual(
    Array.from({ length: index.length }, (_, i) => [index.requestId(i), index.server(i)]),
    [
      ['a-10', POD_A],
      ['a-16', POD_A],
      ['b-16', POD_B],
      ['a-18', POD_A],
      ['b-18', POD_B],
      ['a-slow', POD_A],
    ],
  );
  assert.deepEqual(index.serverCounts(), {
    servers: [
      { server: POD_A, requests: 4 },
      { server: POD_B, requests: 2 },
    ],
    untagged: 0,
  });
  const ids = (scope: Parameters<typeof rowsInScope>[1]): string[] =>
    [...rowsInScope(index, scope)].map((i) => index.requestId(i));
  assert.ok(scopeCutsRows({ server: POD_B }));
  assert.deepEqual(ids({ server: POD_B }), ['b-16', 'b-18']);
  assert.deepEqual(ids({ server: POD_A, excludeCold: true }), ['a-16', 'a-18', 'a-slow']);
  assert.deepEqual(ids({ server: 'pod/nowhere/vllm' }), []);
  // Scopes of different servers are different keys (cached answers are never shared).
  assert.notEqual(scopeKey(index, { server: POD_A }), scopeKey(index, { server: POD_B }));
  assert.notEqual(scopeKey(index, { server: POD_A }), scopeKey(index, {}));
});

test("load at arrival in a merged log: a pod's requests count only that pod's in flight", () => {
  const { index } = analyse(mergedLog());
  assert.deepEqual(
    Array.from({ length: index.length }, (_, i) => [index.requestId(i), index.inFlight.count(i)]),
    [
      ['a-10', 0],
      // A's slow request (15.5-19.5 s) was in flight when a-16 (15.7 s) and a-18 (17.7 s) arrived.
      ['a-16', 1],
      // b-16 and b-18 arrived then too, on the other pod: nothing of A's is theirs to wait for.
      ['b-16', 0],
      ['a-18', 1],
      ['b-18', 0],
      ['a-slow', 0],
    ],
  );
  const b = loadAtArrival(index, { target: 'e2e', quantile: 'p90', scope: { server: POD_B } })!;
  assert.equal(b.arrivalsKnown, 2);
  assert.equal(b.inFlight.all?.mean, 0);
  const a = loadAtArrival(index, { target: 'e2e', quantile: 'p90', scope: { server: POD_A } })!;
  assert.equal(a.arrivalsKnown, 4);
  assert.equal(a.inFlight.all?.mean, 2 / 4);
});

test("one server's tail: the tail of its own requests, in the live index too", () => {
  for (const live of [false, true]) {
    const { index } = analyse(mergedLog(), { live });
    const b = tailAttribution(index, { target: 'e2e', quantile: 'p90', scope: { server: POD_B } });
    assert.equal(b?.scopeCount, 2, `live ${live}`);
    assert.equal(b?.thresholdMs, 800);
    const whole = tailAttribution(index, { target: 'e2e', quantile: 'p90', scope: {} });
    assert.equal(whole?.scopeCount, 6);
    assert.equal(whole?.thresholdMs, 2900, `live ${live}`);
  }
});

test("one server's gauges: its own engines' samples; another server's engine and an untagged one have none", () => {
  const gauge = (server: string | undefined): GaugeSamples => ({
    stage: '0',
    replica: '0',
    source: 'log',
    engine: '000',
    ...(server === undefined ? {} : { server }),
    mapping: 'inferred',
    times: [1000, 2000],
    boots: [1, 1],
    running: [3, 4],
    waiting: [0, 1],
    kvCacheUsagePerc: [10, 20],
  });
  assert.deepEqual(gaugeScopeOf({ server: POD_A, excludeCold: true }), { server: POD_A });
  assert.deepEqual(gaugeInScope(gauge(POD_A), { server: POD_A }).running, [3, 4]);
  assert.deepEqual(gaugeInScope(gauge(POD_A), { server: POD_A, fromMs: 1500 }).running, [4]);
  assert.deepEqual(gaugeInScope(gauge(POD_B), { server: POD_A }).times, []);
  assert.deepEqual(gaugeInScope(gauge(undefined), { server: POD_A }).times, []);
});
