// Measured numbers next to a deploy config: how they read ("not recorded", never 0) and
// where they go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  formatCodecTtftStatus,
  formatStageNumbers,
  liveHints,
  stageAnchors,
  type LiveStageNumbers,
  type StageLiveNumbers,
} from '../../server/core/deploy';
import { analyzeFixture } from './support/deployHelpers';

const talker: StageLiveNumbers = {
  stageId: 0,
  ttftP50Ms: 41.2,
  prefillP50Ms: 39,
  queuedP50Ms: 0.44,
  n: 120,
  ttftNotRecorded: false,
};
const codecLie: StageLiveNumbers = {
  stageId: 1,
  ttftP50Ms: 0,
  prefillP50Ms: null,
  queuedP50Ms: 1250.4,
  n: 18,
  ttftNotRecorded: true,
};
const session: LiveStageNumbers = { sessionLabel: 'launch: vllm serve', stages: [talker, codecLie] };

test('stage numbers read like the status line; a flagged TTFT is "not recorded", not 0', () => {
  assert.equal(formatStageNumbers(talker), 'TTFT p50 41 ms · prefill p50 39 ms · queued p50 0.4 ms (n=120)');
  assert.equal(formatStageNumbers(codecLie), 'TTFT not recorded · queued p50 1,250 ms (n=18)');
  assert.equal(
    formatStageNumbers({ ...talker, ttftP50Ms: null, prefillP50Ms: null, queuedP50Ms: null, n: 3 }),
    'no phase split measured (n=3)',
  );
});

test('codec TTFT status under talker first audio', () => {
  assert.equal(
    formatCodecTtftStatus(session, [1]),
    'codec TTFT not recorded (stage 1: vllm_ttft_ms 0 with no prefill: build without the stats fix)',
  );
  const fixed = {
    ...session,
    stages: [talker, { ...codecLie, ttftNotRecorded: false, ttftP50Ms: 4000, prefillP50Ms: 500 }],
  };
  assert.equal(formatCodecTtftStatus(fixed, [1]), 'codec TTFT recorded (stage 1 p50 4,000 ms)');
  assert.equal(
    formatCodecTtftStatus({ ...session, stages: [talker] }, [1]),
    'codec TTFT: no measurement for stage 1 yet',
  );
});

test('hints after stage_id, after base_config for inherited stages, after talker_first_audio', () => {
  const analysis = analyzeFixture('qwen3_tts_high_concurrency_mrv2_single_gpu.yaml');
  const hints = liveHints(analysis, session).map((h) => `${h.position.line + 1}:${h.position.character} ${h.label}`);
  assert.deepEqual(hints, [
    '35:15 TTFT p50 41 ms · prefill p50 39 ms · queued p50 0.4 ms (n=120)',
    '42:15 TTFT not recorded · queued p50 1,250 ms (n=18)',
    '21:30 codec TTFT not recorded (stage 1: vllm_ttft_ms 0 with no prefill: build without the stats fix)',
  ]);
  assert.deepEqual(liveHints(analysis, null), []);
  const inherited = liveHints(analyzeFixture('qwen3_tts_high_concurrency_mrv2.yaml'), session).map(
    (h) => `${h.position.line + 1} ${h.label}`,
  );
  assert.deepEqual(inherited, [
    '2 stage 0: TTFT p50 41 ms · prefill p50 39 ms · queued p50 0.4 ms (n=120)',
    '2 stage 1: TTFT not recorded · queued p50 1,250 ms (n=18)',
  ]);
  assert.deepEqual(
    stageAnchors(analyzeFixture('qwen3_tts_mrv2.yaml')).map((a) => [
      a.stageId,
      a.inherited,
      a.entry.keyLocation.range.start.line + 1,
    ]),
    [
      [0, false, 18],
      [1, true, 4],
    ],
  );
});
