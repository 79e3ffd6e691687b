// A stage_gen_time_ms printed below zero is not a time (unrecordedValues.ts): a stage is drawn
// and placed by its phases instead, and the breakdown's rest of gen time is not recorded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { placeStages } from '../../server/core/analysis/stagePlacement';
import { timelineOf } from '../../server/core/analysis/timeline';
import { breakdownOf } from '../../server/core/explain/breakdown';
import { analyseSpecs, asyncChunk } from './support/explainLogs';

test('a negative stage_gen_time_ms: the stage is as long as its phases, and its rest of gen time is not recorded', () => {
  const spec = asyncChunk('speech-neg');
  const stages = { ...spec.stages, '1': { ...spec.stages['1'], stage_gen_time_ms: -785 } };
  const [request] = analyseSpecs([{ ...spec, stages }]).requests;
  assert.ok(request !== undefined);
  const codec = placeStages(request)[1];
  // Input wait 150 + ready queued 1 + prefill 20 + decode 600 from where its first output puts it.
  assert.ok(codec !== undefined);
  assert.equal(codec.endMs - codec.startMs, 771);
  const rest = breakdownOf(request).parts.find((p) => p.stageKey === '1' && p.phase === 'genOther');
  assert.equal(rest?.state, 'notRecorded');
  assert.equal(rest?.ms, null);
  // No whole-stage segment that ends before it starts.
  const whole = timelineOf(request).filter((s) => s.stageKey === '1' && s.phase === 'stage');
  assert.deepEqual(whole, []);
});
