// Reading Prometheus HTTP API answers (shapes from the Prometheus docs "HTTP API" page
// and from a real Prometheus 2.42), and turning them into Stage Lens rows: NaN quantiles
// are "no data" (null), never 0; bad input never throws.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  familyRows,
  parseApiResponse,
  parseSampleValue,
  readDiscovery,
  replicaCollisions,
  trendOf,
  withKnownCaveats,
  type PromApiResponse,
  type VectorSeries,
} from '../../server/core/prometheusQuery';

// docs: "Instant queries" example.
const DOCS_VECTOR = `{
   "status" : "success",
   "data" : {
      "resultType" : "vector",
      "result" : [
         { "metric" : { "__name__" : "up", "job" : "prometheus", "instance" : "localhost:9090" }, "value": [ 1435781451.781, "1" ] },
         { "metric" : { "__name__" : "up", "job" : "node", "instance" : "localhost:9100" }, "value" : [ 1435781451.781, "0" ] }
      ]
   }
}`;

// docs: "Range queries" example.
const DOCS_MATRIX = `{
   "status" : "success",
   "data" : {
      "resultType" : "matrix",
      "result" : [
         { "metric" : { "__name__" : "up", "job" : "prometheus", "instance" : "localhost:9090" },
           "values" : [ [ 1435781430.781, "1" ], [ 1435781445.781, "1" ], [ 1435781460.781, "1" ] ] },
         { "metric" : { "__name__" : "up", "job" : "node", "instance" : "localhost:9091" },
           "values" : [ [ 1435781430.781, "0" ], [ 1435781445.781, "0" ], [ 1435781460.781, "1" ] ] }
      ]
   }
}`;

// Real answer of Prometheus 2.42 to `sum(` (HTTP 400).
const REAL_BAD_DATA =
  '{"status":"error","errorType":"bad_data","error":"invalid parameter \\"query\\": 1:5: parse error: unclosed left parenthesis"}';

function success(r: PromApiResponse): Extract<PromApiResponse, { status: 'success' }> {
  assert.equal(r.status, 'success', JSON.stringify(r));
  return r as Extract<PromApiResponse, { status: 'success' }>;
}

