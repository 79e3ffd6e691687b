// Under a later stage's first output, the stages upstream count only up to the instant that
// stage had its input, where the first output is then the stage's own (upstreamCut.ts): its
// wait for a slot after its input was ready is its own part, in the shares, not the upstream
// stage's time seen from downstream. Expectations by hand from asyncChunk's numbers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { additiveTail } from '../../server/core/explain/overlapApart';
import { tailAttribution } from '../../server/core/explain/tailAttribution';
import type { TailAttribution } from '../../server/core/explain/types';
import { analyseSpecs, asyncChunk, int, type RequestSpec } from './support/explainLogs';

const close = (actual: number | null | undefined, expected: number, what: string): void => {
  assert.ok(
    actual !== null && actual !== undefined && Math.abs(actual - expected) < 1e-6,
    `${what}: ${actual} != ${expected}`,
  );
};
const partOf = (t: TailAttribution, key: string) => t.parts.find((p) => p.key === key);

type Fields = Record<string, number>;
const add = (f: Fields, name: string, ms: number): void => {
  f[name] = (f[name] as number) + ms;
};

/**
 * asyncChunk, and in `slow` requests a busy codec: it has its input at 162 ms as always, then
 * waits 1,000 ms longer for a slot, while the talker decodes 1,000 ms longer (high load slows both).
 */
function busyCodec(slow: (i: number) => boolean): RequestSpec[] {
  return Array.from({ length: 20 }, (_, i) => {
    const spec = asyncChunk(`speech-${String(i).padStart(2, '0')}`) as RequestSpec & { e2eMs: number };
    if (!slow(i)) return spec;
    const stages = spec.stages as Record<string, Fields>;
    const talker = stages['0'] as Fields;
    const codec = stages['1'] as Fields;
    add(talker, 'vllm_decode_ms', 1000);
    add(talker, 'stage_gen_time_ms', 1000);
    for (const name of [
      'vllm_ready_queued_ms',
      'vllm_queued_ms',
      'vllm_ttft_ms',
      'serving_time_to_first_output_ms',
      'stage_gen_time_ms',
    ])
      add(codec, name, 1000);
    return { ...spec, e2eMs: spec.e2eMs + 1000 };
  });
}

test("a codec waiting for a slot after its input came: its ready queued explains its first output, not the talker's work alongside", () => {
  const { index } = analyseSpecs(busyCodec((i) => i === 7 || i === 13));
  const t = tailAttribution(index, { target: 'stage1.firstOutput', quantile: 'p95', scope: {} })!;
  assert.equal(t.requestCount, 2);
  close(t.targetMedianMs, 183, 'median time to first audio');
  close(t.excessMs, 1000, 'excess');
  const ready = partOf(t, '1/readyQueued')!;
  close(ready.excessMs, 1000, 'codec ready queued');
  close(ready.share, 1, 'its share');
  // The talker's decode counts up to the codec's input-ready instant, 12 + 150 = 162: [112, 162].
  const talkerDecode = partOf(t, '0/decode')!;
  close(talkerDecode.medianMs, 50, 'talker decode before the codec had its input');
  close(talkerDecode.excessMs, 0, 'its excess: the longer decode is after that instant');
  close(t.residualMs, 0, 'residual');
  assert.equal(t.upstreamUntilInput, 2, 'both tail requests counted the talker up to the codec input');
  const additive = additiveTail(t);
  assert.deepEqual(additive.apart, [], 'nothing is the same time seen twice');
  assert.equal(additive.parts[0]?.key, '1/readyQueued');
  const shares = additive.parts.reduce((a, p) => a + (p.share ?? 0), 0);
  close(shares, 1, 'the shares add up to 100%');
});

