import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseExposition } from '../../server/core/metricsText/exposition';
import { canonicalMetricName, findFamily } from '../../server/core/metricsText/metricNames';
import { replicaIdOf, stageIdOf } from '../../server/core/metricsText/labels';
import type {
  HistogramFamily,
  MetricFamily,
  ParsedExposition,
  ScalarFamily,
  SummaryFamily,
} from '../../server/core/metricsText/model';
import { assertLinear } from './support/linearity';
import { HEALTHY_SCRAPE } from './support/scrapeFixtures';

function family(parsed: ParsedExposition, name: string): MetricFamily {
  const found = findFamily(parsed, name);
  assert.ok(found, `family ${name} missing`);
  return found;
}

function histogram(parsed: ParsedExposition, name: string): HistogramFamily {
  const found = family(parsed, name);
  assert.equal(found.type, 'histogram');
  return found as HistogramFamily;
}

function scalar(parsed: ParsedExposition, name: string): ScalarFamily {
  const found = family(parsed, name);
  assert.ok(found.type === 'counter' || found.type === 'gauge' || found.type === 'untyped');
  return found as ScalarFamily;
}

describe('parseExposition: a realistic 2-stage vLLM-Omni scrape', () => {
  const parsed = parseExposition(HEALTHY_SCRAPE);

  it('parses every line without problems and folds _created gauges into their parents', () => {
    assert.deepEqual(parsed.problems, []);
    assert.deepEqual(
      parsed.families.map((f) => `${f.name}:${f.type}`),
      [
        'vllm:num_requests_running:gauge',
        'vllm:request_success_total:counter',
        'vllm:time_to_first_token_seconds:histogram',
        'vllm:inter_token_latency_seconds:histogram',
        'vllm:request_prefill_time_seconds:histogram',
        'vllm:request_decode_time_seconds:histogram',
        'vllm:request_inference_time_seconds:histogram',
        'vllm_omni:audio_ttfp_s:histogram',
        'vllm_omni:e2e_request_latency_s:histogram',
        'vllm_omni:requests_success_total:counter',
        'vllm_omni:stage_waiting_requests:gauge',
      ],
    );
    const sampleLines = HEALTHY_SCRAPE.split('\n').filter((line) => line !== '' && !line.startsWith('#')).length;
    assert.equal(parsed.sampleCount, sampleLines);
  });

  it('groups _bucket/_sum/_count/_created per stage series with sorted buckets', () => {
    const ttft = histogram(parsed, 'vllm:time_to_first_token_seconds');
    assert.equal(ttft.help, 'Histogram of time to first token in seconds.');
    assert.equal(ttft.series.length, 2);
    const stage0 = ttft.series[0];
    assert.ok(stage0);
    assert.deepEqual(stage0.labels, { model_name: 'Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice', stage: '0', replica: '0' });
    assert.equal(stage0.count, 8);
    assert.equal(stage0.sum, 0.673);
    assert.equal(stage0.created, 1784900000.25);
    assert.equal(stage0.buckets.length, 23);
    assert.deepEqual(stage0.buckets.slice(3, 8), [
      { le: 0.02, cumulative: 0 },
      { le: 0.04, cumulative: 2 },
      { le: 0.06, cumulative: 5 },
      { le: 0.08, cumulative: 6 },
      { le: 0.1, cumulative: 7 },
    ]);
    assert.deepEqual(stage0.buckets[22], { le: Infinity, cumulative: 8 });
    assert.equal(stageIdOf(stage0.labels), 0);
    assert.equal(replicaIdOf(stage0.labels), 0);
    assert.equal(stageIdOf(ttft.series[1]?.labels ?? {}), 1);
  });

  it('keeps counters with their _total name and attaches _created', () => {
    const success = scalar(parsed, 'vllm:request_success_total');
    assert.equal(success.type, 'counter');
    assert.deepEqual(
      success.series.map((s) => [s.labels['stage'], s.labels['finished_reason'], s.value, s.created]),
      [
        ['0', 'stop', 8, 1784900000.25],
        ['0', 'length', 0, 1784900000.25],
        ['1', 'stop', 8, 1784900000.25],
      ],
    );
    const waiting = scalar(parsed, 'vllm_omni:stage_waiting_requests');
    assert.deepEqual(
      waiting.series.map((s) => [stageIdOf(s.labels), replicaIdOf(s.labels), s.value]),
      [
        [0, null, 0],
        [1, null, 1],
      ],
    );
  });

  it('reads the legacy vllm:omni_ prefix under the canonical name and keeps the original', () => {
    const legacy = parseExposition(HEALTHY_SCRAPE.replaceAll('vllm_omni:', 'vllm:omni_'));
    assert.deepEqual(legacy.problems, []);
    const ttfp = histogram(legacy, 'vllm_omni:audio_ttfp_s');
    assert.equal(ttfp.name, 'vllm:omni_audio_ttfp_s');
    assert.equal(ttfp.canonicalName, 'vllm_omni:audio_ttfp_s');
    assert.deepEqual(ttfp.series, histogram(parsed, 'vllm_omni:audio_ttfp_s').series);
    // Either spelling finds it.
    assert.equal(findFamily(legacy, 'vllm:omni_audio_ttfp_s'), ttfp);
    // Upstream vllm:* names are not touched by the normalisation.
    assert.equal(canonicalMetricName('vllm:time_to_first_token_seconds'), 'vllm:time_to_first_token_seconds');
    assert.equal(canonicalMetricName('vllm:omni_stage_gen_time_s'), 'vllm_omni:stage_gen_time_s');
  });

  it('accepts both prefixes in one body as two families with the same canonical name', () => {
    const mixed = parseExposition(
      [
        '# TYPE vllm:omni_requests_success_total counter',
        'vllm:omni_requests_success_total{model_name="m",finished_reason="stop"} 3',
        '# TYPE vllm_omni:num_requests_running gauge',
        'vllm_omni:num_requests_running{model_name="m"} 2',
      ].join('\n') + '\n',
    );
    assert.deepEqual(mixed.problems, []);
    assert.deepEqual(
      mixed.families.map((f) => [f.name, f.canonicalName]),
      [
        ['vllm:omni_requests_success_total', 'vllm_omni:requests_success_total'],
        ['vllm_omni:num_requests_running', 'vllm_omni:num_requests_running'],
      ],
    );
  });
});

