// scrape-counters.json read back: a session's last scrape's preemption and speech stream
// counters come back as they were written (by way of JSON), so a reopened session exports what
// `analyze` prints; a file of another shape reads as unknown, never as 0.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseExposition } from '../../server/core/metricsText';
import { preemptionsOf } from '../../server/core/metricsText/preemptions';
import { speechStreamsOf } from '../../server/core/metricsText/speechStreams';
import { scrapeCountersFromJson } from '../../server/capture/storage/storedScrapeCounters';

const BODY = [
  '# TYPE vllm:num_preemptions_total counter',
  'vllm:num_preemptions_total{stage="1",replica="0"} 0.0',
  'vllm:num_preemptions_total{stage="0",replica="0"} 4.0',
  '# TYPE vllm_omni:speech_stream_completed_total counter',
  'vllm_omni:speech_stream_completed_total{model_name="tts"} 42.0',
  '# TYPE vllm_omni:speech_stream_aborted_total counter',
  'vllm_omni:speech_stream_aborted_total{model_name="tts",reason="__proto__"} 5.0',
  'vllm_omni:speech_stream_aborted_total{model_name="tts",reason="cancelled"} 3.0',
  '',
].join('\n');

test("a scrape's counters come back from their JSON as they were", () => {
  const parsed = parseExposition(BODY);
  const counters = { preemptions: preemptionsOf(parsed), speechStreams: speechStreamsOf(parsed) };
  assert.deepEqual(counters.preemptions, [
    { stage: '0', replica: '0', count: 4 },
    { stage: '1', replica: '0', count: 0 },
  ]);
  const back = scrapeCountersFromJson(JSON.parse(JSON.stringify(counters)));
  assert.deepEqual(back, counters);
  assert.equal(JSON.stringify(back), JSON.stringify(counters));
  assert.equal(Object.getPrototypeOf(back.speechStreams[0]?.aborted), Object.prototype);
  // A scrape without the families: unknown preemptions (null), no speech streams.
  const none = parseExposition('# TYPE x counter\nx_total 1\n');
  assert.deepEqual(
    scrapeCountersFromJson(
      JSON.parse(JSON.stringify({ preemptions: preemptionsOf(none), speechStreams: speechStreamsOf(none) })),
    ),
    {
      preemptions: null,
      speechStreams: [],
    },
  );
});

test('a file of another shape reads as no counters: unknown, not 0', () => {
  for (const raw of [null, [], 'x', { preemptions: 'many' }])
    assert.deepEqual(scrapeCountersFromJson(raw), { preemptions: null, speechStreams: [] });
  assert.deepEqual(
    scrapeCountersFromJson({
      preemptions: [
        { stage: '0', replica: null, count: 2 },
        { stage: '1', count: 'x' },
      ],
      speechStreams: [
        { modelName: 'tts', completed: 'x', aborted: { error: 1, closed: null }, abortedTotal: 1 },
        { modelName: 3 },
      ],
    }),
    {
      preemptions: [{ stage: '0', replica: null, count: 2 }],
      speechStreams: [{ modelName: 'tts', completed: null, aborted: { error: 1 }, abortedTotal: 1 }],
    },
  );
});
