// A /metrics scrape cut short: the text ends inside a line (no line feed after it) or its gzip
// data broke off. The family it was cut in is not judged by what is left of it (no
// metric-not-reporting from a family whose later series were cut off), a series without a count
// is unknown rather than 0, the checks say what was not checked, and the cut is a finding in the
// words of a cut .prom.gz's.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseExposition } from '../../server/core/metricsText';
import { metricNotReportingInScrape, scrapeChecksDone } from '../../server/core/explain/metricNotReporting';
import { cutFamilyOf, scrapeCutFinding } from '../../server/core/metricsText/scrapeCut';

const L0 = 'model_name="m",stage="0",replica="0"';
const L1 = 'model_name="m",stage="1",replica="0"';

/** Finished requests, then the per-stage generation token counter: stage 0 reads 0, stage 1 counts tokens. */
const TOKENS = [
  '# TYPE vllm_omni:requests_success_total counter',
  'vllm_omni:requests_success_total{model_name="m"} 12.0',
  '# TYPE vllm:generation_tokens_total counter',
  `vllm:generation_tokens_total{${L0}} 0.0`,
  `vllm:generation_tokens_total{${L1}} 702.0`,
  '',
].join('\n');

const codes = (text: string, gzipBroke = false): string[] =>
  metricNotReportingInScrape(parseExposition(text), null, { gzipBroke }).map((f) => `${f.code} ${f.family ?? ''}`);

test('a text that ends inside a line is cut there; one that ends with a line feed (or blanks) is not', () => {
  assert.equal(parseExposition(TOKENS).unterminatedLine, null);
  assert.equal(parseExposition('x 1\n  ').unterminatedLine, null);
  assert.equal(parseExposition('').unterminatedLine, null);
  assert.equal(parseExposition('# TYPE x counter\nx_total 1\r\nx_total{a="b"} 2').unterminatedLine, 3);
});

test('the family a text is cut in is not called not-reporting for the series the cut took', () => {
  // Whole: stage 1 counts tokens, so the family reports.
  assert.deepEqual(codes(TOKENS), []);
  // Cut inside stage 1's line: only stage 0's 0 is left, which is no evidence of a family stuck at 0.
  const cut = TOKENS.slice(0, TOKENS.indexOf(`{${L1}`) + 12);
  const parsed = parseExposition(cut);
  assert.equal(parsed.unterminatedLine, 5);
  assert.equal(cutFamilyOf(parsed)?.name, 'vllm:generation_tokens_total');
  assert.deepEqual(codes(cut), []);
  assert.deepEqual(scrapeCutFinding(parsed), {
    code: 'input-cut-short',
    severity: 'warning',
    stageId: null,
    requestIds: [],
    requestCount: 0,
    message:
      'The /metrics scrape ends inside its line 5, with no line feed after it (a file or body cut short): the series before it are read; the rest of the scrape is not.',
  });
  assert.ok(
    scrapeChecksDone(parsed).includes(
      'Not checked: whether vllm:generation_tokens_total reports, as the scrape is cut inside vllm:generation_tokens_total, so its series after the cut are not read.',
    ),
  );
});

test('gzip data that broke off at a line feed cuts the last family too; its own finding says the cut', () => {
  const atLineEnd = TOKENS.slice(0, TOKENS.indexOf(`vllm:generation_tokens_total{${L1}`));
  // The same text read whole: stage 0 is the family's only series, and it reads 0.
  assert.deepEqual(codes(atLineEnd), ['metric-not-reporting vllm:generation_tokens_total']);
  assert.deepEqual(codes(atLineEnd, true), []);
  // input-gzip-damaged says where gzip data broke: no second finding of the same cut.
  assert.equal(scrapeCutFinding(parseExposition(atLineEnd), { gzipBroke: true }), null);
  assert.equal(scrapeCutFinding(parseExposition(atLineEnd)), null);
});

test('a family cut before its last series is judged again once a later family follows it', () => {
  // The cut is in the family after it: generation tokens are whole and stuck at 0 on every series.
  const stuck = TOKENS.replace(' 702.0', ' 0.0') + '# TYPE vllm:prompt_tokens_total counter\nvllm:prompt_tokens_total{';
  assert.deepEqual(codes(stuck), ['metric-not-reporting vllm:generation_tokens_total']);
});

test('a histogram series without a count is unknown, not 0, even where the cut fell on a line feed', () => {
  const itl = [
    '# TYPE vllm_omni:requests_success_total counter',
    'vllm_omni:requests_success_total{model_name="m"} 12.0',
    '# TYPE vllm:inter_token_latency_seconds histogram',
    `vllm:inter_token_latency_seconds_bucket{${L0},le="0.01"} 0.0`,
    `vllm:inter_token_latency_seconds_bucket{${L0},le="0.025"} 0.0`,
    '',
  ].join('\n');
  const parsed = parseExposition(itl);
  assert.equal(parsed.unterminatedLine, null);
  assert.deepEqual(codes(itl), []);
  assert.ok(
    scrapeChecksDone(parsed).includes(
      'Not checked: whether vllm:inter_token_latency_seconds reports, as a series of it exposes no count (no _count, no +Inf bucket): unknown, not 0.',
    ),
  );
  // With its +Inf bucket and count of 0, the series is a measured 0: the finding stands.
  const whole =
    itl +
    [
      `vllm:inter_token_latency_seconds_bucket{${L0},le="+Inf"} 0.0`,
      `vllm:inter_token_latency_seconds_count{${L0}} 0.0`,
      '',
    ].join('\n');
  assert.deepEqual(codes(whole), ['metric-not-reporting vllm:inter_token_latency_seconds']);
});

test('a KV-cache usage cut inside its value is not read as 0', () => {
  const kv = [
    '# TYPE vllm:num_requests_running gauge',
    `vllm:num_requests_running{${L0}} 3.0`,
    '# TYPE vllm:kv_cache_usage_perc gauge',
    `vllm:kv_cache_usage_perc{${L0}} 0.35`,
    '',
  ].join('\n');
  assert.deepEqual(codes(kv), []);
  // "0.35" cut after its "0": the number left reads 0, but the line is where the text was cut.
  const cut = kv.slice(0, kv.indexOf('0.35') + 1);
  assert.deepEqual(codes(cut), []);
  assert.ok(
    scrapeChecksDone(parseExposition(cut)).includes(
      'Not checked: whether an engine with requests running reads a KV-cache usage of 0, as the scrape is cut inside vllm:kv_cache_usage_perc, so its series after the cut are not read.',
    ),
  );
  // The same 0 with its line feed is a whole reading: the finding stands.
  assert.deepEqual(codes(cut + '\n'), ['metric-not-reporting vllm:kv_cache_usage_perc']);
});
