// The per-stage view, the codec TTFT signature and the diffusion pre-processing zeros,
// on the realistic scrapes of scrapeFixtures.ts.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseExposition } from '../../server/core/metricsText/exposition';
import { stageHistogramRows, type StageHistogramRow } from '../../server/core/metricsText/stageHistograms';
import { findCodecTtftSignature } from '../../server/core/metricsText/codecTtftSignature';
import { diffusionPreprocessFirstBuckets } from '../../server/core/metricsText/preprocessZeros';
import { summarizeScrape } from '../../server/core/metricsText/scrapeSummary';
import { BUGGY_CODEC_SCRAPE, HEALTHY_SCRAPE } from './support/scrapeFixtures';

function close(actual: number | null | undefined, expected: number, message = ''): void {
  assert.ok(typeof actual === 'number', `${message}: ${String(actual)} is not a number`);
  assert.ok(
    Math.abs(actual - expected) <= 1e-9 * Math.max(1, Math.abs(expected)),
    `${message}: ${actual} != ${expected}`,
  );
}

function row(rows: readonly StageHistogramRow[], family: string, stageId: number | null): StageHistogramRow {
  const found = rows.filter((r) => r.family === family && r.stageId === stageId);
  assert.equal(found.length, 1, `${family} stage ${stageId}: ${found.length} rows`);
  return found[0];
}

describe('stageHistogramRows', () => {
  const rows = stageHistogramRows(parseExposition(HEALTHY_SCRAPE));

  it('computes PromQL quantiles per stage, in the family unit and in ms', () => {
    // audio_ttfp_s stage 1 buckets: 0.1:0 0.25:5 0.5:7 1:7 2:8 +Inf:8
    const ttfp = row(rows, 'vllm_omni:audio_ttfp_s', 1);
    assert.equal(ttfp.replicaId, 0);
    assert.equal(ttfp.count, 8);
    close(ttfp.sum, 2.87, 'sum');
    close(ttfp.p50, 0.22, 'p50'); // rank 4: 0.1 + 0.15 * 4/5
    close(ttfp.p90, 1.2, 'p90'); // rank 7.2: 1 + 1 * 0.2/1
    close(ttfp.p99, 1.92, 'p99'); // rank 7.92: 1 + 1 * 0.92/1
    close(ttfp.ms?.p50, 220, 'ms p50');
    close(ttfp.ms?.p90, 1200, 'ms p90');
    close(ttfp.ms?.p99, 1920, 'ms p99');
    close(ttfp.ms?.sum, 2870, 'ms sum');
    assert.deepEqual(ttfp.openEnded, []);
    assert.deepEqual(ttfp.firstBucket, { le: 0.05, count: 0 });
  });

  it('reads upstream vllm:* histograms per stage', () => {
    // TTFT stage 0 buckets: 0.04:2 0.06:5 0.08:6 0.1:7 0.25:7 0.5:8
    const ttft = row(rows, 'vllm:time_to_first_token_seconds', 0);
    close(ttft.p50, 0.04 + 0.02 * (2 / 3), 'p50'); // rank 4 in (0.04, 0.06]
    close(ttft.p90, 0.3, 'p90'); // rank 7.2 in (0.25, 0.5]: 0.25 + 0.25 * 0.2
    close(ttft.p99, 0.48, 'p99');
    close(ttft.ms?.p50, 53.333333333333336, 'ms p50');
  });

  it('gives pipeline-global families a null stage and keeps family order', () => {
    // e2e buckets: 1:0 2:3 5:7 10:8
    const e2e = row(rows, 'vllm_omni:e2e_request_latency_s', null);
    close(e2e.p50, 2.75, 'p50'); // rank 4: 2 + 3 * 1/4
    close(e2e.p90, 6, 'p90'); // rank 7.2: 5 + 5 * 0.2
    close(e2e.p99, 9.6, 'p99');
    assert.deepEqual(
      [...new Set(rows.map((r) => r.family))],
      [
        'vllm:time_to_first_token_seconds',
        'vllm:request_prefill_time_seconds',
        'vllm:request_decode_time_seconds',
        'vllm:request_inference_time_seconds',
        'vllm:inter_token_latency_seconds',
        'vllm_omni:e2e_request_latency_s',
        'vllm_omni:audio_ttfp_s',
      ],
    );
  });

  it('synthesises nothing: absent families and stages have no row, an empty series has null quantiles', () => {
    assert.equal(rows.filter((r) => r.family === 'vllm_omni:diffusion_exec_s').length, 0);
    assert.equal(rows.filter((r) => r.family === 'vllm_omni:audio_ttfp_s' && r.stageId === 0).length, 0);
    const buggy = stageHistogramRows(parseExposition(BUGGY_CODEC_SCRAPE));
    const codecTtft = row(buggy, 'vllm:time_to_first_token_seconds', 1);
    assert.equal(codecTtft.count, 0);
    assert.equal(codecTtft.p50, null);
    assert.equal(codecTtft.p99, null);
    assert.equal(codecTtft.ms?.p50, null);
  });

  it('marks quantiles that fell into the +Inf bucket as open-ended', () => {
    const buggy = stageHistogramRows(parseExposition(BUGGY_CODEC_SCRAPE));
    // All 8 codec decode times (~8124 s) are above the last finite bound 7680.
    const decode = row(buggy, 'vllm:request_decode_time_seconds', 1);
    assert.equal(decode.p50, 7680);
    assert.deepEqual(decode.openEnded, ['p50', 'p90', 'p99']);
    // ITL stage 1: 22 of 30 below 80 s. p50 (rank 15) is finite, p90/p99 are not.
    const itl = row(buggy, 'vllm:inter_token_latency_seconds', 1);
    assert.deepEqual(itl.openEnded, ['p90', 'p99']);
    // And the lie the signature exists for: negative prefills land in the first
    // bucket, so PromQL reports a plausible positive p50 (0.3 * 4/8).
    close(row(buggy, 'vllm:request_prefill_time_seconds', 1).p50, 0.15, 'prefill p50');
  });

  it('treats the legacy prefix the same way', () => {
    const legacy = stageHistogramRows(parseExposition(HEALTHY_SCRAPE.replaceAll('vllm_omni:', 'vllm:omni_')));
    const ttfp = row(legacy, 'vllm_omni:audio_ttfp_s', 1);
    assert.equal(ttfp.exposedName, 'vllm:omni_audio_ttfp_s');
    close(ttfp.p50, 0.22, 'p50');
  });
});

