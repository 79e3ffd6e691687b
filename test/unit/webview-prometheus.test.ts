// The side panel's Prometheus part: replicas with the hosts behind them (replicasOf, from
// the per-family rows) and their throughput lines (prometheusModel). A step without a
// point is a gap and the last step without one reads "no data", never 0 req/s.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { replicasOf } from '../../server/capture/prometheusCapture';
import type { PrometheusPanel, PrometheusStageRow } from '../../server/protocol';
import { prometheusModel } from '../../webview/sidePanel/prometheusModel';

function row(
  family: string,
  scope: 'replica' | 'stage',
  stage: string | null,
  replica: string | null,
  instances: string[],
): PrometheusStageRow {
  return {
    family,
    scope,
    stage,
    replica,
    instances,
    count: 1,
    total: 1,
    sum: 1,
    p50: 1,
    p90: 1,
    p99: 1,
    openEnded: [],
    bounds: {},
    caveat: null,
  };
}

test('replicasOf: one entry per (stage, replica), instances of every family merged, in numeric order', () => {
  const rows = [
    row('vllm:e2e_request_latency_seconds', 'replica', '10', '0', ['h3:8000']),
    row('vllm:e2e_request_latency_seconds', 'replica', '2', '1', ['h2:8000']),
    row('vllm:e2e_request_latency_seconds', 'replica', '2', '0', ['h1:8000']),
    row('vllm:time_to_first_token_seconds', 'replica', '2', '0', ['h1:8000', 'h4:8000']),
    row('vllm:e2e_request_latency_seconds', 'stage', '2', null, ['h1:8000', 'h2:8000']),
    row('vllm_omni:e2e_request_latency_s', 'replica', null, null, ['h1:8000']),
  ];
  assert.deepEqual(replicasOf(rows), [
    { stage: '2', replica: '0', instances: ['h1:8000', 'h4:8000'] },
    { stage: '2', replica: '1', instances: ['h2:8000'] },
    { stage: '10', replica: '0', instances: ['h3:8000'] },
  ]);
});

test('prometheusModel: labels with role names, instances, last rate; a missing point is a gap and "no data", not 0', () => {
  const panel: PrometheusPanel = {
    window: '5m',
    evaluatedAt: null,
    replicas: [
      { stage: '0', replica: '0', instances: ['10.0.0.5:8000'] },
      { stage: '1', replica: '0', instances: ['10.0.0.6:8000', '10.0.0.7:8000'] },
      { stage: '1', replica: '1', instances: [] },
    ],
    trend: {
      family: 'vllm:e2e_request_latency_seconds',
      stepSeconds: 15,
      times: [1, 2, 3],
      series: [
        { stage: '0', replica: '0', perSecond: [2.5, null, 3.25] },
        { stage: '1', replica: '0', perSecond: [1, 0, null] },
      ],
    },
  };
  const model = prometheusModel(panel, { '0': 'talker', '1': 'codec' });
  assert.equal(model.caption, 'window 5m · not evaluated yet');
  assert.deepEqual(
    model.rows.map((r) => [r.label, r.instances, r.lastText, r.lastState]),
    [
      ['stage 0 talker · replica 0', '10.0.0.5:8000', '3.25 req/s', 'measured'],
      ['stage 1 codec · replica 0', '10.0.0.6:8000, 10.0.0.7:8000', 'no data', 'noData'],
      ['stage 1 codec · replica 1', 'no instance label', 'no data', 'noData'],
    ],
  );
  assert.deepEqual(model.rows[0]?.rate, [2.5, null, 3.25]);
  // A measured 0 stays 0; the missing last point does not become one.
  assert.deepEqual(model.rows[1]?.rate, [1, 0, null]);
  assert.match(
    model.rows[0]?.title ?? '',
    /rate of vllm:e2e_request_latency_seconds_count in 15 s steps, the last 3 steps/,
  );
  assert.match(model.rows[2]?.title ?? '', /no throughput series from Prometheus yet/);
});
