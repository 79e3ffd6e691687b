// metric-not-reporting from /metrics scrapes, the cost model, and the order statistics
// the queries are built on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseExposition } from '../../server/core/metricsText';
import { KvUsageTracker, metricNotReportingInScrape } from '../../server/core/explain/metricNotReporting';
import { costModel, ols, unfit } from '../../server/core/explain/costModel';
import { explainTable, fitLine } from '../../server/core/explain/explainTable';
import { explainJsonText, explainReport } from '../../server/core/explain/explainReport';
import { distributionInPlace, percentileInPlace } from '../../server/core/explain/select';
import { SortedTimes } from '../../server/core/explain/sortedTimes';
import { percentileOfSorted } from '../../server/core/analysis/distribution';
import { mulberry32 } from '../../server/simulate/seededRandom';
import { analyseSpecs, asyncChunk, int } from './support/explainLogs';

function histogram(name: string, stage: string, count: number, help = 'h'): string {
  const l = `model_name="m",stage="${stage}",replica="0"`;
  return [
    `# HELP ${name} ${help}`,
    `# TYPE ${name} histogram`,
    `${name}_bucket{le="1.0",${l}} ${count}`,
    `${name}_bucket{le="+Inf",${l}} ${count}`,
    `${name}_count{${l}} ${count}`,
    `${name}_sum{${l}} ${count * 0.5}`,
  ].join('\n');
}

function gauge(name: string, samples: [string, number][]): string {
  return [
    `# HELP ${name} g`,
    `# TYPE ${name} gauge`,
    ...samples.map(([stage, v]) => `${name}{model_name="m",stage="${stage}",replica="0"} ${v}`),
  ].join('\n');
}

const omniE2e = (count: number): string =>
  [
    '# HELP vllm_omni:e2e_request_latency_s e2e',
    '# TYPE vllm_omni:e2e_request_latency_s histogram',
    `vllm_omni:e2e_request_latency_s_bucket{le="+Inf",model_name="m"} ${count}`,
    `vllm_omni:e2e_request_latency_s_count{model_name="m"} ${count}`,
    `vllm_omni:e2e_request_latency_s_sum{model_name="m"} ${count}`,
  ].join('\n');

test('a scrape whose per-stage vllm:* families read 0 while vllm_omni:* counts finished requests (#4960, #5170)', () => {
  const body =
    [
      omniE2e(42),
      histogram('vllm:time_to_first_token_seconds', '0', 0),
      histogram('vllm:inter_token_latency_seconds', '0', 0),
      histogram('vllm:e2e_request_latency_seconds', '0', 0),
    ].join('\n') + '\n';
  const findings = metricNotReportingInScrape(parseExposition(body));
  assert.deepEqual(findings.map((f) => f.family).sort(), [
    'vllm:e2e_request_latency_seconds',
    'vllm:inter_token_latency_seconds',
    'vllm:time_to_first_token_seconds',
  ]);
  const ttft = findings.find((f) => f.family === 'vllm:time_to_first_token_seconds')!;
  assert.equal(ttft.code, 'metric-not-reporting');
  assert.equal(
    ttft.evidence,
    '0 on all 1 (stage, replica) series while vllm_omni:e2e_request_latency_s counts 42 finished requests',
  );
  assert.ok(ttft.knownCauses!.some((c) => c.startsWith('vllm-omni #5170')));
  assert.ok(ttft.knownCauses!.some((c) => c.startsWith('vllm-omni #4960')));
  // The same families with samples: nothing to report.
  const healthy =
    [
      omniE2e(42),
      histogram('vllm:time_to_first_token_seconds', '0', 42),
      histogram('vllm:inter_token_latency_seconds', '0', 900),
    ].join('\n') + '\n';
  assert.deepEqual(metricNotReportingInScrape(parseExposition(healthy)), []);
  // Zero before any request finished is a real 0.
  assert.deepEqual(
    metricNotReportingInScrape(
      parseExposition([omniE2e(0), histogram('vllm:time_to_first_token_seconds', '0', 0)].join('\n') + '\n'),
    ),
    [],
  );
});