describe('findCodecTtftSignature', () => {
  it('flags the codec stage of a build without the fix, with all three clues', () => {
    const suspects = findCodecTtftSignature(parseExposition(BUGGY_CODEC_SCRAPE));
    assert.equal(suspects.length, 1);
    const codec = suspects[0];
    assert.ok(codec);
    assert.equal(codec.stageId, 1);
    assert.equal(codec.replicaId, 0);
    assert.equal(codec.itlCount, 30);
    assert.equal(codec.decodeCount, 8);
    assert.equal(codec.corroborated, true);
    assert.deepEqual(
      codec.clues.map((clue) => [clue.code, clue.value]),
      [
        ['itl-beyond-buckets', 8], // 30 ITLs, 22 <= 80 s
        ['negative-prefill-sum', -64988],
        ['decode-exceeds-inference', 65020 - 32],
      ],
    );
    assert.match(codec.message, /TTFT not recorded on stage 1/);
  });

  it('says nothing about a healthy scrape', () => {
    assert.deepEqual(findCodecTtftSignature(parseExposition(HEALTHY_SCRAPE)), []);
  });

  const lines = (ttft: string | null, itlCount: number, prefillSum: number): string =>
    [
      '# TYPE vllm:time_to_first_token_seconds histogram',
      ...(ttft === null ? [] : [`vllm:time_to_first_token_seconds_bucket{stage="1",replica="0",le="+Inf"} ${ttft}`]),
      ...(ttft === null ? [] : [`vllm:time_to_first_token_seconds_count{stage="1",replica="0"} ${ttft}`]),
      '# TYPE vllm:inter_token_latency_seconds histogram',
      `vllm:inter_token_latency_seconds_bucket{stage="1",replica="0",le="80.0"} ${itlCount}`,
      `vllm:inter_token_latency_seconds_bucket{stage="1",replica="0",le="+Inf"} ${itlCount}`,
      `vllm:inter_token_latency_seconds_count{stage="1",replica="0"} ${itlCount}`,
      '# TYPE vllm:request_prefill_time_seconds histogram',
      `vllm:request_prefill_time_seconds_bucket{stage="1",replica="0",le="+Inf"} 2`,
      `vllm:request_prefill_time_seconds_sum{stage="1",replica="0"} ${prefillSum}`,
    ].join('\n');

  it('reports an uncorroborated suspect when only the TTFT/ITL mismatch is there', () => {
    const suspects = findCodecTtftSignature(parseExposition(lines('0', 5, 0.4)));
    assert.equal(suspects.length, 1);
    assert.equal(suspects[0]?.corroborated, false);
    assert.deepEqual(suspects[0]?.clues, []);
    assert.match(suspects[0]?.message ?? '', /looks like/);
  });

  it('stays silent when the TTFT series is absent, or has samples (an aborted request is no proof)', () => {
    assert.deepEqual(findCodecTtftSignature(parseExposition(lines(null, 5, -9000))), []);
    // Old vLLM: a request aborted after scheduling gives a negative prefill, but TTFTs exist.
    assert.deepEqual(findCodecTtftSignature(parseExposition(lines('3', 5, -9000))), []);
    // No ITL either: nothing contradicts "no token yet".
    assert.deepEqual(findCodecTtftSignature(parseExposition(lines('0', 0, -9000))), []);
  });
});

