// The PromQL Stage Lens writes: escaping of values from settings, durations, and the
// exact text of the discovery, family and trend queries.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  checkDeploymentLabel,
  deploymentsQuery,
  discoveryQuery,
  durationMs,
  exposedNames,
  familyOfSeriesName,
  familyQuery,
  formatDuration,
  isLabelName,
  parseWindow,
  PROMETHEUS_FAMILIES,
  regexEscape,
  seriesSelector,
  stringLiteral,
  trendQuery,
  type QueryWindow,
} from '../../server/core/prometheusQuery';

const FIVE_MINUTES: QueryWindow = { kind: 'rate', duration: '5m', ms: 300_000 };

describe('PromQL syntax', () => {
  it('quotes label values so that quotes, backslashes and newlines stay inside the literal', () => {
    assert.equal(stringLiteral('tts-prod'), '"tts-prod"');
    assert.equal(stringLiteral('a"b'), '"a\\"b"');
    assert.equal(stringLiteral('C:\\models'), '"C:\\\\models"');
    assert.equal(stringLiteral('x"} or vector(1) or {a="'), '"x\\"} or vector(1) or {a=\\""');
    assert.equal(stringLiteral('line\nnext\ttab'), '"line\\nnext\\ttab"');
    assert.equal(stringLiteral('stage-0 ⟶ 1'), '"stage-0 ⟶ 1"');
  });

  it('escapes regular-expression metacharacters of names', () => {
    assert.equal(regexEscape('vllm:e2e_request_latency_seconds_bucket'), 'vllm:e2e_request_latency_seconds_bucket');
    assert.equal(regexEscape('a.b|c(d)*'), 'a\\.b\\|c\\(d\\)\\*');
  });

  it('accepts label names only', () => {
    for (const ok of ['job', 'deployment', 'k8s_namespace', '_x']) assert.ok(isLabelName(ok), ok);
    for (const bad of ['', '9lives', 'a-b', 'a b', '__name__', 'job"}', 'ünï']) assert.ok(!isLabelName(bad), bad);
    assert.match(checkDeploymentLabel('a-b') ?? '', /"a-b" is not a Prometheus label name/);
    assert.equal(checkDeploymentLabel('namespace'), null);
  });

  it('reads PromQL durations and refuses everything else', () => {
    assert.equal(durationMs('5m'), 300_000);
    assert.equal(durationMs('30s'), 30_000);
    assert.equal(durationMs('1h30m'), 5_400_000);
    assert.equal(durationMs('500ms'), 500);
    assert.equal(durationMs('2d'), 172_800_000);
    assert.equal(durationMs('1w'), 604_800_000);
    for (const bad of ['', '5', '5x', 'm5', '5m1h', '-5m', '1.5m', '0s', '5 m', 'all'])
      assert.equal(durationMs(bad), null, bad);
    assert.equal(formatDuration(90_000), '1m30s');
    assert.equal(formatDuration(300_000), '5m');
    assert.equal(formatDuration(1500), '1s500ms');
  });

  it('reads the window setting: a duration or "all"', () => {
    assert.deepEqual(parseWindow(' 5m '), FIVE_MINUTES);
    assert.deepEqual(parseWindow('all'), { kind: 'cumulative' });
    const bad = parseWindow('five minutes');
    assert.ok('error' in bad);
    assert.match(bad.error, /"five minutes" is not a PromQL duration like 30s, 5m or 1h \(or "all"/);
  });
});

describe('family names', () => {
  it('knows both prefix generations of the vLLM-Omni families', () => {
    assert.deepEqual(exposedNames('vllm_omni:audio_ttfp_s'), ['vllm_omni:audio_ttfp_s', 'vllm:omni_audio_ttfp_s']);
    assert.deepEqual(exposedNames('vllm:time_to_first_token_seconds'), ['vllm:time_to_first_token_seconds']);
    assert.deepEqual(familyOfSeriesName('vllm:omni_audio_ttfp_s_count'), {
      family: 'vllm_omni:audio_ttfp_s',
      suffix: 'count',
    });
    assert.deepEqual(familyOfSeriesName('vllm:request_queue_time_seconds_bucket'), {
      family: 'vllm:request_queue_time_seconds',
      suffix: 'bucket',
    });
    assert.equal(familyOfSeriesName('vllm:num_requests_running'), null);
    assert.equal(
      familyOfSeriesName('vllm_omni:transfer_tx_s_count'),
      null,
      'transfer families are labelled by edge, not read by stage',
    );
  });

  it('reads the per-stage families but not the per-edge transfer families', () => {
    assert.ok(PROMETHEUS_FAMILIES.includes('vllm_omni:audio_ttfp_s'));
    assert.ok(PROMETHEUS_FAMILIES.includes('vllm:request_prefill_time_seconds'));
    assert.ok(!PROMETHEUS_FAMILIES.some((f) => f.includes('transfer_')));
  });
});

describe('queries', () => {
  const prod = { label: 'deployment', value: 'tts "prod"' };

  it('selects the series of one deployment by name regex and an escaped label value', () => {
    assert.equal(
      seriesSelector(['vllm_omni:audio_ttfp_s_bucket', 'vllm:omni_audio_ttfp_s_bucket'], prod),
      '{__name__=~"vllm_omni:audio_ttfp_s_bucket|vllm:omni_audio_ttfp_s_bucket",deployment="tts \\"prod\\""}',
    );
    assert.equal(seriesSelector(['a_count'], { label: 'job', value: null }), '{__name__=~"a_count",job!=""}');
  });

  it('windowed family query: histogram_quantile over rate() by (le, stage, replica) and by (le, stage), counts by increase(), the top buckets', () => {
    const q = familyQuery(['vllm_omni:audio_ttfp_s'], { label: 'job', value: 'tts' }, FIVE_MINUTES);
    const bucket = '{__name__=~"vllm_omni:audio_ttfp_s_bucket",job="tts"}';
    const count = '{__name__=~"vllm_omni:audio_ttfp_s_count",job="tts"}';
    const sum = '{__name__=~"vllm_omni:audio_ttfp_s_sum",job="tts"}';
    const finite = '{__name__=~"vllm_omni:audio_ttfp_s_bucket",job="tts",le!="+Inf"}';
    const inf = '{__name__=~"vllm_omni:audio_ttfp_s_bucket",job="tts",le="+Inf"}';
    const tag = (e: string, stat: string, scope: string): string =>
      `label_replace(label_replace(${e}, "stage_lens_stat", "${stat}", "", ""), "stage_lens_scope", "${scope}", "", "")`;
    const expected = [
      tag(`histogram_quantile(0.5, sum by (le, stage, replica) (rate(${bucket}[5m])))`, 'p50', 'replica'),
      tag(`histogram_quantile(0.9, sum by (le, stage, replica) (rate(${bucket}[5m])))`, 'p90', 'replica'),
      tag(`histogram_quantile(0.99, sum by (le, stage, replica) (rate(${bucket}[5m])))`, 'p99', 'replica'),
      tag(`sum by (stage, replica) (increase(${count}[5m]))`, 'count', 'replica'),
      tag(`sum by (stage, replica) (increase(${sum}[5m]))`, 'sum', 'replica'),
      tag(`sum by (stage, replica) (${count})`, 'total', 'replica'),
      tag(`max by (stage, replica) (sum by (le, stage, replica) (rate(${finite}[5m])))`, 'finiteBuckets', 'replica'),
      tag(`sum by (stage, replica) (rate(${inf}[5m]))`, 'allBuckets', 'replica'),
      tag(`min by (stage, replica) (sum by (le, stage, replica) (rate(${bucket}[5m])))`, 'lowestBucket', 'replica'),
      tag(`histogram_quantile(0.5, sum by (le, stage) (rate(${bucket}[5m])))`, 'p50', 'stage'),
      tag(`histogram_quantile(0.9, sum by (le, stage) (rate(${bucket}[5m])))`, 'p90', 'stage'),
      tag(`histogram_quantile(0.99, sum by (le, stage) (rate(${bucket}[5m])))`, 'p99', 'stage'),
      tag(`sum by (stage) (increase(${count}[5m]))`, 'count', 'stage'),
      tag(`sum by (stage) (increase(${sum}[5m]))`, 'sum', 'stage'),
      tag(`sum by (stage) (${count})`, 'total', 'stage'),
      tag(`max by (stage) (sum by (le, stage) (rate(${finite}[5m])))`, 'finiteBuckets', 'stage'),
      tag(`sum by (stage) (rate(${inf}[5m]))`, 'allBuckets', 'stage'),
      tag(`min by (stage) (sum by (le, stage) (rate(${bucket}[5m])))`, 'lowestBucket', 'stage'),
    ].join(' or ');
    assert.equal(q, expected);
  });

  it('cumulative family query: the raw counters, no rate(), no separate total', () => {
    const q = familyQuery(['vllm:e2e_request_latency_seconds'], { label: 'job', value: 'tts' }, { kind: 'cumulative' });
    assert.ok(!q.includes('rate('));
    assert.ok(!q.includes('increase('));
    assert.ok(!q.includes('"total"'));
    assert.ok(
      q.includes(
        'histogram_quantile(0.9, sum by (le, stage, replica) ({__name__=~"vllm:e2e_request_latency_seconds_bucket",job="tts"}))',
      ),
    );
    assert.ok(q.includes('sum by (stage) ({__name__=~"vllm:e2e_request_latency_seconds_count",job="tts"})'));
    assert.ok(
      q.includes(
        'max by (stage, replica) (sum by (le, stage, replica) ({__name__=~"vllm:e2e_request_latency_seconds_bucket",job="tts",le!="+Inf"}))',
      ),
    );
  });

  it('discovery groups the _count series by name, stage, replica and instance (and the deployment label when no value is chosen)', () => {
    const chosen = discoveryQuery({ label: 'deployment', value: 'a' }, ['vllm_omni:audio_rtf']);
    assert.equal(
      chosen,
      'group by (__name__, stage, replica, instance) ({__name__=~"vllm_omni:audio_rtf_count|vllm:omni_audio_rtf_count",deployment="a"})',
    );
    const open = discoveryQuery({ label: 'namespace', value: null }, ['vllm:e2e_request_latency_seconds']);
    assert.equal(
      open,
      'group by (__name__, stage, replica, instance, namespace) ({__name__=~"vllm:e2e_request_latency_seconds_count",namespace!=""})',
    );
    // `instance` as the deployment label is not grouped twice.
    assert.ok(
      discoveryQuery({ label: 'instance', value: null }).startsWith('group by (__name__, stage, replica, instance) ('),
    );
    assert.ok(
      deploymentsQuery('job').startsWith('group by (job) ({__name__=~"vllm:time_to_first_token_seconds_count|'),
    );
  });

  it('trend: about 60 steps over the window, rate over at least a minute', () => {
    const five = trendQuery(['vllm:e2e_request_latency_seconds'], { label: 'job', value: 'tts' }, FIVE_MINUTES);
    assert.deepEqual([five.rangeSeconds, five.stepSeconds], [300, 5]);
    assert.equal(
      five.expr,
      'sum by (stage, replica) (rate({__name__=~"vllm:e2e_request_latency_seconds_count",job="tts"}[1m]))',
    );
    const hour = trendQuery(['x'], { label: 'job', value: 'tts' }, { kind: 'rate', duration: '1h', ms: 3_600_000 });
    assert.deepEqual([hour.rangeSeconds, hour.stepSeconds], [3600, 60]);
    assert.ok(hour.expr.endsWith('[4m]))'));
    const all = trendQuery(['x'], { label: 'job', value: 'tts' }, { kind: 'cumulative' });
    assert.deepEqual([all.rangeSeconds, all.stepSeconds], [900, 15]);
    const short = trendQuery(['x'], { label: 'job', value: 'tts' }, { kind: 'rate', duration: '10s', ms: 10_000 });
    assert.deepEqual([short.rangeSeconds, short.stepSeconds], [60, 1]);
  });
});