describe('parseExposition: syntax', () => {
  it('unescapes \\" \\\\ and \\n in label values and keeps other escapes verbatim', () => {
    const parsed = parseExposition(
      String.raw`odd{path="C:\\models\\tts",quote="say \"hi\"",lines="a\nb",other="x\ty"} 1` + '\n',
    );
    assert.deepEqual(parsed.problems, []);
    const odd = scalar(parsed, 'odd');
    assert.equal(odd.type, 'untyped');
    assert.deepEqual(odd.series[0]?.labels, {
      path: 'C:\\models\\tts',
      quote: 'say "hi"',
      lines: 'a\nb',
      other: 'x\\ty',
    });
  });

  it('reads NaN, +Inf, -Inf, exponents, timestamps, blanks and an empty label set', () => {
    const parsed = parseExposition(
      [
        '# TYPE g gauge',
        'g{k="nan"} NaN',
        'g{k="pinf"} +Inf',
        'g{k="minf"} -Inf',
        'g{k="exp"} 1.5e-3',
        'g{k="exp2"} -2E+2 1700000000123',
        'g{ k = "spaced" , } \t 7  ',
        'g{} 9',
      ].join('\r\n') + '\r\n',
    );
    assert.deepEqual(parsed.problems, []);
    const g = scalar(parsed, 'g');
    const values = new Map(g.series.map((s) => [s.labels['k'] ?? '(none)', s]));
    assert.ok(Number.isNaN(values.get('nan')?.value));
    assert.equal(values.get('pinf')?.value, Infinity);
    assert.equal(values.get('minf')?.value, -Infinity);
    assert.equal(values.get('exp')?.value, 0.0015);
    assert.equal(values.get('exp2')?.value, -200);
    assert.equal(values.get('exp2')?.timestampMs, 1700000000123);
    assert.equal(values.get('exp')?.timestampMs, null);
    assert.equal(values.get('spaced')?.value, 7);
    assert.equal(values.get('(none)')?.value, 9);
  });

  it('decodes HELP escapes and keeps HELP-only and undeclared families', () => {
    const parsed = parseExposition(
      [
        '# HELP lonely Line one\\nline \\\\two',
        '# a free comment',
        'undeclared_thing 4',
        '# TYPE empty_counter counter',
      ].join('\n') + '\n',
    );
    assert.deepEqual(parsed.problems, []);
    assert.equal(family(parsed, 'lonely').help, 'Line one\nline \\two');
    assert.equal(family(parsed, 'lonely').type, 'untyped');
    assert.equal(scalar(parsed, 'undeclared_thing').series[0]?.value, 4);
    assert.deepEqual(scalar(parsed, 'empty_counter').series, []);
  });

  it('groups summaries by quantile and OpenMetrics-style counters declared without _total', () => {
    const parsed = parseExposition(
      [
        '# TYPE rpc summary',
        'rpc{quantile="0.5"} 0.2',
        'rpc{quantile="0.99"} 1.5',
        'rpc_sum 12',
        'rpc_count 40',
        '# TYPE jobs counter',
        'jobs_total{kind="a"} 5',
        'jobs_created{kind="a"} 100',
      ].join('\n') + '\n',
    );
    assert.deepEqual(parsed.problems, []);
    const rpc = family(parsed, 'rpc') as SummaryFamily;
    assert.equal(rpc.type, 'summary');
    assert.deepEqual(rpc.series, [
      {
        labels: {},
        quantiles: [
          { quantile: 0.5, value: 0.2 },
          { quantile: 0.99, value: 1.5 },
        ],
        sum: 12,
        count: 40,
        created: null,
      },
    ]);
    assert.deepEqual(scalar(parsed, 'jobs').series, [
      { labels: { kind: 'a' }, value: 5, timestampMs: null, created: 100 },
    ]);
  });

  it('takes the histogram count from the +Inf bucket when _count is missing, and keeps null sum', () => {
    const parsed = parseExposition(
      ['# TYPE h histogram', 'h_bucket{le="1"} 2', 'h_bucket{le="+Inf"} 3'].join('\n') + '\n',
    );
    const series = histogram(parsed, 'h').series[0];
    assert.equal(series?.count, 3);
    assert.equal(series?.sum, null);
  });

  it('stores a label named __proto__ as an ordinary label', () => {
    const parsed = parseExposition('x{__proto__="p",stage="2"} 1\n');
    const labels = scalar(parsed, 'x').series[0]?.labels;
    assert.ok(labels);
    assert.deepEqual(Object.keys(labels), ['__proto__', 'stage']);
    assert.equal(labels['__proto__'], 'p');
    assert.equal(stageIdOf(labels), 2);
  });
});

