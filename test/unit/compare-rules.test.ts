// The --fail-if grammar (good rules, malformed rules with the part that is wrong) and how
// rules are decided against a comparison: change vs limit, noise, not evaluable.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareRuns } from '../../server/core/compare/compareRuns';
import { checkRule } from '../../server/core/compare/ruleCheck';
import { formatRuleError, isRuleError, parseRule, parseRules } from '../../server/core/compare/rules';
import type { Rule, RuleError } from '../../server/core/compare/rules';
import { bootstrapRandom } from '../../server/core/compare/bootstrapRandom';
import type { HistogramRow, MetricId, MetricSamples, RunData } from '../../server/core/compare/types';

function ok(text: string): Rule {
  const r = parseRule(text);
  assert.ok(!isRuleError(r), isRuleError(r) ? formatRuleError(r) : '');
  return r;
}

function bad(text: string): RuleError {
  const r = parseRule(text);
  assert.ok(isRuleError(r), `expected '${text}' to be rejected`);
  return r;
}

test('good rules: relative and absolute changes, limits, seconds, segments, request scope, spacing and case', () => {
  assert.deepEqual(ok('stage1.ttft.p90 > +10%'), {
    text: 'stage1.ttft.p90 > +10%',
    scope: '1',
    metric: 'ttft',
    quantile: 'p90',
    op: '>',
    kind: 'change',
    unit: '%',
    threshold: 10,
  });
  assert.deepEqual(ok('stage0.queued.p50>=+5ms'), {
    text: 'stage0.queued.p50>=+5ms',
    scope: '0',
    metric: 'queued',
    quantile: 'p50',
    op: '>=',
    kind: 'change',
    unit: 'ms',
    threshold: 5,
  });
  assert.deepEqual(ok('  request.e2e.p99 > 2.5s '), {
    text: 'request.e2e.p99 > 2.5s',
    scope: 'request',
    metric: 'e2e',
    quantile: 'p99',
    op: '>',
    kind: 'absolute',
    unit: 'ms',
    threshold: 2500,
  });
  const r = ok('Stage1_2.INPUT_WAIT.P99 < -20 %');
  assert.equal(r.scope, '1_2');
  assert.equal(r.metric, 'inputWait');
  assert.equal(r.quantile, 'p99');
  assert.equal(r.op, '<');
  assert.equal(r.threshold, -20);
  assert.equal(ok('stage2.added-first-output.p50 <= .5ms').threshold, 0.5);
  assert.equal(ok('stage0.genTime.p90 > -1s').threshold, -1000);
});

test('several rules: repeated flags and ";" separated, a trailing ";" ignored, every error returned', () => {
  const { rules, errors } = parseRules(['stage1.ttft.p90 > +10%; request.e2e.p99 > 3s;', 'stage0.prefill.p50 > +5ms']);
  assert.deepEqual(
    rules.map((r) => r.text),
    ['stage1.ttft.p90 > +10%', 'request.e2e.p99 > 3s', 'stage0.prefill.p50 > +5ms'],
  );
  assert.deepEqual(errors, []);
  const two = parseRules(['stage1.ttft.p95 > +10%;stage1.ttft.p90 > 10%']);
  assert.equal(two.rules.length, 0);
  assert.equal(two.errors.length, 2);
});

