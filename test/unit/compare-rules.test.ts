// The --fail-if grammar (good rules, malformed rules with the part that is wrong) and how
// rules are decided against a comparison: change vs limit, noise, not evaluable.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareRuns } from '../../server/core/compare/compareRuns';
import { checkRule, ruleScopeErrors } from '../../server/core/compare/ruleCheck';
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

test('several rules: repeated flags and ";" separated, every error returned', () => {
  const { rules, errors } = parseRules(['stage1.ttft.p90 > +10%; request.e2e.p99 > 3s', 'stage0.prefill.p50 > +5ms']);
  assert.deepEqual(
    rules.map((r) => r.text),
    ['stage1.ttft.p90 > +10%', 'request.e2e.p99 > 3s', 'stage0.prefill.p50 > +5ms'],
  );
  assert.deepEqual(errors, []);
  const two = parseRules(['stage1.ttft.p95 > +10%;stage1.ttft.p90 > 10%']);
  assert.equal(two.rules.length, 0);
  assert.equal(two.errors.length, 2);
});

test('a --fail-if value with no rule, or an empty rule before, between or after its ";", is an error pointing at it, never skipped', () => {
  const cases: Array<[string, RegExp, string]> = [
    [';', /^no rule in it, only ';': give at least one rule/, '^'],
    [';;', /^no rule in it/, '^^'],
    [' ; ', /^no rule in it/, '^^^'],
    [
      'stage1.ttft.p90 > +10%;',
      /^empty rule after the last ';': every ';' separates two rules/,
      '                      ^',
    ],
    ['; stage1.ttft.p90 > +10%', /^empty rule before the first ';'/, '^'],
    ['stage1.ttft.p90 > +10%; ;request.e2e.p99 > 3s', /^empty rule between two ';'/, '                      ^^^'],
    ['stage1.ttft.p90 > +10%;;request.e2e.p99 > 3s', /^empty rule between two ';'/, '                      ^^'],
  ];
  for (const [value, message, caret] of cases) {
    const { rules, errors } = parseRules([value, 'stage0.queued.p50 > 1s']);
    assert.deepEqual(
      rules.map((r) => r.text),
      [...value.split(';').filter((p) => p.trim() !== ''), 'stage0.queued.p50 > 1s'].map((p) => p.trim()),
      value,
    );
    assert.equal(errors.length, 1, value);
    const [e] = errors;
    assert.ok(e !== undefined);
    assert.equal(e.of, 'list');
    assert.match(e.message, message, value);
    assert.deepEqual(formatRuleError(e).split('\n'), [
      `malformed --fail-if '${value}': ${e.message}`,
      `    ${value}`,
      `    ${caret}`,
    ]);
  }
  // Every empty rule is named, beside the malformed rules of the list.
  const many = parseRules(['stage1.ttft.p95 > +10%;;']);
  assert.deepEqual(
    many.errors.map((e) => [e.of, e.message.split(':')[0]]),
    [
      ['rule', "unknown quantile 'p95'"],
      ['list', "empty rule between two ';'"],
      ['list', "empty rule after the last ';'"],
    ],
  );
  // An empty value without ';' stays one empty rule.
  assert.deepEqual(
    parseRules(['']).errors.map((e) => [e.of, e.message]),
    [['rule', 'empty rule']],
  );
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
  assert.match(checkRule(ok('stage1.decode.p90 > +10%'), named).detail, /^stage 1 · code2wav decode /);
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

test('a metric the baseline measured and the candidate does not fails the gate as not measured, limit or change', () => {
  // The reverse of the runs above: decode is measured in the baseline, not recorded in all 400 candidate requests.
  const lost = compareRuns(candidate, baseline);
  for (const text of ['stage1.decode.p90 > +10%', 'stage1.decode.p90 > 10s']) {
    const r = checkRule(ok(text), lost);
    assert.equal(r.outcome, 'unmeasured', text);
    assert.equal(r.failed, true);
    assert.equal(r.candidate, null);
    assert.match(
      r.detail,
      /^stage 1 decode p90 was measured in the baseline \(400 values\) and not in the candidate \(none of 400 measured: 400 not recorded\): the candidate lost a measurement/,
    );
  }
  // Measured in neither run stays "not evaluated" (failing only when asked).
  const neither = checkRule(ok('stage1.queued.p90 > 10ms'), lost);
  assert.equal(neither.outcome, 'notEvaluated');
  assert.equal(neither.failed, false);
});

test('prefill or decode of a one-output stage is not lost: the rule points to prefillDecode, limit or change', () => {
  const oneOutput = logRun({ ttft: m(normal(400, 100, 10, 8)), decode: m(new Float64Array(0), { oneOutput: 400 }) });
  const measured = logRun({ ttft: m(normal(400, 100, 10, 9)), decode: m(normal(400, 30, 3, 10)) });
  const folded = checkRule(ok('stage1.decode.p50 > +5%'), compareRuns(measured, oneOutput));
  assert.equal(folded.outcome, 'notEvaluated');
  assert.match(
    folded.detail,
    /on 400 request-stages its vllm_prefill_ms covers the decode steps \(one output\): write stage1\.prefillDecode\.p50$/,
  );
  // One output in both runs: the limit said "not measured in the candidate" while the status is "neither".
  const both = checkRule(ok('stage1.decode.p50 > 1ms'), compareRuns(oneOutput, oneOutput));
  assert.equal(both.outcome, 'notEvaluated');
  assert.equal(
    both.detail,
    'stage 1 decode p50 was measured in neither run, so there is no value to hold to the limit; on 800 request-stages its vllm_prefill_ms covers the decode steps (one output): write stage1.prefillDecode.p50',
  );
});

test('a rule on a stage neither run has is a usage error naming the stages they have', () => {
  assert.deepEqual(
    ruleScopeErrors([ok('stage5.ttft.p50 > 1ms'), ok('stage1.ttft.p50 > 1ms'), ok('request.e2e.p99 > 1s')], report),
    ["--fail-if 'stage5.ttft.p50 > 1ms': neither run has stage 5; the runs have stage 1 and request"],
  );
});

test('scrapes: a series observed in the baseline and empty or known wrong in the candidate fails as not measured', () => {
  const caveat = 'TTFT not recorded on stage 1 (codec TTFT signature)';
  const ttft = (count: number, wrong: boolean): RunData => ({
    source: 's.prom',
    kind: 'scrape',
    samples: null,
    problemCount: 0,
    histograms: [
      {
        family: 'vllm:time_to_first_token_seconds',
        labels: { stage: '1' },
        count,
        p50: count === 0 ? null : 0.1,
        p90: count === 0 ? null : 0.2,
        p99: count === 0 ? null : 0.3,
        caveat: wrong ? caveat : null,
      },
    ],
  });
  const lostByBug = checkRule(ok('stage1.ttft.p90 > +10%'), compareRuns(ttft(60, false), ttft(0, true)));
  assert.equal(lostByBug.outcome, 'unmeasured');
  assert.equal(lostByBug.failed, true);
  assert.match(
    lostByBug.detail,
    /measured in the baseline and is known to be wrong in the candidate \(TTFT not recorded on stage 1/,
  );
  const empty = checkRule(ok('stage1.ttft.p90 > 1s'), compareRuns(ttft(60, false), ttft(0, false)));
  assert.equal(empty.outcome, 'unmeasured');
  assert.match(
    empty.detail,
    /was measured in the baseline \(60 observations of vllm:time_to_first_token_seconds\) and has no observation/,
  );
  // The bug gone in the candidate is no regression: not evaluated, as before.
  assert.equal(
    checkRule(ok('stage1.ttft.p90 > +10%'), compareRuns(ttft(0, true), ttft(60, false))).outcome,
    'notEvaluated',
  );
  assert.deepEqual(
    ruleScopeErrors(
      [ok('stage1_2.ttft.p50 > 1ms'), ok('stage4.ttft.p50 > 1ms')],
      compareRuns(ttft(60, false), ttft(60, false)),
    ),
    ["--fail-if 'stage4.ttft.p50 > 1ms': neither run has stage 4; the runs have stage 1 and request"],
  );
});
