// Under a later stage's first output, the stages upstream count only up to the instant that
// stage had its input, where the first output is then the stage's own (upstreamCut.ts): its
// wait for a slot after its input was ready is its own part, in the shares, not the upstream
// stage's time seen from downstream. Expectations by hand from asyncChunk's numbers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { additiveTail } from '../../server/core/explain/overlapApart';
import { tailAttribution } from '../../server/core/explain/tailAttribution';
import type { TailAttribution } from '../../server/core/explain/types';
import { analyseSpecs, asyncChunk, type RequestSpec } from './support/explainLogs';

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