test('a stage whose TTFT histogram has no sample while its ITL has some', () => {
  const body =
    [
      omniE2e(10),
      histogram('vllm:time_to_first_token_seconds', '0', 10),
      histogram('vllm:inter_token_latency_seconds', '0', 300),
      histogram('vllm:time_to_first_token_seconds', '1', 0),
      histogram('vllm:inter_token_latency_seconds', '1', 40),
    ].join('\n') + '\n';
  const findings = metricNotReportingInScrape(parseExposition(body));
  assert.equal(findings.length, 1);
  assert.equal(findings[0]!.stageId, 1);
  assert.equal(findings[0]!.evidence, 'stage 1 replica 0: no TTFT sample while its inter-token latency has 40');
  assert.ok(findings[0]!.knownCauses!.some((c) => c.startsWith('seed 000')));
});

test('KV-cache usage 0 on a replica running requests, in one scrape and over several (#4802)', () => {
  const one =
    [
      gauge('vllm:kv_cache_usage_perc', [
        ['0', 0.23],
        ['1', 0],
      ]),
      gauge('vllm:num_requests_running', [
        ['0', 4],
        ['1', 3],
      ]),
    ].join('\n') + '\n';
  const findings = metricNotReportingInScrape(parseExposition(one));
  assert.equal(findings.length, 1);
  assert.equal(findings[0]!.family, 'vllm:kv_cache_usage_perc');
  assert.equal(findings[0]!.evidence, 'stage 1 replica 0: 1 of 1 scrape with requests running (last: 3) read 0');
  // Over scrapes: one reading above 0 under load clears it; idle zeros do not count.
  const tracker = new KvUsageTracker();
  tracker.note({ stage: '1', replica: '0' }, 0, 2);
  tracker.note({ stage: '1', replica: '0' }, 0, 0);
  assert.equal(tracker.findings('vllm:kv_cache_usage_perc', 'scrapes').length, 1);
  tracker.note({ stage: '1', replica: '0' }, 0.1, 2);
  assert.equal(tracker.findings('vllm:kv_cache_usage_perc', 'scrapes').length, 0);
});

test('cost per token: a planted line is recovered; too few points, no spread or a constant y are skipped with the reason', () => {
  // Talker prefill = 20 ms + 0.05 ms per input token; decode = 3 ms + 10 ms per output token.
  const specs = Array.from({ length: 12 }, (_, i) => {
    const spec = asyncChunk(`r${i}`);
    const tokensIn = 100 * (i + 1);
    const tokensOut = 10 + (i % 4) * 20;
    const s0 = {
      ...spec.stages['0'],
      num_tokens_in: int(tokensIn),
      num_tokens_out: int(tokensOut),
      vllm_prefill_ms: 20 + 0.05 * tokensIn,
      vllm_decode_ms: 3 + 10 * tokensOut,
    };
    return { ...spec, stages: { ...spec.stages, '0': s0 } };
  });
  const { index } = analyseSpecs(specs);
  const model = costModel(index, {});
  const prefill = model.fits.find((f) => f.stageKey === '0' && f.x === 'num_tokens_in')!;
  assert.ok(
    Math.abs(prefill.slopeMsPer1kTokens - 50) < 1e-6 && Math.abs(prefill.interceptMs - 20) < 1e-6,
    JSON.stringify(prefill),
  );
  assert.ok(Math.abs(prefill.r2 - 1) < 1e-9);
  assert.equal(prefill.n, 12);
  assert.equal(prefill.y, 'vllm_prefill_ms');
  const decode = model.fits.find((f) => f.stageKey === '0' && f.x === 'num_tokens_out')!;
  assert.ok(Math.abs(decode.slopeMsPer1kTokens - 10_000) < 1e-6 && Math.abs(decode.interceptMs - 3) < 1e-6);
  // The codec's input tokens print 0 in every request (counted on stage 0 only): no counts, so no points and no line.
  assert.equal(
    [...model.fits, ...model.skipped].find((s) => s.stageKey === '1' && s.x === 'num_tokens_in'),
    undefined,
  );
  // Fewer than ten points: skipped.
  const few = costModel(analyseSpecs(specs.slice(0, 5)).index, {});
  assert.equal(few.fits.length, 0);
  assert.match(few.skipped[0]!.reason, /5 points \(at least 10 needed\)/);
});