describe('parseExposition: garbage', () => {
  it('reports bad lines with 1-based line numbers and loses nothing else', () => {
    const body =
      [
        '# TYPE vllm:time_to_first_token_seconds histogram', // 1
        'vllm:time_to_first_token_seconds_bucket{stage="0",le="0.1"} 1', // 2
        'vllm:time_to_first_token_seconds_bucket{stage="0",le="0.5"} oops', // 3 bad value
        'vllm:time_to_first_token_seconds_bucket{stage="0",le="+Inf"} 2', // 4
        'vllm:time_to_first_token_seconds_count{stage="0"} 2', // 5
        '<html><body>502 Bad Gateway</body></html>', // 6 not a sample
        'vllm:time_to_first_token_seconds_bucket{stage="0"} 7', // 7 no le
        'broken{stage="0" 1', // 8 unterminated label set
        'unterminated{a="b} 1', // 9 unterminated value
        'twice{a="1",a="2"} 1', // 10 duplicate label
        'trailing 1 2 3', // 11 text after timestamp
        'nostamp 1 12.5', // 12 timestamp not an integer
        '# TYPE weird bogus', // 13 unknown type
        'vllm:time_to_first_token_seconds_count{stage="0"} 3', // 14 duplicate sample
        '# TYPE vllm:time_to_first_token_seconds gauge', // 15 duplicate TYPE
        'vllm:time_to_first_token_seconds{stage="0"} 1', // 16 bare histogram sample
        'value_less', // 17 no value
        'ok_after_garbage 42', // 18 fine
      ].join('\n') + '\n';
    const parsed = parseExposition(body);
    assert.deepEqual(
      parsed.problems.map((p) => p.line),
      [3, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17],
    );
    for (const problem of parsed.problems) assert.ok(problem.message.length > 0);
    assert.match(parsed.problems[0]?.message ?? '', /invalid sample value "oops"/);
    assert.match(parsed.problems[2]?.message ?? '', /no "le" label/);
    const ttft = histogram(parsed, 'vllm:time_to_first_token_seconds').series[0];
    assert.deepEqual(ttft?.buckets, [
      { le: 0.1, cumulative: 1 },
      { le: Infinity, cumulative: 2 },
    ]);
    assert.equal(ttft?.count, 2); // the first _count is kept
    assert.equal(scalar(parsed, 'ok_after_garbage').series[0]?.value, 42);
    assert.equal(parsed.sampleCount, 4);
  });

  it('never throws on arbitrary bytes', () => {
    let seed = 7;
    const random = (): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    const alphabet = 'ab_:{}="\\,# \t\n\r0123456789.eE+-InfNa\u00e9\u0000';
    for (let round = 0; round < 200; round++) {
      let text = '';
      const length = Math.floor(random() * 400);
      for (let i = 0; i < length; i++) text += alphabet[Math.floor(random() * alphabet.length)];
      const parsed = parseExposition(text);
      assert.ok(Array.isArray(parsed.families));
    }
  });

  it('stays linear on a large body', () => {
    const line = 'vllm:inter_token_latency_seconds_bucket{model_name="m",stage="1",replica="0",le="0.1"} 12.0\n';
    const bodyOf = (n: number): string =>
      '# TYPE vllm:inter_token_latency_seconds histogram\n' + line + 'garbage {{{\n'.repeat(n) + line.repeat(2 * n);
    const parsed = parseExposition(bodyOf(100_000));
    assert.equal(parsed.problems.length, 100_000 + 200_000); // garbage + duplicate buckets
    // Growth from n to 4n, not a wall-clock bound: it holds on a loaded machine.
    assertLinear('a body of garbage lines and duplicate buckets', bodyOf, (body) => parseExposition(body), {
      start: 256,
      targetMs: 8,
      maxN: 400_000,
    });
  });
});