test('the same on a time window (a pass over the requests) as on the whole session', () => {
  const { index } = analyseSpecs(busyCodec((i) => i % 5 === 2));
  const whole = tailAttribution(index, { target: 'stage1.firstOutput', quantile: 'p90', scope: {} })!;
  const window = tailAttribution(index, {
    target: 'stage1.firstOutput',
    quantile: 'p90',
    scope: { fromMs: 0, toMs: Number.MAX_SAFE_INTEGER },
  })!;
  assert.deepEqual(window.parts, whole.parts);
  close(partOf(whole, '1/readyQueued')?.excessMs, 1000, 'codec ready queued');
  close(partOf(whole, '0/decode')?.excessMs, 0, 'talker decode');
});

test("a first output that is not the stage's own (the talker's first audio passed through the codec): upstream counts up to it", () => {
  // The first audio 8 ms after the talker's first token, before the codec even had its input:
  // the codec's prefill does not end at it, so no input-ready instant applies.
  const specs = Array.from({ length: 20 }, (_, i) => {
    const x = i === 7 || i === 13 ? 1000 : 0;
    const spec = asyncChunk(`speech-${String(i).padStart(2, '0')}`, x);
    (spec.stages as Record<string, Fields>)['1']!['serving_time_to_first_output_ms'] = 120 + x;
    return spec;
  });
  const { index } = analyseSpecs(specs);
  const t = tailAttribution(index, { target: 'stage1.firstOutput', quantile: 'p95', scope: {} })!;
  close(t.excessMs, 1000, 'excess');
  close(partOf(t, '0/prefill')?.excessMs, 1000, 'the talker prefill, whole: the first audio waited for it');
  assert.equal(t.upstreamUntilInput, undefined);
});

test('e2e and TTFT are not cut: the talker decodes alongside until its last chunk', () => {
  const { index } = analyseSpecs(busyCodec((i) => i === 7 || i === 13));
  const e2e = tailAttribution(index, { target: 'e2e', quantile: 'p95', scope: {} })!;
  close(partOf(e2e, '0/decode')?.excessMs, 1000, 'talker decode under e2e');
  const ttft = tailAttribution(index, { target: 'stage1.ttft', quantile: 'p95', scope: {} })!;
  close(partOf(ttft, '1/readyQueued')?.excessMs, 1000, 'codec ready queued under its TTFT');
});

/**
 * Qwen3-Omni under async chunk, thinker -> talker -> code2wav, the talker and the code2wav
 * submitted with the thinker (at 11 and 12 ms). The thinker makes its first output at 112;
 * the talker has its input at 161, waits 1 ms for a slot and 20 ms of prefill (182); the
 * code2wav has its input at 212, then 1 + 10 ms: first audio at 223. In `slow` requests (high
 * load) the thinker waits 1,000 ms longer for a slot and the talker 500 ms longer, so the
 * talker has its input at 1,161 and the code2wav at 1,712 (first audio 1,723); the thinker
 * then decodes 2,000 ms longer and the talker 1,000 ms longer, alongside.
 */
function omniChain(id: string, slow: boolean, ownFirstAudio = true): RequestSpec {
  const q = slow ? 1000 : 0;
  const r = slow ? 500 : 0;
  const codecWait = 200 + q + r;
  const talkerFirst = 182 + q + r;
  return {
    id,
    e2eMs: 830 + (slow ? 3100 : 0),
    preprocessS: 0.01,
    stages: {
      '0': {
        num_tokens_in: int(64),
        num_tokens_out: int(50),
        serving_time_to_first_output_ms: 112 + q,
        stage_gen_time_ms: 610 + q + (slow ? 2000 : 0),
        vllm_queued_ms: 2 + q,
        vllm_prefill_ms: 100,
        vllm_decode_ms: 500 + (slow ? 2000 : 0),
        vllm_ttft_ms: 102 + q,
      },
      '1': {
        num_tokens_in: int(0),
        num_tokens_out: int(40),
        serving_time_to_first_output_ms: talkerFirst,
        stage_gen_time_ms: 785 + q + r + (slow ? 1000 : 0),
        vllm_queued_ms: 151 + q + r,
        vllm_input_wait_ms: 150 + q,
        vllm_ready_queued_ms: 1 + r,
        vllm_prefill_ms: 20,
        vllm_decode_ms: 600 + (slow ? 1000 : 0),
        vllm_ttft_ms: 171 + q + r,
      },
      '2': {
        num_tokens_in: int(0),
        num_tokens_out: int(30),
        // Not its own: the talker's first audio passed through, 8 ms after the talker's first output.
        serving_time_to_first_output_ms: ownFirstAudio ? 223 + q + r : talkerFirst + 8,
        stage_gen_time_ms: 813 + q + r + (slow ? 1600 : 0),
        vllm_queued_ms: codecWait + 1,
        vllm_input_wait_ms: codecWait,
        vllm_ready_queued_ms: 1,
        vllm_prefill_ms: 10,
        vllm_decode_ms: 600 + (slow ? 1600 : 0),
        vllm_ttft_ms: codecWait + 11,
      },
    },
  };
}