describe('diffusionPreprocessFirstBuckets', () => {
  it('exposes the first-bucket count as the upper bound of "no pre-processor" zeros', () => {
    // Observations 0, 0, 0, 0.0004, 0.02, 0.03 (FAST buckets), legacy prefix.
    const body =
      [
        '# TYPE vllm:omni_diffusion_preprocess_s histogram',
        'vllm:omni_diffusion_preprocess_s_bucket{model_name="glm",stage="1",replica="0",le="0.001"} 4.0',
        'vllm:omni_diffusion_preprocess_s_bucket{model_name="glm",stage="1",replica="0",le="0.005"} 4.0',
        'vllm:omni_diffusion_preprocess_s_bucket{model_name="glm",stage="1",replica="0",le="0.025"} 5.0',
        'vllm:omni_diffusion_preprocess_s_bucket{model_name="glm",stage="1",replica="0",le="0.05"} 6.0',
        'vllm:omni_diffusion_preprocess_s_bucket{model_name="glm",stage="1",replica="0",le="+Inf"} 6.0',
        'vllm:omni_diffusion_preprocess_s_count{model_name="glm",stage="1",replica="0"} 6.0',
        'vllm:omni_diffusion_preprocess_s_sum{model_name="glm",stage="1",replica="0"} 0.0504',
      ].join('\n') + '\n';
    assert.deepEqual(diffusionPreprocessFirstBuckets(parseExposition(body)), [
      {
        labels: { model_name: 'glm', stage: '1', replica: '0' },
        stageId: 1,
        replicaId: 0,
        count: 6,
        firstBucketLe: 0.001,
        firstBucketCount: 4,
      },
    ]);
  });

  it('returns nothing when the family is absent', () => {
    assert.deepEqual(diffusionPreprocessFirstBuckets(parseExposition(HEALTHY_SCRAPE)), []);
  });

  it("the codec's per-request TPOT is marked with its TTFT, prefill, decode and ITL: it is its decode time over its tokens", () => {
    const labels = (stage: string): string =>
      `model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="${stage}",replica="0"`;
    const tpot = (stage: string): string[] => [
      `vllm:request_time_per_output_token_seconds_bucket{${labels(stage)},le="0.1"} 0`,
      `vllm:request_time_per_output_token_seconds_bucket{${labels(stage)},le="80.0"} 0`,
      `vllm:request_time_per_output_token_seconds_bucket{${labels(stage)},le="+Inf"} 30`,
      `vllm:request_time_per_output_token_seconds_count{${labels(stage)}} 30`,
      `vllm:request_time_per_output_token_seconds_sum{${labels(stage)}} 9000000`,
    ];
    const body = [
      BUGGY_CODEC_SCRAPE,
      '# TYPE vllm:request_time_per_output_token_seconds histogram',
      ...tpot('0'),
      ...tpot('1'),
      '',
    ].join('\n');
    const rows = summarizeScrape(body).histograms;
    const caveatOf = (family: string, stage: number): string | null | undefined =>
      rows.find((r) => r.family === family && r.labels['stage'] === String(stage))?.caveat;
    const itl = caveatOf('vllm:inter_token_latency_seconds', 1);
    assert.ok(typeof itl === 'string' && itl.length > 0);
    assert.equal(caveatOf('vllm:request_time_per_output_token_seconds', 1), itl);
    assert.equal(caveatOf('vllm:request_time_per_output_token_seconds', 0), null);
  });

  it('the scrape summary says which quantiles may be "no pre-processor" zeros, and only those series', () => {
    const series = (stage: string, counts: readonly number[]): string[] => {
      const labels = `model_name="glm",stage="${stage}",replica="0"`;
      const les = ['0.001', '0.005', '0.025', '0.05', '+Inf'];
      return [
        ...les.map((le, i) => `vllm_omni:diffusion_preprocess_s_bucket{${labels},le="${le}"} ${counts[i]}`),
        `vllm_omni:diffusion_preprocess_s_count{${labels}} ${counts[4]}`,
      ];
    };
    // Stage 1: 4 of 6 in the first bucket (its p50 reads "<= 0.001"); stage 2: none there.
    const body =
      [
        '# TYPE vllm_omni:diffusion_preprocess_s histogram',
        ...series('1', [4, 4, 5, 6, 6]),
        ...series('2', [0, 0, 5, 6, 6]),
      ].join('\n') + '\n';
    const [first, second] = summarizeScrape(body).histograms;
    assert.equal(
      first?.caveat,
      'Pre-processing time on stage 1: 4 of 6 observations are at most 0.001 s, the bucket where vLLM-Omni also records 0 s for a request whose model has no pre-processor: p50 "≤ 0.001" may mean no pre-processor, not fast pre-processing.',
    );
    assert.equal(second?.caveat, null);
  });
});