describe('parseApiResponse', () => {
  it('reads the documented instant vector', () => {
    const r = success(parseApiResponse(DOCS_VECTOR));
    assert.equal(r.data.resultType, 'vector');
    if (r.data.resultType !== 'vector') return;
    assert.deepEqual(r.data.result, [
      {
        metric: { __name__: 'up', job: 'prometheus', instance: 'localhost:9090' },
        sample: { t: 1435781451.781, v: 1 },
      },
      { metric: { __name__: 'up', job: 'node', instance: 'localhost:9100' }, sample: { t: 1435781451.781, v: 0 } },
    ]);
    assert.deepEqual(r.warnings, []);
    assert.deepEqual(r.skipped, { count: 0, first: null });
  });

  it('reads the documented range matrix', () => {
    const r = success(parseApiResponse(DOCS_MATRIX));
    assert.equal(r.data.resultType, 'matrix');
    if (r.data.resultType !== 'matrix') return;
    assert.equal(r.data.result.length, 2);
    assert.deepEqual(
      r.data.result[1]?.samples.map((s) => [s.t, s.v]),
      [
        [1435781430.781, 0],
        [1435781445.781, 0],
        [1435781460.781, 1],
      ],
    );
  });

  it('reads scalar and string results', () => {
    const scalar = success(
      parseApiResponse('{"status":"success","data":{"resultType":"scalar","result":[1712000000,"2"]}}'),
    );
    assert.deepEqual(scalar.data, { resultType: 'scalar', result: { t: 1712000000, v: 2 } });
    const str = success(
      parseApiResponse('{"status":"success","data":{"resultType":"string","result":[1712000000,"hi"]}}'),
    );
    assert.deepEqual(str.data, { resultType: 'string', result: { t: 1712000000, v: 'hi' } });
  });

  it('keeps NaN and infinities as numbers (the caller decides what they mean)', () => {
    assert.ok(Number.isNaN(parseSampleValue('NaN')));
    assert.equal(parseSampleValue('+Inf'), Infinity);
    assert.equal(parseSampleValue('-Inf'), -Infinity);
    assert.equal(parseSampleValue('1e-3'), 0.001);
    assert.equal(parseSampleValue('-0.5'), -0.5);
    for (const bad of ['', ' 1', 'one', null, 1, undefined, '0x', 'Infinity '])
      assert.equal(parseSampleValue(bad), undefined, String(bad));
  });

  it('reads the error envelope with its type and message, whatever the HTTP status', () => {
    assert.deepEqual(parseApiResponse(REAL_BAD_DATA), {
      status: 'error',
      errorType: 'bad_data',
      error: 'invalid parameter "query": 1:5: parse error: unclosed left parenthesis',
      warnings: [],
    });
    const timeout = parseApiResponse(
      '{"status":"error","errorType":"timeout","error":"query timed out in expression evaluation","warnings":["w1"]}',
    );
    assert.deepEqual(timeout, {
      status: 'error',
      errorType: 'timeout',
      error: 'query timed out in expression evaluation',
      warnings: ['w1'],
    });
    assert.deepEqual(parseApiResponse('{"status":"error"}'), {
      status: 'error',
      errorType: 'unknown',
      error: '(no message)',
      warnings: [],
    });
  });

  it('passes warnings on', () => {
    const r = success(
      parseApiResponse(
        '{"status":"success","data":{"resultType":"vector","result":[]},"warnings":["PromQL info: metric might not be a counter",7]}',
      ),
    );
    assert.deepEqual(r.warnings, ['PromQL info: metric might not be a counter']);
  });

  it('calls anything that is not an API answer malformed, with a hint of what it was', () => {
    const html = parseApiResponse('<html><body>404 page not found</body></html>');
    assert.deepEqual(html, {
      status: 'malformed',
      message: 'the answer is not JSON (it starts with "<html><body>404 page not found</body></html>")',
    });
    assert.deepEqual(parseApiResponse(''), { status: 'malformed', message: 'the answer is not JSON (empty body)' });
    assert.equal(parseApiResponse('null').status, 'malformed');
    assert.equal(parseApiResponse('[1,2]').status, 'malformed');
    assert.match((parseApiResponse('{"data":{}}') as { message: string }).message, /no "status": "success" or "error"/);
    assert.match((parseApiResponse('{"status":"success"}') as { message: string }).message, /no "data" object/);
    assert.match(
      (parseApiResponse('{"status":"success","data":{"resultType":"vector","result":{}}}') as { message: string })
        .message,
      /vector result is not a list/,
    );
    assert.match(
      (parseApiResponse('{"status":"success","data":{"resultType":"table","result":[]}}') as { message: string })
        .message,
      /unknown resultType "table"/,
    );
  });

  it('skips unreadable series and counts them, keeping the good ones', () => {
    const body = JSON.stringify({
      status: 'success',
      data: {
        resultType: 'vector',
        result: [
          { metric: { stage: '0' }, value: [1, '0.5'] },
          { metric: { stage: '1' }, histogram: [1, { count: '2', sum: '1', buckets: [] }] },
          { metric: { stage: 2 }, value: [1, '1'] },
          { metric: { stage: '3' }, value: [1, 'fast'] },
          { metric: { stage: '4' }, value: ['1', '1'] },
          'nonsense',
        ],
      },
    });
    const r = success(parseApiResponse(body));
    if (r.data.resultType !== 'vector') return assert.fail('vector expected');
    assert.deepEqual(
      r.data.result.map((s) => s.metric['stage']),
      ['0'],
    );
    assert.equal(r.skipped.count, 5);
    assert.match(r.skipped.first ?? '', /series 2: native-histogram samples are not read/);
  });

  it('keeps a label named __proto__ as a plain label', () => {
    const r = success(
      parseApiResponse(
        '{"status":"success","data":{"resultType":"vector","result":[{"metric":{"__proto__":"x","stage":"0"},"value":[1,"1"]}]}}',
      ),
    );
    if (r.data.resultType !== 'vector') return assert.fail('vector expected');
    const labels = r.data.result[0]?.metric ?? {};
    assert.deepEqual(Object.keys(labels).sort(), ['__proto__', 'stage']);
    assert.equal(Object.getPrototypeOf(labels), Object.prototype);
  });

  it('never throws on truncated or mangled answers', () => {
    for (const text of [DOCS_VECTOR, DOCS_MATRIX, REAL_BAD_DATA]) {
      for (let cut = 0; cut <= text.length; cut += 3) {
        const r = parseApiResponse(text.slice(0, cut));
        assert.ok(['success', 'error', 'malformed'].includes(r.status));
      }
      const mangled = text.replace(/"[0-9.]+"/g, '{}').replace(/\[ *1435/g, '["1435');
      assert.doesNotThrow(() => parseApiResponse(mangled));
    }
  });
});

function vec(metric: Record<string, string>, v: number, t = 1000): VectorSeries {
  return { metric, sample: { t, v } };
}

describe('discovery and rows', () => {
  const discovery = readDiscovery(
    [
      vec({ __name__: 'vllm:e2e_request_latency_seconds_count', stage: '0', replica: '0', instance: 'hostA:8000' }, 1),
      vec({ __name__: 'vllm:e2e_request_latency_seconds_count', stage: '0', replica: '1', instance: 'hostB:8000' }, 1),
      vec({ __name__: 'vllm:omni_audio_ttfp_s_count', stage: '1', replica: '0', instance: 'hostA:8000' }, 1),
      vec({ __name__: 'vllm_omni:audio_ttfp_s_count', stage: '1', replica: '0', instance: 'hostC:8000' }, 1),
      vec({ __name__: 'vllm_omni:stage_in_queue_s_count', stage: '1', instance: 'hostA:8000' }, 1),
      vec({ __name__: 'vllm_omni:stage_in_queue_s_count', stage: '1', instance: 'hostB:8000' }, 1),
      vec({ __name__: 'vllm:num_requests_running', instance: 'hostA:8000' }, 1),
    ],
    'job',
  );

  it('finds families under either prefix, in family order, with their instances', () => {
    assert.deepEqual(
      [...discovery.families],
      [
        ['vllm:e2e_request_latency_seconds', ['vllm:e2e_request_latency_seconds']],
        ['vllm_omni:stage_in_queue_s', ['vllm_omni:stage_in_queue_s']],
        ['vllm_omni:audio_ttfp_s', ['vllm:omni_audio_ttfp_s', 'vllm_omni:audio_ttfp_s']],
      ],
    );
    assert.deepEqual(discovery.allInstances, ['hostA:8000', 'hostB:8000', 'hostC:8000']);
  });

  it('warns when two instances report the same (stage, replica), not for stage-only families', () => {
    assert.deepEqual(replicaCollisions(discovery), [
      'stage 1 replica 0 is reported by 2 instances (hostA:8000, hostC:8000): Prometheus adds them up as one replica. Give each host its own replica label (metric_relabel_configs) to see them apart.',
    ]);
  });

  it('collects the deployment values when none was chosen', () => {
    const d = readDiscovery(
      [
        vec(
          {
            __name__: 'vllm:e2e_request_latency_seconds_count',
            stage: '0',
            replica: '0',
            instance: 'a',
            namespace: 'tts-b',
          },
          1,
        ),
        vec(
          {
            __name__: 'vllm:e2e_request_latency_seconds_count',
            stage: '0',
            replica: '0',
            instance: 'b',
            namespace: 'tts-a',
          },
          1,
        ),
      ],
      'namespace',
    );
    assert.deepEqual(d.deploymentValues, ['tts-a', 'tts-b']);
  });

  it('builds rows per (stage, replica) and per stage; a NaN quantile is null (no data), not 0', () => {
    const tagged = (stage: string, replica: string | null, stat: string, v: number): VectorSeries =>
      vec(
        {
          stage,
          ...(replica === null ? {} : { replica }),
          stage_lens_stat: stat,
          stage_lens_scope: replica === null ? 'stage' : 'replica',
        },
        v,
      );
    const answer: VectorSeries[] = [
      tagged('0', '1', 'p50', 0.3),
      tagged('0', '1', 'p90', 0.9),
      tagged('0', '1', 'p99', 1.9),
      tagged('0', '1', 'count', 12.5),
      tagged('0', '1', 'sum', 5),
      tagged('0', '1', 'total', 40),
      // replica 0 had no request in the window: increase 0, histogram_quantile NaN.
      tagged('0', '0', 'p50', NaN),
      tagged('0', '0', 'p90', NaN),
      tagged('0', '0', 'p99', NaN),
      tagged('0', '0', 'count', 0),
      tagged('0', '0', 'sum', 0),
      tagged('0', '0', 'total', 17),
      tagged('0', null, 'p90', 0.9),
      tagged('0', null, 'count', 12.5),
      tagged('0', null, 'total', 57),
      vec({ stage_lens_stat: 'p90', stage_lens_scope: 'bogus' }, 1),
      vec({ stage_lens_stat: 'median', stage_lens_scope: 'stage' }, 1),
    ];
    const rows = familyRows('vllm:e2e_request_latency_seconds', answer, discovery, false);
    assert.deepEqual(rows, [
      {
        family: 'vllm:e2e_request_latency_seconds',
        scope: 'replica',
        stage: '0',
        replica: '0',
        instances: ['hostA:8000'],
        count: 0,
        total: 17,
        sum: 0,
        p50: null,
        p90: null,
        p99: null,
        openEnded: [],
        bounds: {},
        caveat: null,
      },
      {
        family: 'vllm:e2e_request_latency_seconds',
        scope: 'replica',
        stage: '0',
        replica: '1',
        instances: ['hostB:8000'],
        count: 12.5,
        total: 40,
        sum: 5,
        p50: 0.3,
        p90: 0.9,
        p99: 1.9,
        openEnded: [],
        bounds: {},
        caveat: null,
      },
      {
        family: 'vllm:e2e_request_latency_seconds',
        scope: 'stage',
        stage: '0',
        replica: null,
        instances: ['hostA:8000', 'hostB:8000'],
        count: 12.5,
        total: 57,
        sum: null,
        p50: null,
        p90: 0.9,
        p99: null,
        openEnded: [],
        bounds: {},
        caveat: null,
      },
    ]);
  });

  it('drops replica rows of stage-only families (they equal the stage row); cumulative total is the count', () => {
    const answer: VectorSeries[] = [
      vec({ stage: '1', stage_lens_stat: 'p50', stage_lens_scope: 'replica' }, 0.01),
      vec({ stage: '1', stage_lens_stat: 'count', stage_lens_scope: 'replica' }, 9),
      vec({ stage: '1', stage_lens_stat: 'p50', stage_lens_scope: 'stage' }, 0.01),
      vec({ stage: '1', stage_lens_stat: 'count', stage_lens_scope: 'stage' }, 9),
      vec({ stage_lens_stat: 'p99', stage_lens_scope: 'stage' }, Infinity),
    ];
    const rows = familyRows('vllm_omni:stage_in_queue_s', answer, discovery, true);
    assert.equal(rows.length, 2);
    assert.deepEqual(rows[0], {
      family: 'vllm_omni:stage_in_queue_s',
      scope: 'stage',
      stage: '1',
      replica: null,
      instances: ['hostA:8000', 'hostB:8000'],
      count: 9,
      total: 9,
      sum: null,
      p50: 0.01,
      p90: null,
      p99: null,
      openEnded: [],
      bounds: {},
      caveat: null,
    });
    assert.equal(rows[1]?.stage, null, 'a pipeline-wide row (no stage label) sorts last');
    assert.equal(rows[1]?.p99, null, '+Inf is not a value a row can show');
  });

  it('marks quantiles whose rank fell into the +Inf bucket as open-ended (≥ the highest bound)', () => {
    const t = (stat: string, v: number): VectorSeries =>
      vec({ stage: '0', replica: '0', stage_lens_stat: stat, stage_lens_scope: 'replica' }, v);
    // 100 observations, 95 at or below the highest finite bound: p99's rank 99 is in +Inf.
    const rows = familyRows(
      'vllm:e2e_request_latency_seconds',
      [t('p50', 1), t('p90', 4), t('p99', 7680), t('finiteBuckets', 95), t('allBuckets', 100)],
      discovery,
      true,
    );
    assert.deepEqual(rows[0]?.openEnded, ['p99']);
    assert.deepEqual(rows[0]?.bounds, { p99: { kind: 'atLeast', le: 7680 } });
    // No observation: nothing is open-ended (and every quantile is no data).
    const empty = familyRows(
      'vllm:e2e_request_latency_seconds',
      [t('p50', NaN), t('finiteBuckets', 0), t('allBuckets', 0)],
      discovery,
      false,
    );
    assert.deepEqual([empty[0]?.openEnded, empty[0]?.p50], [[], null]);
  });

  it('marks quantiles whose rank fell into the lowest bucket as "≤ its bound", the bound recovered from PromQL\'s interpolation', () => {
    const t = (stat: string, v: number): VectorSeries =>
      vec({ stage: '0', replica: '0', stage_lens_stat: stat, stage_lens_scope: 'replica' }, v);
    // 100 observations, 60 in the lowest bucket (le 0.3): histogram_quantile(0.5) = 0.3 · 50 / 60 = 0.25.
    const p50 = (0.3 * 50) / 60;
    const rows = familyRows(
      'vllm:request_queue_time_seconds',
      [
        t('p50', p50),
        t('p90', 0.74),
        t('p99', 2.2),
        t('finiteBuckets', 100),
        t('allBuckets', 100),
        t('lowestBucket', 60),
      ],
      discovery,
      true,
    );
    assert.deepEqual(rows[0]?.bounds, { p50: { kind: 'atMost', le: 0.3 } });
    // All 100 in it: every quantile is only "≤ 0.3".
    const all = familyRows(
      'vllm:request_queue_time_seconds',
      [
        t('p50', 0.15),
        t('p90', 0.27),
        t('p99', 0.297),
        t('finiteBuckets', 100),
        t('allBuckets', 100),
        t('lowestBucket', 100),
      ],
      discovery,
      true,
    );
    assert.deepEqual(all[0]?.bounds, {
      p50: { kind: 'atMost', le: 0.3 },
      p90: { kind: 'atMost', le: 0.3 },
      p99: { kind: 'atMost', le: 0.3 },
    });
  });

  it('flags the codec TTFT signature from since-start totals: TTFT counter 0 with inter-token latencies', () => {
    const base = {
      scope: 'replica' as const,
      stage: '1',
      instances: [],
      count: 0,
      sum: null,
      p50: null,
      p90: null,
      p99: null,
      openEnded: [],
      bounds: {},
      caveat: null,
    };
    const rows = withKnownCaveats([
      { ...base, family: 'vllm:time_to_first_token_seconds', replica: '0', total: 0 },
      { ...base, family: 'vllm:inter_token_latency_seconds', replica: '0', total: 79 },
      { ...base, family: 'vllm:request_prefill_time_seconds', replica: '0', total: 0 },
      { ...base, family: 'vllm_omni:audio_ttfp_s', replica: '0', total: 20 },
      { ...base, family: 'vllm:time_to_first_token_seconds', replica: '1', total: 20 },
      { ...base, family: 'vllm:inter_token_latency_seconds', replica: '1', total: 79 },
      { ...base, family: 'vllm:time_to_first_token_seconds', scope: 'stage', replica: null, total: 20 },
    ]);
    assert.match(
      rows[0]?.caveat ?? '',
      /^TTFT not recorded on stage 1 replica 0: no TTFT sample but 79 inter-token latencies since the server started\. This looks like the codec TTFT bug/,
    );
    assert.equal(rows[1]?.caveat, rows[0]?.caveat);
    assert.equal(rows[2]?.caveat, rows[0]?.caveat, 'prefill of that replica is unusable too');
    assert.equal(rows[3]?.caveat, null, 'audio TTFP is not affected');
    assert.equal(rows[4]?.caveat, null, 'replica 1 records its TTFT');
    assert.equal(rows[6]?.caveat, rows[0]?.caveat, 'the stage row mixes in the broken replica');
    // A quiet window (count 0) on a correct build is not the bug: totals decide.
    assert.ok(
      withKnownCaveats([
        { ...base, family: 'vllm:time_to_first_token_seconds', replica: '0', total: 5 },
        { ...base, family: 'vllm:inter_token_latency_seconds', replica: '0', total: 9 },
      ]).every((r) => r.caveat === null),
    );
  });

  it('puts range points on the step grid; missing steps stay null', () => {
    const trend = trendOf(
      'vllm:e2e_request_latency_seconds',
      [
        {
          metric: { stage: '0', replica: '1' },
          samples: [
            { t: 100, v: 2 },
            { t: 110, v: 3 },
          ],
        },
        {
          metric: { stage: '0', replica: '0' },
          samples: [
            { t: 105.0004, v: 1 },
            { t: 200, v: 9 },
          ],
        },
      ],
      100,
      5,
      3,
    );
    assert.deepEqual(trend, {
      family: 'vllm:e2e_request_latency_seconds',
      stepSeconds: 5,
      times: [100_000, 105_000, 110_000],
      series: [
        { stage: '0', replica: '0', perSecond: [null, 1, null] },
        { stage: '0', replica: '1', perSecond: [2, null, 3] },
      ],
    });
  });
});
