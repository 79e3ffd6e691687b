// A request vLLM preempted (vllm_num_preemptions > 0) lost time waiting to be scheduled again
// (queued ends at the first scheduling): inside its prefill and TTFT when preempted before its
// first token, inside its decode when after. The count does not say when, so the finding says
// "prefill or decode" unless the fields place it: a vllm_decode_ms of a measured 0 (first token =
// last token) puts it in the prefill, and a one-output stage's prefill covers its decode. Said
// per stage with the preempted requests' stage time against the stage's median; never from a
// hidden row (zero or not measured) or a None.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { analysedLog } from './support/analysedLog';
import { withDeployEvidence } from '../../server/capture/deployEvidence';
import { omniPreemptionLog } from './support/simulatedLog';
import { preemptionCaveat } from '../../server/core/analysis/preemptions';

const LOGS = path.join(__dirname, '../fixtures/logs');
const DEPLOY = path.join(__dirname, '../fixtures/deploy');
const PREEMPTIONS_ROW = '| vllm_num_preemptions            |             1 |';

function preemptedFindings(log: string | Uint8Array) {
  return analysedLog(log).findings.filter((f) => f.code === 'preempted-requests');
}

test('a preempted request of a stage that decodes: the wait is in its prefill or its decode, the count does not say which; one request is no median', () => {
  const [finding, ...rest] = preemptedFindings(path.join(LOGS, 'preempted-decode.log'));
  assert.equal(rest.length, 0);
  assert.equal(finding?.stageId, 0);
  assert.deepEqual(finding?.requestIds, ['speech-d34eb664fcd0188b']);
  // Its talker: prefill 46.513, decode 940.155 ms, 63 tokens out: preempted before or after its first token.
  assert.equal(
    finding?.message,
    'Stage 0 · talker preempted 1 of 12 requests (once): vLLM took their KV-cache blocks for other requests and scheduled them again later. ' +
      'vllm_queued_ms ends at the first scheduling, so the wait for the next is inside their vllm_prefill_ms or their vllm_decode_ms ' +
      '(before their first token it is in the prefill and the TTFT, after it in the decode; vllm_num_preemptions counts the preemptions, not when they came): ' +
      'time lost for want of KV-cache room, not spent on their tokens. ' +
      'Fewer preemptions take more KV-cache room per request: a higher gpu_memory_utilization, or a lower max_num_seqs or max_num_batched_tokens for the stage.',
  );
});

test('a vllm_decode_ms of a measured 0 (one token) places the wait before the first token: in the prefill and the TTFT', () => {
  const text = readFileSync(path.join(LOGS, 'preempted-decode.log'), 'utf8');
  const rows: [string, string][] = [
    [
      '| num_tokens_out                  |            63 |             4 |',
      '| num_tokens_out                  |             1 |             4 |',
    ],
    [
      '| vllm_decode_ms                  |       940.155 |       938.619 |',
      '| vllm_decode_ms                  |         0.000 |       938.619 |',
    ],
  ];
  let oneToken = text;
  for (const [from, to] of rows) {
    assert.ok(oneToken.includes(from), from);
    oneToken = oneToken.replace(from, to);
  }
  const [finding, ...rest] = preemptedFindings(Buffer.from(oneToken));
  assert.equal(rest.length, 0);
  assert.deepEqual(finding?.requestIds, ['speech-d34eb664fcd0188b']);
  assert.match(
    finding?.message ?? '',
    / vllm_queued_ms ends at the first scheduling, so the wait for the next is inside their vllm_prefill_ms and vllm_ttft_ms \(their vllm_decode_ms is 0: the preemption came before their first token\): time lost for want of KV-cache room, not spent on their tokens\. /,
  );
  // The timeline's caveat says the same phase.
  const request = analysedLog(Buffer.from(oneToken)).requests.find((r) => r.requestId === 'speech-d34eb664fcd0188b');
  const talker = request?.stages.find((s) => s.stageKey === '0');
  assert.ok(request !== undefined && talker !== undefined);
  assert.equal(
    preemptionCaveat(request, talker),
    'preempted once: its prefill includes the wait to be scheduled again',
  );
});

test("the timeline's caveat: prefill or decode where the fields do not say which", () => {
  const request = analysedLog(path.join(LOGS, 'preempted-decode.log')).requests.find(
    (r) => r.requestId === 'speech-d34eb664fcd0188b',
  );
  const [talker, codec] = request?.stages ?? [];
  assert.ok(request !== undefined && talker !== undefined && codec !== undefined);
  assert.equal(
    preemptionCaveat(request, talker),
    'preempted once: its prefill or decode includes the wait to be scheduled again',
  );
  // The codec printed a measured 0: no preemption.
  assert.equal(preemptionCaveat(request, codec), null);
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
