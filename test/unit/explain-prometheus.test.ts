// The engines' gauges read from a Prometheus server: the range query's text and how its
// answer becomes per-(stage, replica) series (KV usage in percent, gaps kept as null).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gaugeQuery, gaugesOf } from '../../server/core/prometheusQuery';

test('one range query tags running, waiting and KV-cache usage by (stage, replica)', () => {
  const q = gaugeQuery({ label: 'job', value: 'tts' });
  assert.equal(
    q,
    [
      'label_replace(sum by (stage, replica) ({__name__=~"vllm:num_requests_running",job="tts",stage!=""}), "stage_lens_stat", "running", "", "")',
      'label_replace(sum by (stage, replica) ({__name__=~"vllm:num_requests_waiting",job="tts",stage!=""}), "stage_lens_stat", "waiting", "", "")',
      'label_replace(max by (stage, replica) ({__name__=~"vllm:kv_cache_usage_perc",job="tts",stage!=""}), "stage_lens_stat", "kvCacheUsage", "", "")',
    ].join(' or '),
  );
});

test('the answer as series on the steps: a missing point is null, never 0; KV usage from a fraction to percent', () => {
  const gauges = gaugesOf(
    [
      {
        metric: { stage: '1', replica: '0', stage_lens_stat: 'running' },
        samples: [
          { t: 100, v: 3 },
          { t: 110, v: 4 },
        ],
      },
      { metric: { stage: '0', replica: '0', stage_lens_stat: 'kvCacheUsage' }, samples: [{ t: 110, v: 0.25 }] },
      {
        metric: { stage: '0', replica: '0', stage_lens_stat: 'waiting' },
        samples: [
          { t: 100, v: 1 },
          { t: 120, v: Number.NaN },
        ],
      },
      { metric: { stage: '0', replica: '0', stage_lens_stat: 'somethingElse' }, samples: [{ t: 100, v: 9 }] },
    ],
    100,
    10,
    3,
  );
  assert.deepEqual(gauges.times, [100_000, 110_000, 120_000]);
  assert.deepEqual(gauges.series, [
    {
      stage: '0',
      replica: '0',
      running: [null, null, null],
      waiting: [1, null, null],
      kvCacheUsagePerc: [null, 25, null],
    },
    {
      stage: '1',
      replica: '0',
      running: [3, 4, null],
      waiting: [null, null, null],
      kvCacheUsagePerc: [null, null, null],
    },
  ]);
});