test('cost per token: a falling line or one the tokens barely explain is not shown, with the reason', () => {
  // Twelve requests; the talker prefill against input tokens: falling in one run, scattered in the other.
  const build = (prefill: (i: number) => number) =>
    costModel(
      analyseSpecs(
        Array.from({ length: 12 }, (_, i) => {
          const spec = asyncChunk(`r${i}`);
          const s0 = { ...spec.stages['0'], num_tokens_in: int(100 * (i + 1)), vllm_prefill_ms: prefill(i) };
          return { ...spec, stages: { ...spec.stages, '0': s0 } };
        }),
      ).index,
      {},
    );
  const prefillOf = (m: ReturnType<typeof costModel>) => ({
    fit: m.fits.find((f) => f.stageKey === '0' && f.x === 'num_tokens_in'),
    skipped: m.skipped.find((s) => s.stageKey === '0' && s.x === 'num_tokens_in'),
  });
  // 200 − 10 ms per 100 tokens: slope −100 ms per 1k tokens, an exact line (R² 1), still no cost.
  const falling = prefillOf(build((i) => 200 - 10 * (i + 1)));
  assert.equal(falling.fit, undefined);
  assert.equal(
    falling.skipped?.reason,
    'the time does not grow with the token count (slope −100.0 ms per 1k tokens, R² 1.00)',
  );
  assert.equal(falling.skipped?.n, 12);
  // 50 ms, and 150 ms every third request (x 300, 600, 900, 1,200): x̄ 650, ȳ 83.3, Sxx 1,430,000,
  // Sxy 690,000 − 650,000 = 40,000, Syy 26,667 → slope 0.0280 ms per token, R² = Sxy² / (Sxx·Syy) = 0.042.
  const scattered = prefillOf(build((i) => (i % 3 === 2 ? 150 : 50)));
  assert.equal(scattered.fit, undefined);
  assert.equal(
    scattered.skipped?.reason,
    'token counts explain too little of the time (R² 0.04, at least 0.5 needed; slope 28.0 ms per 1k tokens)',
  );
  assert.equal(unfit({ slope: 0.001, intercept: 5, r2: 0.5, n: 10, interceptSe: 1 }), null, 'R² 0.5 is enough');
});

test('cost per token: a line through a handful of token counts, or with a fixed part below 0 beyond its error, is not shown, with the reason', () => {
  const build = (tokens: (i: number) => number, prefill: (i: number) => number) =>
    costModel(
      analyseSpecs(
        Array.from({ length: 12 }, (_, i) => {
          const spec = asyncChunk(`r${i}`);
          const s0 = { ...spec.stages['0'], num_tokens_in: int(tokens(i)), vllm_prefill_ms: prefill(i) };
          return { ...spec, stages: { ...spec.stages, '0': s0 } };
        }),
      ).index,
      {},
    ).skipped.find((s) => s.stageKey === '0' && s.x === 'num_tokens_in');
  // A codec's chunks, 2 to 7: 400 ms per chunk less 450 ms reads as 400,000 ms per 1k tokens.
  const chunks = build(
    (i) => 2 + (i % 6),
    (i) => 400 * (2 + (i % 6)) - 450,
  );
  assert.equal(
    chunks?.reason,
    'token counts span 2–7, too narrow a range for a cost per 1k tokens (at least 50 tokens needed)',
  );
  // 600 .. 1,700 tokens, 1 ms per token less 500 ms, ±10 ms alternating: x̄ 1,150, a fixed part −495 ms ± 10.9 ms.
  const negative = build(
    (i) => 100 * (i + 6),
    (i) => 100 * (i + 6) - 500 + (i % 2 === 0 ? 10 : -10),
  );
  assert.equal(
    negative?.reason,
    'the fixed part is negative (−495 ms ± 10.9 ms): the time is not a fixed part plus a cost per token (slope 995.8 ms per 1k tokens, R² 1.00)',
  );
  // A fixed part below 0 within twice its error is a line through 0, still shown.
  assert.equal(unfit({ slope: 0.016, intercept: -1, r2: 0.93, n: 60, interceptSe: 30 }), null);
  assert.match(
    unfit({ slope: 0.016, intercept: -100, r2: 0.93, n: 60, interceptSe: 30 }) ?? '',
    /^the fixed part is negative/,
  );
});