test('malformed rules say what is wrong and point at it', () => {
  const cases: Array<[string, RegExp, string]> = [
    ['stage1.ttft.p95 > +10%', /unknown quantile 'p95': use p50, p90 or p99/, '            ^^^'],
    ['stage1.ttfb.p90 > +10%', /unknown metric 'ttfb'/, '       ^^^^'],
    ['stageX.ttft.p90 > +10%', /unknown scope 'stageX'/, '^^^^^^'],
    ['stage1.ttft > +10%', /three parts/, '^^^^^^^^^^^'],
    [
      'stage1.ttft.p90 > 10%',
      /needs a sign: a percentage is a change from the baseline, write \+10% or -10%/,
      '                  ^^^',
    ],
    ['stage1.ttft.p90 > +10', /bad threshold '\+10'/, '                  ^^^'],
    ['stage1.ttft.p90 > +10 percent', /bad threshold/, '                  ^^^^^^^^^^^'],
    ['stage1.ttft.p90 +10%', /expected a comparison/, '                    ^'],
    ['stage1.ttft.p90 >', /missing threshold/, '                 ^'],
    ['> +10%', /missing target/, '^'],
    ['stage1.e2e.p90 > +10%', /request-level metric: write request\.e2e/, '       ^^^'],
    ['request.ttft.p90 > +10%', /stage metric/, '        ^^^^'],
    ['stage1.ttft.p90 => +10%', /unexpected space in the target/, '               ^'],
    ['stage 1.ttft.p90 > +10%', /unexpected space/, '     ^'],
    ['', /empty rule/, '^'],
  ];
  for (const [text, message, caret] of cases) {
    const e = bad(text);
    assert.match(e.message, message, text);
    const lines = formatRuleError(e).split('\n');
    assert.equal(lines.length, 3);
    assert.match(lines[0] ?? '', /^malformed rule '/);
    assert.equal(lines[1], `    ${text.trim()}`);
    assert.equal(lines[2], `    ${caret}`, `caret of '${text}'`);
  }
});

// ---------------------------------------------------------------- deciding rules

function normal(n: number, mean: number, sd: number, seed: number): Float64Array {
  const r = bootstrapRandom(seed);
  return Float64Array.from({ length: n }, () => mean + sd * r.normal()).sort();
}

function logRun(
  metrics: Partial<Record<MetricId, MetricSamples>>,
  requestMetrics: Partial<Record<MetricId, MetricSamples>> = {},
): RunData {
  return {
    source: 'x.log',
    kind: 'log',
    histograms: null,
    problemCount: 0,
    samples: {
      requestCount: 400,
      coldRequests: 0,
      coldExcluded: false,
      findings: [],
      scopes: [
        { scope: '1', stageId: 1, requestCount: 400, metrics },
        { scope: 'request', stageId: null, requestCount: 400, metrics: requestMetrics },
      ],
    },
  };
}

const m = (values: Float64Array, unknown = {}): MetricSamples => ({ values, inferred: 0, unknown });

const baseline = logRun(
  {
    ttft: m(normal(400, 100, 10, 1)),
    prefill: m(normal(400, 50, 5, 2)),
    decode: m(new Float64Array(0), { notRecorded: 400 }),
  },
  { e2e: m(normal(400, 1000, 50, 3)) },
);
const candidate = logRun(
  { ttft: m(normal(400, 115, 10, 4)), prefill: m(normal(400, 50.2, 5, 5)), decode: m(normal(400, 30, 3, 6)) },
  { e2e: m(normal(400, 1000, 50, 7)) },
);
const report = compareRuns(baseline, candidate);

test('a change beyond noise that crosses the threshold fails; one under it passes', () => {
  const crossed = checkRule(ok('stage1.ttft.p50 > +10%'), report);
  assert.equal(crossed.outcome, 'crossed');
  assert.equal(crossed.failed, true);
  assert.equal(crossed.basis, 'samples');
  assert.ok((crossed.observed ?? 0) > 10 && (crossed.observed ?? 0) < 20, String(crossed.observed));
  assert.match(crossed.detail, /beyond noise, CI \[\+/);
  const passed = checkRule(ok('stage1.ttft.p50 > +25%'), report);
  assert.equal(passed.outcome, 'passed');
  assert.equal(passed.failed, false);
  assert.equal(checkRule(ok('stage1.ttft.p50 > +5ms'), report).outcome, 'crossed');
  assert.equal(checkRule(ok('stage1.ttft.p50 < -5ms'), report).outcome, 'passed');
});

test('a crossing within noise is reported, and fails only with the noise filter off', () => {
  // prefill moved by ~0.2 ms of a 5 ms spread: any threshold under that is crossed by the point estimate only.
  const q = report.metrics.find((x) => x.metric === 'prefill')?.quantiles.find((x) => x.quantile === 'p50');
  assert.ok(q);
  assert.equal(q.beyondNoise, false);
  const rule = ok(`stage1.prefill.p50 ${q.diffMs > 0 ? '>' : '<'} ${q.diffMs > 0 ? '+' : '-'}0.0001ms`);
  const filtered = checkRule(rule, report);
  assert.equal(filtered.outcome, 'withinNoise');
  assert.equal(filtered.failed, false);
  assert.match(filtered.detail, /within noise/);
  const unfiltered = checkRule(rule, report, { noiseFilter: false });
  assert.equal(unfiltered.outcome, 'crossed');
  assert.equal(unfiltered.failed, true);
});

test('a limit applies to the candidate alone', () => {
  const p99 = report.metrics.find((x) => x.scope === 'request')?.candidate.p99 ?? 0;
  assert.ok(p99 > 1000);
  assert.equal(checkRule(ok(`request.e2e.p99 > ${Math.floor(p99)}ms`), report).outcome, 'crossed');
  assert.equal(checkRule(ok(`request.e2e.p99 > ${Math.ceil(p99)}ms`), report).outcome, 'passed');
  // decode was not recorded in the baseline: a limit still works, a change cannot be tested.
  assert.equal(checkRule(ok('stage1.decode.p50 > 10ms'), report).outcome, 'crossed');
});

test('rules that cannot be evaluated say why, and fail only when asked', () => {
  const oneSided = checkRule(ok('stage1.decode.p90 > +10%'), report);
  assert.equal(oneSided.outcome, 'notEvaluated');
  assert.equal(oneSided.failed, false);
  assert.match(oneSided.detail, /measured in the candidate only/);
  assert.equal(checkRule(ok('stage1.decode.p90 > +10%'), report, { failUnevaluated: true }).failed, true);
  const noStage = checkRule(ok('stage7.ttft.p90 > +10%'), report);
  assert.equal(noStage.outcome, 'notEvaluated');
  assert.match(noStage.detail, /neither run has stage 7 \(present: stage 1, request\)/);
  assert.match(
    checkRule(ok('stage1.queued.p90 > +10%'), report).detail,
    /stage 1 queued was not measured in either run/,
  );
  // Runs whose files name the pipeline (Qwen3-TTS): the reason names each stage with its role, as the table does.
  const named = compareRuns(
    { ...baseline, source: 'qwen3_tts-before.log' },
    { ...candidate, source: 'qwen3_tts-after.log' },
  );
  assert.match(
    checkRule(ok('stage7.ttft.p90 > +10%'), named).detail,
    /neither run has stage 7 \(present: stage 1 · code2wav, request\)/,
  );
  assert.match(checkRule(ok('stage1.decode.p90 > +10%'), named).detail, /^not evaluated: stage 1 · code2wav decode /);
});

test('scrapes: rules use the histogram of the metric, the point estimate decides (not testable)', () => {
  const row = (family: string, stage: string | null, p90: number): HistogramRow => ({
    family,
    labels: stage === null ? {} : { stage },
    count: 100,
    p50: p90 / 2,
    p90,
    p99: p90 * 1.2,
  });
  const scrape = (ttft: number): RunData => ({
    source: 's.prom',
    kind: 'scrape',
    samples: null,
    problemCount: 0,
    histograms: [row('vllm:time_to_first_token_seconds', '1', ttft), row('vllm_omni:e2e_request_latency_s', null, 2)],
  });
  const r = compareRuns(scrape(0.2), scrape(0.25));
  const result = checkRule(ok('stage1.ttft.p90 > +10%'), r);
  assert.equal(result.basis, 'histogram');
  assert.equal(result.outcome, 'crossed');
  assert.equal(result.baseline, 200);
  assert.equal(result.candidate, 250);
  assert.ok(Math.abs((result.observed ?? 0) - 25) < 1e-9);
  assert.match(result.detail, /significance not testable/);
  assert.equal(checkRule(ok('request.e2e.p90 > 1.5s'), r).outcome, 'crossed');
  assert.match(checkRule(ok('stage1.inputWait.p90 > +10%'), r).detail, /has no \/metrics histogram/);
});