const omniRequests = (ownFirstAudio = true): RequestSpec[] =>
  Array.from({ length: 20 }, (_, i) =>
    omniChain(`omni-${String(i).padStart(2, '0')}`, i === 7 || i === 13, ownFirstAudio),
  );

test("three stages: each stage counts up to the next one's input, and each input wait on the way is the time above it, apart", () => {
  const { index } = analyseSpecs(omniRequests());
  const t = tailAttribution(index, { target: 'stage2.firstOutput', quantile: 'p95', scope: {} })!;
  assert.equal(t.requestCount, 2);
  close(t.targetMedianMs, 223, 'median time to first audio');
  close(t.excessMs, 1500, 'excess');
  // The thinker up to the talker's input (161; 1,161 when slow): its decode [112, 161] either way.
  close(partOf(t, '0/decode')?.medianMs, 49, 'thinker decode before the talker had its input');
  close(partOf(t, '0/decode')?.excessMs, 0, 'its excess: the longer decode is alongside');
  // The talker up to the code2wav's input (212; 1,712): its decode [182, 212] either way.
  close(partOf(t, '1/decode')?.medianMs, 30, 'talker decode before the code2wav had its input');
  close(partOf(t, '1/decode')?.excessMs, 0, 'its excess');
  close(partOf(t, '0/queued')?.excessMs, 1000, 'thinker queued');
  close(partOf(t, '1/readyQueued')?.excessMs, 500, 'talker ready queued');
  assert.equal(t.upstreamUntilInput, 2);
  const additive = additiveTail(t);
  assert.deepEqual(
    additive.apart.map((a) => [a.part.key, a.because, Math.round(a.part.excessMs)]),
    [
      ['2/inputWait', 'inputWait', 1500],
      ['1/inputWait', 'inputWait', 1000],
    ],
  );
  close(additive.residualMs, 0, 'residual once the waits on the way are apart');
  const share = (key: string) => additive.parts.find((p) => p.key === key)?.share ?? 0;
  close(share('0/queued'), 2 / 3, "the thinker's share");
  close(share('1/readyQueued'), 1 / 3, "the talker's share: its own wait for a slot, not the thinker's time");
  assert.deepEqual(t.waitsWithinUpstream, ['1', '2']);
});

test("three stages, first audio not the code2wav's own: the thinker still counts up to the talker's input", () => {
  const { index } = analyseSpecs(omniRequests(false));
  const t = tailAttribution(index, { target: 'stage2.firstOutput', quantile: 'p95', scope: {} })!;
  close(t.excessMs, 1500, 'excess');
  close(partOf(t, '0/decode')?.medianMs, 49, 'thinker decode up to the talker input');
  close(partOf(t, '1/decode')?.medianMs, 8, 'talker decode up to the first audio');
  assert.equal(t.upstreamUntilInput, 2, 'the tail requests in which a stage upstream was cut');
  assert.deepEqual(t.waitsWithinUpstream, ['1']);
});
