// A log of a vLLM-Omni fork that spells the phase split its own way (Timez-zx/vllm-omni:
// vllm_queue_ms, no vllm_decode_ms at all) through the built CLI: its queued values are read, and
// its missing decode row is not taken for the one-output signature of a hidden decode.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { runCli as cli } from './support/cliProcess';

const ROOT = path.resolve(__dirname, '..', '..');
const FORK = path.join(ROOT, 'test', 'fixtures', 'logs', 'fork-timez-vllm-queue-ms.log');

type Cells = Record<string, number | string | null>;

interface Json {
  problems: unknown[];
  findings: { code: string }[];
  requests: {
    requestId: string;
    e2e: Cells;
    stages: Record<string, { stageId: number; fields: Cells; split: Cells; splitState: Record<string, string> }>;
  }[];
}

test('--format json: vllm_queue_ms is the queued interval; decode is not measured, not hidden', () => {
  const out = cli(['analyze', FORK, '--format', 'json']);
  assert.equal(out.status, 0, out.stderr);
  const j = JSON.parse(out.stdout) as Json;
  assert.deepEqual(j.problems, []);
  assert.deepEqual(
    j.requests.map((r) => r.requestId),
    ['chatcmpl-9f1e6b27c04d4a53', 'chatcmpl-b27c5e90aa3f4c18'],
  );
  const split = (r: number, s: string) => {
    const stage = j.requests[r]?.stages[s];
    return [stage?.split.queuedMs, stage?.split.prefillMs, stage?.split.decodeMs, stage?.split.ttftMs];
  };
  assert.deepEqual(split(0, '0'), [0.436, 157.981, null, 158.912]);
  assert.deepEqual(split(0, '1'), [0.212, 26.844, null, 27.305]);
  assert.deepEqual(split(0, '2'), [0.095, 11.871, null, 12.03]);
  assert.deepEqual(split(1, '0'), [1.208, 222.73, null, 224.406]);
  assert.deepEqual(split(1, '1'), [0.187, 29.602, null, 30.117]);
  assert.deepEqual(split(1, '2'), [0.102, 11.509, null, 11.644]);
  const first = j.requests[0]?.stages['0'];
  assert.deepEqual(first?.splitState, {
    queuedMs: 'measured',
    inputWaitMs: 'hidden',
    readyQueuedMs: 'hidden',
    prefillMs: 'measured',
    decodeMs: 'notMeasured',
    ttftMs: 'measured',
  });
  // The printed rows stay under their printed names.
  assert.equal(first?.fields['vllm_queue_ms'], 0.436);
  assert.equal(first?.fields['num_cached_tokens'], 1024);
  assert.equal(first?.fields['vllm_decode_ms'], undefined);
  assert.deepEqual(j.requests[0]?.e2e, { e2e_total_ms: 5904.617, e2e_total_tokens: 1674 });
  // The thinker and talker streamed 58 and 412 outputs: no one-output claim from a row the build never prints.
  assert.deepEqual(
    j.findings.map((f) => f.code),
    ['stage-times-overlap'],
  );
});

test('table: queued percentiles from vllm_queue_ms, prefill alone, decode not measured', () => {
  const out = cli(['analyze', FORK]);
  assert.equal(out.status, 0, out.stderr);
  const row = (label: string) => out.stdout.split('\n').find((l) => l.startsWith(label)) ?? '';
  assert.match(row('0      2  p50'), /^0 {6}2 {2}p50 {3}0\.822 {4}190\.4 {2}not measured {2}191\.7 /);
  assert.match(out.stdout, /Slowest phase \(p50, [^)]*\): stage 0 prefill 190\.4 ms\n/);
  assert.doesNotMatch(out.stdout, /\+decode|prefill\+decode/);
  assert.match(out.stdout, /stage 0 decode: 2 not measured .* of 2/);
});