test("a one-output stage's prefill+decode is fitted against the tokens it made, not its input; explain's JSON names it prefillDecode", () => {
  // The talker emits one output (decode 0 with several tokens out): prefill+decode = 52 ms + 17 ms
  // per output token; its input tokens (100 .. 1,200) have nothing to do with it.
  const specs = Array.from({ length: 12 }, (_, i) => {
    const spec = asyncChunk(`r${i}`);
    const tokensOut = 20 + ((i * 7) % 12) * 10;
    const s0 = {
      ...spec.stages['0'],
      num_tokens_in: int(100 * (i + 1)),
      num_tokens_out: int(tokensOut),
      vllm_prefill_ms: 52 + 17 * tokensOut,
      vllm_decode_ms: 0,
      stage_gen_time_ms: 62 + 17 * tokensOut,
    };
    return { ...spec, stages: { ...spec.stages, '0': s0 } };
  });
  const { index } = analyseSpecs(specs);
  assert.deepEqual(index.oneOutputStages(), ['0']);
  const model = costModel(index, {});
  const ofTalker = [...model.fits, ...model.skipped].filter((f) => f.stageKey === '0').map((f) => [f.x, f.y]);
  assert.deepEqual(ofTalker, [
    ['num_tokens_out', 'vllm_prefill_ms'],
    ['num_tokens_out', 'vllm_decode_ms'],
  ]);
  const fit = model.fits.find((f) => f.stageKey === '0')!;
  assert.ok(
    Math.abs(fit.slopeMsPer1kTokens - 17_000) < 1e-6 && Math.abs(fit.interceptMs - 52) < 1e-6,
    JSON.stringify(fit),
  );
  assert.equal(fit.n, 12);
  assert.match(fit.caveat ?? '', /fitted against the tokens it made \(num_tokens_out\), not its input/);
  const report = explainReport(index, 'x.log', { targets: ['e2e'], quantiles: ['p90'], scope: {} }, [], []);
  assert.match(
    explainTable(report).join('\n'),
    /stage 0 prefill\+decode \(one output\) vs num_tokens_out: 17,000\.0 ms per 1k tokens \+ 52\.0 ms fixed \(R² 1\.00, n=12\)/,
  );
  const json = JSON.parse(explainJsonText(report)) as {
    tail: { parts: { key: string; phase: string }[] }[];
    breakdown: { parts: { key: string; phase: string }[] };
  };
  const keysOf = (parts: { key: string; phase: string }[]) =>
    parts.filter((p) => p.key.startsWith('0/prefill')).map((p) => [p.key, p.phase]);
  assert.deepEqual(keysOf(json.tail[0]!.parts), [['0/prefillDecode', 'prefillDecode']]);
  assert.deepEqual(keysOf(json.breakdown.parts), [['0/prefillDecode', 'prefillDecode']]);
  // The codec's prefill is prefill alone.
  assert.ok(json.breakdown.parts.some((p) => p.key === '1/prefill' && p.phase === 'prefill'));
});

test('a fit with a negative fixed part reads "− x ms fixed", never "+ -x"', () => {
  assert.equal(
    fitLine({ slopeMsPer1kTokens: 316506.7, interceptMs: -825 }),
    '316,506.7 ms per 1k tokens − 825 ms fixed',
  );
  assert.equal(fitLine({ slopeMsPer1kTokens: 50, interceptMs: 20 }), '50.0 ms per 1k tokens + 20.0 ms fixed');
});

test('ols by hand, and no line through points without spread', () => {
  const line = ols([1, 2, 3, 4], [3, 5, 7, 9.5])!;
  // x̄ 2.5, ȳ 6.125, Sxx 5, Sxy 10.75 -> slope 2.15, intercept 0.75.
  assert.ok(Math.abs(line.slope - 2.15) < 1e-12 && Math.abs(line.intercept - 0.75) < 1e-12);
  assert.equal(ols([2, 2, 2], [1, 2, 3]), null);
});

test("quickselect percentiles equal numpy's linear percentile of the sorted values; sorted times count like a sorted array", () => {
  const rand = mulberry32(7);
  for (let round = 0; round < 200; round++) {
    const n = 1 + Math.floor(rand() * 300);
    const values = Float64Array.from({ length: n }, () => Math.round(rand() * 50) / (round % 3 === 0 ? 1 : 7));
    const sorted = values.slice().sort();
    for (const p of [0, 1, 50, 90, 95, 99, 100])
      assert.equal(percentileInPlace(values.slice(), n, p), percentileOfSorted(sorted, p), `n=${n} p=${p}`);
    const d = distributionInPlace(values.slice(), n)!;
    assert.deepEqual(
      [d.p50, d.p90, d.p99, d.max],
      [percentileOfSorted(sorted, 50), percentileOfSorted(sorted, 90), percentileOfSorted(sorted, 99), sorted[n - 1]],
    );
    const times = new SortedTimes();
    const all: number[] = [];
    for (const v of values) {
      times.add(v);
      all.push(v);
      if (rand() < 0.1) {
        const t = rand() * 50;
        assert.equal(times.countAtMost(t), all.filter((x) => x <= t).length);
      }
    }
    assert.equal(times.countAtMost(Infinity), n);
  }
});
