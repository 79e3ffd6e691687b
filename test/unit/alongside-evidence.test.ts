// Whether a downstream stage ran while its upstream stage still worked is read from the
// request's stage positions (stagePlacement.ts), never from a negative tail residual alone:
// only such stages' parts are set apart as time counted twice (overlapApart.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { placeStages } from '../../server/core/analysis/stagePlacement';
import { additiveTail } from '../../server/core/explain/overlapApart';
import { tailAttribution } from '../../server/core/explain/tailAttribution';
import { analyse, analyseSpecs, asyncChunk } from './support/explainLogs';

const FIXTURES = path.resolve(__dirname, '..', 'fixtures');
const read = (...parts: string[]): string => fs.readFileSync(path.join(FIXTURES, ...parts), 'utf8');

test('stage positions: one after the other (anchored after its upstream ended), alongside (talker first audio), unknown', () => {
  // Two stages run one after the other: stage 1's first output minus its prefill and queued
  // time puts its start 5 ms after stage 0 ended.
  const sequential = analyse(read('logs', 'two-stage-sequential.log')).requests;
  assert.equal(sequential.length, 5);
  for (const r of sequential)
    assert.deepEqual(
      placeStages(r).map((p) => p.alongsideUpstream),
      [null, false],
      r.requestId,
    );
  // Talker first audio: drawn after the talker, the codec would end after the request did.
  const firstAudio = analyse(read('upstream-rendered', 'qwen3tts-talker-first-audio-before-fix.log')).requests;
  assert.equal(firstAudio.length, 6);
  for (const r of firstAudio)
    assert.deepEqual(
      placeStages(r).map((p) => p.alongsideUpstream),
      [null, true],
      r.requestId,
    );
});

test('a negative residual from stages run one after the other sets nothing apart: the slow stage leads', () => {
  const { index } = analyse(read('logs', 'two-stage-sequential.log'));
  const t = tailAttribution(index, { target: 'e2e', quantile: 'p95', scope: {} })!;
  assert.equal(t.alongsideStages, undefined);
  // Its parts' medians come from different requests: they add up to more than the target's.
  assert.ok(t.residualMs < -0.05 * t.excessMs, String(t.residualMs));
  const additive = additiveTail(t);
  assert.deepEqual(additive.apart, []);
  assert.equal(additive.parts[0]?.key, '1/prefill');
  assert.equal(additive.residualMs, t.residualMs);
});

test('under async chunk the codec is seen alongside the talker in the tail, and its wait is set apart', () => {
  const specs = Array.from({ length: 20 }, (_, i) =>
    asyncChunk(`speech-${String(i).padStart(2, '0')}`, i === 7 || i === 13 ? 1000 : 0),
  );
  const { index } = analyseSpecs(specs);
  const t = tailAttribution(index, { target: 'e2e', quantile: 'p95', scope: {} })!;
  assert.deepEqual(t.alongsideStages, ['1']);
  assert.deepEqual(
    additiveTail(t).apart.map((a) => [a.part.key, a.because]),
    [['1/inputWait', 'inputWait']],
  );
});
