// Which parts of a tail are set apart as the same time seen twice (additiveTail): a downstream
// wait, the waits along a chain of stages, and the stages that ran alongside their upstream
// under async chunk, the furthest downstream first. Numbers from the simulator's Qwen3-Omni
// log with async chunk (200 requests, seed 7), p99 tails.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { additiveTail, overlapText } from '../../server/core/explain/overlapApart';
import type { TailAttribution, TailPart } from '../../server/core/explain/types';

const part = (stageId: number | null, phase: TailPart['phase'], excessMs: number): TailPart => ({
  key: stageId === null ? phase : `${stageId}/${phase}`,
  stageId,
  stageKey: stageId === null ? null : String(stageId),
  phase,
  excessMs,
  share: null,
  medianMs: 1,
  measuredIn: 2,
});

type Tail = Pick<TailAttribution, 'parts' | 'residualMs' | 'excessMs' | 'alongsideStages'>;
/** Under async chunk the downstream stages are seen running alongside their upstream (alongsideStages). */
const tail = (excessMs: number, parts: TailPart[], alongsideStages: readonly string[] = ['1', '2']): Tail => ({
  excessMs,
  parts,
  residualMs: excessMs - parts.reduce((a, p) => a + p.excessMs, 0),
  alongsideStages,
});
const keys = (t: Tail): string[][] => additiveTail(t).apart.map((a) => [a.part.key, a.because]);
const words = { part: (p: TailPart) => p.key, stage: (k: string) => `stage ${k}`, signed: (ms: number) => `+${ms}` };

test('end to end on three stages: the code2wav, fed by the talker, is the echo of the talker; the talker leads', () => {
  // The talker's decode and the code2wav's decode both grow with a slow talker.
  const t = tail(9410, [
    part(1, 'decode', 9440),
    part(2, 'decode', 9330),
    part(0, 'decode', 605),
    part(2, 'inputWait', 52),
    part(1, 'prefill', 7),
    part(1, 'inputWait', -11),
  ]);
  const additive = additiveTail(t);
  assert.deepEqual(keys(t), [
    ['1/decode', 'alongside'],
    ['2/decode', 'alongside'],
    ['2/inputWait', 'alongside'],
  ]);
  assert.equal(additive.parts[0]?.key, '1/decode');
  // What is left, −631 (the thinker's decode beside the talker's), lies within the talker's time:
  // the talker, far slower than it, keeps 9,440 − 605 = 8,835 of its own; the residual −26.
  assert.deepEqual(
    additive.apart.filter((a) => a.ofMs !== undefined).map((a) => [a.part.key, a.part.excessMs, a.ofMs]),
    [['1/decode', 605, 9440]],
  );
  assert.equal(additive.parts[0]?.excessMs, 8835);
  assert.ok(Math.abs((additive.parts[0]?.share ?? 0) - 8835 / 9410) < 1e-12);
  assert.ok(Math.abs(additive.residualMs - -26) < 1e-9, String(additive.residualMs));
});

test('time to first audio on three stages: each stage waits for the one above it; the talker ran alongside the thinker', () => {
  const t = tail(116, [
    part(2, 'inputWait', 118),
    part(0, 'decode', 92),
    part(1, 'decode', 87),
    part(0, 'prefill', 40.5),
    part(1, 'inputWait', 36.9),
    part(1, 'readyQueued', 5),
    part(2, 'readyQueued', 4.7),
  ]);
  // No single wait is the overlap (−268 ms): the code2wav's and the talker's together are.
  assert.deepEqual(keys(t), [
    ['2/inputWait', 'inputWait'],
    ['1/decode', 'alongside'],
    ['1/inputWait', 'inputWait'],
    ['1/readyQueued', 'alongside'],
  ]);
  const additive = additiveTail(t);
  assert.deepEqual(
    additive.parts.map((p) => p.key),
    ['0/decode', '0/prefill', '2/readyQueued'],
  );
  assert.ok(Math.abs(additive.residualMs - (116 - 92 - 40.5 - 4.7)) < 1e-9, String(additive.residualMs));
  assert.equal(
    overlapText(additive.apart, words),
    "2/inputWait (+118) and 1/inputWait (+36.9) are each a stage's wait for its input from the stages upstream: each runs while their parts do, the same time seen from downstream; stage 1 ran alongside the stages upstream (async chunk feeds it as they produce), so its 2 parts (+92 together) lie within their time, the same time seen from downstream",
  );
});

