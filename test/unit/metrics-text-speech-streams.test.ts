// The speech streaming counters of /metrics (vllm_omni:speech_stream_completed_total{model_name},
// vllm_omni:speech_stream_aborted_total{model_name,reason}): per model, by reason, a series the
// server does not expose unknown (null), never 0.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseExposition } from '../../server/core/metricsText';
import { speechStreamsOf } from '../../server/core/metricsText/speechStreams';
import { summarizeScrape } from '../../server/core/metricsText/scrapeSummary';

test('completed and aborted streams per model and reason, both declaration styles and the legacy prefix', () => {
  const body = [
    '# HELP vllm_omni:speech_stream_completed_total Completed speech streams',
    '# TYPE vllm_omni:speech_stream_completed_total counter',
    'vllm_omni:speech_stream_completed_total{model_name="tts"} 42.0',
    'vllm_omni:speech_stream_completed_created{model_name="tts"} 1.7e9',
    // OpenMetrics style: the family declared without _total.
    '# TYPE vllm_omni:speech_stream_aborted counter',
    'vllm_omni:speech_stream_aborted_total{model_name="tts",reason="cancelled"} 3.0',
    'vllm_omni:speech_stream_aborted_total{model_name="tts",reason="engine_dead"} 1.0',
    'vllm_omni:speech_stream_aborted_total{model_name="tts",reason="__proto__"} 5.0',
    'vllm_omni:speech_stream_aborted_total{model_name="tts",reason="error"} NaN',
    // An older server's prefix, and a series without model_name or reason.
    '# TYPE vllm:omni_speech_stream_aborted_total counter',
    'vllm:omni_speech_stream_aborted_total{model_name="old",reason="closed"} 2',
    'vllm:omni_speech_stream_aborted_total 7',
    '# TYPE vllm_omni:speech_stream_completed_gauge gauge',
    'vllm_omni:speech_stream_completed_gauge{model_name="tts"} 99',
  ].join('\n');
  const streams = speechStreamsOf(parseExposition(body));
  assert.equal(
    JSON.stringify(streams),
    JSON.stringify(
      JSON.parse(
        '[{"modelName":null,"completed":null,"aborted":{"unknown":7},"abortedTotal":7},' +
          '{"modelName":"old","completed":null,"aborted":{"closed":2},"abortedTotal":2},' +
          '{"modelName":"tts","completed":42,"aborted":{"__proto__":5,"cancelled":3,"engine_dead":1},"abortedTotal":9}]',
      ),
    ),
    'NaN is not a count: the error reason is left out',
  );
  assert.equal(
    Object.getPrototypeOf(streams[2]?.aborted),
    Object.prototype,
    'a reason named __proto__ is a key, not a prototype',
  );
  assert.deepEqual(summarizeScrape(body).speechStreams, streams);
});

test('a scrape without the families has none; completed alone leaves aborted unknown', () => {
  assert.deepEqual(
    speechStreamsOf(parseExposition('# TYPE vllm:num_requests_running gauge\nvllm:num_requests_running 1\n')),
    [],
  );
  const only = speechStreamsOf(parseExposition('vllm_omni:speech_stream_completed_total{model_name="m"} 0\n'));
  assert.deepEqual(
    only,
    [{ modelName: 'm', completed: 0, aborted: {}, abortedTotal: null }],
    'a measured 0 stays 0; no aborted series is null, not 0',
  );
});
