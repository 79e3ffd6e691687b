// Which family a cut scrape may have lost values of is told by the sample names read last, not by
// the last `# TYPE`: prometheus_client prints a counter or histogram X, then a separate
// `X_created` gauge family; a cut inside that section leaves X's values whole, so X is judged.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseExposition } from '../../server/core/metricsText';
import { metricNotReportingInScrape, scrapeChecksDone } from '../../server/core/explain/metricNotReporting';
import { cutFamilyOf } from '../../server/core/metricsText/scrapeCut';

const L0 = 'model_name="m",stage="0",replica="0"';
const L1 = 'model_name="m",stage="1",replica="0"';

/** Finished requests, then the generation token counter at 0 on every stage, then its `_created` gauge. */
const STUCK = [
  '# HELP vllm_omni:requests_success_total Finished requests.',
  '# TYPE vllm_omni:requests_success_total counter',
  'vllm_omni:requests_success_total{model_name="m"} 12.0',
  '# HELP vllm:generation_tokens_total Number of generation tokens processed.',
  '# TYPE vllm:generation_tokens_total counter',
  `vllm:generation_tokens_total{${L0}} 0.0`,
  `vllm:generation_tokens_total{${L1}} 0.0`,
  '# HELP vllm:generation_tokens_created Number of generation tokens processed.',
  '# TYPE vllm:generation_tokens_created gauge',
  `vllm:generation_tokens_created{${L0}} 1784900000.25`,
  `vllm:generation_tokens_created{${L1}} 1784900000.25`,
  '',
].join('\n');

const codes = (text: string, gzipBroke = false): string[] =>
  metricNotReportingInScrape(parseExposition(text), null, { gzipBroke }).map((f) => `${f.code} ${f.family ?? ''}`);

const cutAfter = (text: string, at: string, keep: number): string => text.slice(0, text.lastIndexOf(at) + keep);

test('a cut inside the _created gauge section leaves the family before it whole: its 0 is judged', () => {
  const stuck = ['metric-not-reporting vllm:generation_tokens_total'];
  assert.deepEqual(codes(STUCK), stuck);
  const cuts: [string, string][] = [
    ['inside a _created value', cutAfter(STUCK, '1784900000.25', 4)],
    ['inside a _created name', cutAfter(STUCK, `vllm:generation_tokens_created{${L1}`, 10)],
    ['inside the # TYPE of _created', cutAfter(STUCK, '# TYPE vllm:generation_tokens_created', 12)],
    ['inside the # HELP of _created', cutAfter(STUCK, '# HELP vllm:generation_tokens_created', 8)],
  ];
  for (const [name, text] of cuts) {
    const parsed = parseExposition(text);
    assert.notEqual(parsed.unterminatedLine, null, name);
    assert.equal(cutFamilyOf(parsed), null, name);
    assert.deepEqual(codes(text), stuck, name);
    assert.ok(
      scrapeChecksDone(parsed).every((line) => !line.includes('cut inside')),
      `${name}: ${scrapeChecksDone(parsed).join('\n')}`,
    );
  }
  // A .prom.gz whose stream breaks after a whole _created line: the same.
  const atLineFeed = STUCK.slice(0, STUCK.lastIndexOf('vllm:generation_tokens_created'));
  assert.equal(cutFamilyOf(parseExposition(atLineFeed), { gzipBroke: true }), null);
  assert.deepEqual(codes(atLineFeed, true), stuck);
});

test('a cut among the family values is still that family, and is not judged', () => {
  // Inside stage 1's value line, its labels whole or not: stage 1 may count tokens.
  for (const text of [
    cutAfter(STUCK, `vllm:generation_tokens_total{${L1}} 0.0`, -2),
    cutAfter(STUCK, `vllm:generation_tokens_total{${L1}`, 20),
  ]) {
    assert.equal(cutFamilyOf(parseExposition(text))?.name, 'vllm:generation_tokens_total');
    assert.deepEqual(codes(text), []);
  }
  // A gzip stream broken at the line feed after stage 0's line: stage 1's line may be next.
  const afterStage0 = STUCK.slice(0, STUCK.indexOf(`vllm:generation_tokens_total{${L1}`));
  assert.equal(cutFamilyOf(parseExposition(afterStage0), { gzipBroke: true })?.name, 'vllm:generation_tokens_total');
  assert.deepEqual(codes(afterStage0, true), []);
});

test('a cut after the # TYPE of the next family: that family has begun, the one before is whole', () => {
  const next = `${STUCK}# HELP vllm:prompt_tokens_total Prefill tokens.\n# TYPE vllm:prompt_tokens_total counter\nvllm:prompt_tok`;
  const parsed = parseExposition(next);
  assert.equal(cutFamilyOf(parsed)?.name, 'vllm:prompt_tokens_total');
  assert.deepEqual(codes(next), ['metric-not-reporting vllm:generation_tokens_total']);
});

test('a histogram cut in its _created section: its last series is whole and the family is judged', () => {
  const histogram = [
    '# TYPE vllm_omni:requests_success_total counter',
    'vllm_omni:requests_success_total{model_name="m"} 12.0',
    '# HELP vllm:e2e_request_latency_seconds Histogram of e2e request latency in seconds.',
    '# TYPE vllm:e2e_request_latency_seconds histogram',
    `vllm:e2e_request_latency_seconds_bucket{${L0},le="1.0"} 0.0`,
    `vllm:e2e_request_latency_seconds_bucket{${L0},le="+Inf"} 0.0`,
    `vllm:e2e_request_latency_seconds_count{${L0}} 0.0`,
    `vllm:e2e_request_latency_seconds_sum{${L0}} 0.0`,
    '# HELP vllm:e2e_request_latency_seconds_created Histogram of e2e request latency in seconds.',
    '# TYPE vllm:e2e_request_latency_seconds_created gauge',
    `vllm:e2e_request_latency_seconds_created{${L0}} 1784900000.25`,
    '',
  ].join('\n');
  const cut = cutAfter(histogram, '1784900000.25', 5);
  const parsed = parseExposition(cut);
  assert.equal(cutFamilyOf(parsed), null);
  const family = parsed.families.find((f) => f.name === 'vllm:e2e_request_latency_seconds');
  assert.equal(family?.type, 'histogram');
  assert.deepEqual(
    family?.series.map((s) => ({ count: s.count, cut: 'cut' in s ? s.cut : undefined })),
    [{ count: 0, cut: undefined }],
  );
  assert.deepEqual(codes(cut), ['metric-not-reporting vllm:e2e_request_latency_seconds']);
});