test('a stage that adds little to the tail is not set apart for a few percent of overlap left after its wait', () => {
  // Stage 1's own first output: its input wait is the thinker's time; its ready queueing is its own.
  const t = tail(64.7, [
    part(0, 'prefill', 49.2),
    part(null, 'preprocess', 13.7),
    part(1, 'inputWait', 50.6),
    part(1, 'readyQueued', 3.4),
  ]);
  assert.deepEqual(keys(t), [['1/inputWait', 'inputWait']]);
  assert.ok(Math.abs(additiveTail(t).residualMs - (64.7 - 49.2 - 13.7 - 3.4)) < 1e-9);
});

test('nothing apart: a positive residual, a first stage overlapping itself, a wait far from the overlap', () => {
  assert.deepEqual(keys(tail(100, [part(0, 'prefill', 60), part(1, 'inputWait', 30)])), []);
  assert.deepEqual(keys(tail(100, [part(0, 'prefill', 100), part(0, 'decode', 80)])), []);
  // A downstream wait of 10 against an overlap of 90 is not what overlaps, and its stage is no
  // group that holds it either.
  assert.deepEqual(keys(tail(100, [part(0, 'prefill', 100), part(0, 'decode', 80), part(1, 'queued', 10)])), []);
  assert.equal(overlapText([], words), null);
});

test('a negative residual alone sets apart only measured input waits: stages not seen running alongside stay in the sum', () => {
  // The numbers of the first two tests, from stages run one after the other (no async chunk), or
  // whose positions do not tell: their printed values disagree; nothing shows time counted twice.
  const endToEnd = tail(9410, [part(1, 'decode', 9440), part(2, 'decode', 9330), part(0, 'decode', 605)], []);
  assert.deepEqual(keys(endToEnd), []);
  assert.equal(additiveTail(endToEnd).residualMs, endToEnd.residualMs);
  const queuedOnly = tail(100, [part(0, 'prefill', 100), part(1, 'queued', 95)], []);
  assert.deepEqual(keys(queuedOnly), []);
  assert.deepEqual(keys({ ...queuedOnly, alongsideStages: ['1'] }), [['1/queued', 'inputWait']]);
  const measuredWait = tail(100, [part(0, 'prefill', 100), part(1, 'inputWait', 95)], []);
  assert.deepEqual(keys(measuredWait), [['1/inputWait', 'inputWait']]);
});

test('a stage alongside its upstream that holds the overlap left is set apart, however small a share of the excess it is', () => {
  // The simulator's cold-start log (fixed stats build, seed 3), end to end at p95: the codec's
  // input wait is set apart; its decode (9.6% of the excess) holds the −443 ms left (9.7%).
  const t = tail(
    4575.6,
    [
      part(0, 'prefill', 4572.9),
      part(1, 'inputWait', 4144.75),
      part(1, 'decode', 440.33),
      part(null, 'preprocess', 6.05),
      part(1, 'genOther', 0.32),
      part(1, 'readyQueued', 0),
      part(1, 'prefill', -0.23),
    ],
    ['1'],
  );
  const additive = additiveTail(t);
  assert.deepEqual(keys(t), [
    ['1/inputWait', 'inputWait'],
    ['1/decode', 'alongside'],
    ['1/genOther', 'alongside'],
    ['1/readyQueued', 'alongside'],
    ['1/prefill', 'alongside'],
  ]);
  assert.deepEqual(
    additive.parts.map((p) => p.key),
    ['0/prefill', 'preprocess'],
  );
  assert.ok(Math.abs(additive.residualMs - (4575.6 - 4572.9 - 6.05)) < 1e-9, String(additive.residualMs));
});
