// A request vLLM preempted (vllm_num_preemptions > 0) lost time waiting to be scheduled again,
// inside its decode (queued ends at the first scheduling), or inside the prefill of a stage
// whose prefill covers its decode. Said per stage with the preempted requests' stage time
// against the stage's median; never from a hidden row (zero or not measured) or a None.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { analysedLog } from './support/analysedLog';
import { withDeployEvidence } from '../../server/capture/deployEvidence';
import { omniPreemptionLog } from './support/simulatedLog';

const LOGS = path.join(__dirname, '../fixtures/logs');
const DEPLOY = path.join(__dirname, '../fixtures/deploy');
const PREEMPTIONS_ROW = '| vllm_num_preemptions            |             1 |';

function preemptedFindings(log: string | Uint8Array) {
  return analysedLog(log).findings.filter((f) => f.code === 'preempted-requests');
}

test('a preempted request of a stage that decodes: the wait is in its decode; one request is no median', () => {
  const [finding, ...rest] = preemptedFindings(path.join(LOGS, 'preempted-decode.log'));
  assert.equal(rest.length, 0);
  assert.equal(finding?.stageId, 0);
  assert.deepEqual(finding?.requestIds, ['speech-d34eb664fcd0188b']);
  const message = finding?.message ?? '';
  assert.match(message, /^Stage 0 · talker preempted 1 of 12 requests \(once\): /);
  assert.match(message, /so the wait for the next is inside their vllm_decode_ms:/);
  assert.doesNotMatch(message, /median/);
});

test('on a one-output stage the wait is in the prefill that covers its decode', () => {
  const [finding, ...rest] = preemptedFindings(path.join(LOGS, 'preempted-one-output.log'));
  assert.equal(rest.length, 0);
  assert.deepEqual(finding?.requestIds, ['speech-d1e1925cf118b34c', 'speech-42a97bf7817ee91b']);
  const message = finding?.message ?? '';
  assert.match(message, /^Stage 0 · talker preempted 2 of 12 requests \(once each\): /);
  assert.match(message, /inside their vllm_prefill_ms, which covers their decode \(the stage emits one output\)/);
  // Two of twelve: too few for a median against the stage's.
  assert.doesNotMatch(message, /median/);
});

test('a None count (not measured) and a hidden row (zero or not measured) are no preemption', () => {
  const text = readFileSync(path.join(LOGS, 'preempted-decode.log'), 'utf8');
  assert.ok(text.includes(PREEMPTIONS_ROW));
  const none = text.replace(PREEMPTIONS_ROW, '| vllm_num_preemptions            |          None |');
  assert.deepEqual(preemptedFindings(Buffer.from(none)), []);
  const hidden = text
    .split('\n')
    .filter((line) => !line.includes('| vllm_num_preemptions '))
    .join('\n');
  assert.deepEqual(preemptedFindings(Buffer.from(hidden)), []);
});

test('a deploy config adds the settings that bound the stage KV-cache room, with their lines', () => {
  const findings = withDeployEvidence(
    analysedLog(path.join(LOGS, 'preempted-decode.log')).findings,
    path.join(DEPLOY, 'qwen3_tts.yaml'),
    [0, 1],
  );
  const message = findings.find((f) => f.code === 'preempted-requests')?.message ?? '';
  assert.match(
    message,
    / The deploy config qwen3_tts\.yaml gives stage 0 gpu_memory_utilization: 0\.3 \(qwen3_tts\.yaml line 65\), max_num_seqs: 64 \(qwen3_tts\.yaml line 64\), max_num_batched_tokens: 32768 \(qwen3_tts\.yaml line 69\)\.$/,
  );
});

test("vLLM-Omni's own tables: the after-fix talker's preempted request", () => {
  const upstream = path.join(__dirname, '../fixtures/upstream-rendered/qwen3tts-talker-first-audio-after-fix.log');
  const [finding, ...rest] = preemptedFindings(upstream);
  assert.equal(rest.length, 0);
  assert.equal(finding?.stageId, 0);
  assert.equal(finding?.requestCount, 1);
  assert.match(finding?.message ?? '', /^Stage 0 preempted 1 of 6 requests \(once\): /);
  assert.doesNotMatch(finding?.message ?? '', /median/);
});

test("enough preempted requests, a small share of the stage: their stage time's median against the stage's, above or not", () => {
  const findings = preemptedFindings(Buffer.from(omniPreemptionLog()));
  assert.deepEqual(
    findings.map((f) => [f.stageId, f.requestCount]),
    [
      [0, 14],
      [1, 9],
    ],
  );
  assert.match(
    findings[0]?.message ?? '',
    /Their stage_gen_time_ms has a median of 1,564 ms, not above the 1,848 ms over all 300 requests of the stage \(these included\): here the preemptions cost them little\./,
  );
  assert.match(
    findings[1]?.message ?? '',
    /Their stage_gen_time_ms has a median of 11,532 ms, above the 10,645 ms over all 300 requests of the stage \(these included\)\./,
  );
});

test('a stage already at 0.9 of the GPU: raising gpu_memory_utilization is said to leave little to give', () => {
  const findings = withDeployEvidence(
    analysedLog(Buffer.from(omniPreemptionLog())).findings,
    path.join(DEPLOY, 'qwen3_omni_moe.yaml'),
    [0, 1, 2],
  ).filter((f) => f.code === 'preempted-requests');
  assert.match(
    findings[0]?.message ?? '',
    /gives stage 0 gpu_memory_utilization: 0\.9 \(qwen3_omni_moe\.yaml line 27\), .* At 0\.9 of the GPU there is little memory left to give it: fewer requests or tokens a step, or more replicas\.$/,
  );
  assert.match(findings[1]?.message ?? '', /gives stage 1 gpu_memory_utilization: 0\.6 .*line 40\)\.$/);
});
