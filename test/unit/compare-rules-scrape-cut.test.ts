// --fail-if rules on real /metrics scrapes whose text breaks off inside a histogram series (stage 1
// replica 1's decode time, the last series of the Qwen3-TTS replicas scrape): that series is
// unknown, not measured. A capture cut short is no regression of what the server reports, so a
// rule reading it is not evaluated (and says to take the scrape again), in whichever run the cut
// is; a series known to be wrong in the candidate still fails as not measured. A series absent from
// a scrape cut short before it (in its family or an earlier one) is unknown there too, its rule not
// evaluated alike (absent from both scrapes, each cut short before it, too: take both again, and its
// stage is no usage error); one absent from a scrape read whole fails as not measured.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { compareRuns } from '../../server/core/compare/compareRuns';
import { scrapeRun } from '../../server/capture/compareInput';
import { histogramCounts, histogramNoDiffText } from '../../server/core/compare/format';
import { checkRule, ruleScopeErrors } from '../../server/core/compare/ruleCheck';
import { isRuleError, parseRule, type Rule } from '../../server/core/compare/rules';
import type { ComparisonReport, RunData } from '../../server/core/compare/types';
import { cutInto, lastSeriesLine, REPLICAS_SCRAPE } from '../integration/support/cutScrape';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'scrapes');

function rule(text: string): Rule {
  const r = parseRule(text);
  assert.ok(!isRuleError(r), text);
  return r;
}

const WHOLE_TEXT = fs.readFileSync(REPLICAS_SCRAPE, 'utf8');
// Cut inside the _count line of stage 1 replica 1's decode time (`75.0` cut to `7`).
const CUT_TEXT = cutInto(WHOLE_TEXT, lastSeriesLine('_count'), ' 7'.length);
const whole = (): RunData => scrapeRun(WHOLE_TEXT, 'whole.prom');
const cut = (): RunData => scrapeRun(CUT_TEXT, 'cut.prom');

const CHANGE = rule('stage1.decode.p50 > +10%');
const LIMIT = rule('stage1.decode.p90 > 5000ms');
const FAMILY = 'vllm:request_decode_time_seconds';

const cutShort = (quantile: string, inRun: string): string =>
  `the ${FAMILY} series of stage 1 is cut short in ${inRun}'s scrape, so stage 1 decode ${quantile} is unknown there, not measured (a capture cut short, not a lost measurement): take ${inRun}'s scrape again`;

function stage1Decode(report: ComparisonReport) {
  const rows = report.histograms.filter((h) => h.family === FAMILY && h.labels['stage'] === '1');
  assert.equal(rows.length, 1);
  return rows[0];
}

test('a candidate series cut short is not evaluated, change and limit alike; one known to be wrong fails as not measured', () => {
  const candidateRow = cut().histograms?.find((h) => h.family === FAMILY && h.labels['stage'] === '1');
  assert.equal(candidateRow?.cut, true);
  assert.deepEqual([candidateRow?.count, candidateRow?.p50, candidateRow?.p90], [null, null, null]);
  const report = compareRuns(whole(), cut());
  assert.deepEqual(ruleScopeErrors([CHANGE, LIMIT], report), []);
  for (const [r, quantile] of [
    [CHANGE, 'p50'],
    [LIMIT, 'p90'],
  ] as const) {
    const result = checkRule(r, report);
    assert.deepEqual(
      { outcome: result.outcome, failed: result.failed, observed: result.observed, candidate: result.candidate },
      { outcome: 'notEvaluated', failed: false, observed: null, candidate: null },
      r.text,
    );
    assert.equal(result.basis, 'histogram');
    assert.equal(result.detail, cutShort(quantile, 'the candidate'));
    // As every rule that cannot be evaluated: it fails only when asked to.
    assert.equal(checkRule(r, report, { failUnevaluated: true }).failed, true, r.text);
  }
  assert.equal(histogramNoDiffText(stage1Decode(report)), 'no Δ: cut short in the candidate');
  // Known to be wrong (the codec TTFT signature of a build before the fix), read whole: a regression of what the server reports.
  const fixed = scrapeRun(
    fs.readFileSync(path.join(FIXTURES, 'codec-ttft-fixed-old-prefix.prom'), 'utf8'),
    'fixed.prom',
  );
  const beforeFix = scrapeRun(fs.readFileSync(path.join(FIXTURES, 'codec-ttft-before-fix.prom'), 'utf8'), 'bug.prom');
  const wrong = checkRule(rule('stage1.ttft.p90 > +10%'), compareRuns(fixed, beforeFix));
  assert.deepEqual([wrong.outcome, wrong.failed], ['unmeasured', true]);
  assert.match(
    wrong.detail,
    /^the vllm:time_to_first_token_seconds series of stage 1 was measured in the baseline and is known to be wrong in the candidate \(.+\): the candidate lost a measurement \(a regression of what the server reports, not a pass\)$/,
  );
});

test('a baseline series cut short: a change rule is not evaluated, saying so; a limit reads the candidate alone', () => {
  const report = compareRuns(cut(), whole());
  const change = checkRule(CHANGE, report);
  assert.deepEqual([change.outcome, change.failed], ['notEvaluated', false]);
  assert.equal(change.detail, cutShort('p50', 'the baseline'));
  const limit = checkRule(LIMIT, report);
  assert.deepEqual([limit.outcome, limit.failed], ['passed', false]);
  assert.equal(limit.detail, 'stage 1 decode p90 is 2,166.667 ms in the candidate (limit > 5,000 ms)');
  assert.equal(histogramNoDiffText(stage1Decode(report)), 'no Δ: cut short in the baseline');
});

test('a series cut short in both runs is kept in the report, and a rule on it says both scrapes are cut', () => {
  const report = compareRuns(cut(), cut());
  const row = stage1Decode(report);
  assert.deepEqual([row.status, row.baseline?.cut, row.candidate?.cut], ['neither', true, true]);
  assert.equal(histogramNoDiffText(row), 'no Δ: cut short in both runs');
  assert.ok(
    report.notes.some((n) => n.startsWith('1 /metrics series is cut short in a run')),
    report.notes.join('\n'),
  );
  assert.equal(
    checkRule(CHANGE, report).detail,
    `the ${FAMILY} series of stage 1 is cut short in both runs' scrapes, so stage 1 decode p50 is unknown in both, not measured (a capture cut short, not a lost measurement): take both scrapes again`,
  );
  // A limit reads the candidate alone.
  assert.equal(checkRule(LIMIT, report).detail, cutShort('p90', 'the candidate'));
  assert.equal(checkRule(LIMIT, report).failed, false);
});

// Cut inside stage 0's first TTFT series (its le="5.0" bucket, `22.0` cut to `2`): the e2e latency
// family before it is read whole; stage 1's TTFT series (after the cut in its family) and every
// family after it (queue, prefill, decode, …) are absent from the text read.
const TTFT_STAGE0 =
  'vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="5.0"}';
const EARLY_CUT_TEXT = cutInto(WHOLE_TEXT, TTFT_STAGE0, ' 2'.length);
const earlyCut = (): RunData => scrapeRun(EARLY_CUT_TEXT, 'early-cut.prom');
const TTFT = 'vllm:time_to_first_token_seconds';

const cutBefore = (family: string, what: string, inRun: string): string =>
  `${inRun}'s scrape is cut short before the ${family} series of stage 1, so stage 1 ${what} is unknown there, not measured (a capture cut short, not a lost measurement): take ${inRun}'s scrape again`;

function rowOf(report: ComparisonReport, family: string, stage: string) {
  const rows = report.histograms.filter((h) => h.family === family && h.labels['stage'] === stage);
  assert.equal(rows.length, 1, `${family} stage ${stage}`);
  return rows[0];
}

test('a candidate scrape cut short before a series: a rule on it is not evaluated (take the scrape again); absent from a whole scrape, it fails as not measured', () => {
  const run = earlyCut();
  assert.deepEqual(run.scrapeCut, {
    readWhole: [
      'vllm_omni:requests_success_total',
      'vllm_omni:e2e_request_latency_s',
      'vllm:num_preemptions_total',
      'vllm:generation_tokens_total',
    ],
    cutInside: 'vllm:time_to_first_token_seconds',
  });
  assert.equal(whole().scrapeCut, undefined);
  const report = compareRuns(whole(), run);
  assert.deepEqual(ruleScopeErrors([CHANGE, LIMIT], report), []);
  // After the cut: absent from the text read, so unknown, not 0 and not "the baseline only".
  const decode = stage1Decode(report);
  assert.deepEqual([decode.status, decode.candidate, decode.unreadIn], ['baselineOnly', null, 'candidate']);
  assert.equal(histogramNoDiffText(decode), 'no Δ: cut short before it in the candidate');
  assert.equal(histogramCounts(decode), '150/?');
  // In the family the cut is in: stage 0's series is cut short, stage 1's (after it) is absent.
  const ttft0 = rowOf(report, TTFT, '0');
  assert.deepEqual([ttft0.candidate?.cut, ttft0.unreadIn], [true, undefined]);
  assert.equal(histogramNoDiffText(ttft0), 'no Δ: cut short in the candidate');
  const ttft1 = rowOf(report, TTFT, '1');
  assert.deepEqual([ttft1.candidate, ttft1.unreadIn], [null, 'candidate']);
  // Before the cut: read whole, compared.
  const e2e = report.histograms.filter((h) => h.family === 'vllm_omni:e2e_request_latency_s');
  assert.deepEqual(
    e2e.map((h) => [h.status, h.unreadIn, h.quantiles.length]),
    [['compared', undefined, 3]],
  );
  assert.ok(
    report.notes.includes(
      '11 /metrics series are absent from a scrape cut short before them, in the candidate (marked ~ in the table, ✂️ in Markdown; unknown there, not missing, so no difference is taken on them).',
    ),
    report.notes.join('\n'),
  );
  for (const [r, what] of [
    [CHANGE, 'decode p50'],
    [LIMIT, 'decode p90'],
  ] as const) {
    const result = checkRule(r, report);
    assert.deepEqual(
      { outcome: result.outcome, failed: result.failed, observed: result.observed, candidate: result.candidate },
      { outcome: 'notEvaluated', failed: false, observed: null, candidate: null },
      r.text,
    );
    assert.equal(result.basis, 'histogram');
    assert.equal(result.detail, cutBefore(FAMILY, what, 'the candidate'));
    assert.equal(checkRule(r, report, { failUnevaluated: true }).failed, true, r.text);
  }
  assert.equal(checkRule(rule('stage1.ttft.p50 > +10%'), report).detail, cutBefore(TTFT, 'TTFT p50', 'the candidate'));
  assert.deepEqual(
    [
      checkRule(rule('request.e2e.p50 > +10%'), report).outcome,
      checkRule(rule('request.e2e.p50 > +10%'), report).failed,
    ],
    ['passed', false],
  );

  // The same family left out of a scrape read whole: the candidate lost it.
  const noDecode = WHOLE_TEXT.split('\n')
    .filter((line) => !line.includes('vllm:request_decode_time_seconds'))
    .join('\n');
  const lost = compareRuns(whole(), scrapeRun(noDecode, 'no-decode.prom'));
  assert.equal(stage1Decode(lost).unreadIn, undefined);
  assert.equal(histogramNoDiffText(stage1Decode(lost)), 'baseline only');
  const result = checkRule(CHANGE, lost);
  assert.deepEqual([result.outcome, result.failed], ['unmeasured', true]);
  assert.equal(
    result.detail,
    `stage 1 decode p50 was measured in the baseline (150 observations of ${FAMILY}) and has no observation in the candidate: the candidate lost a measurement (a regression of what the server reports, not a pass)`,
  );
});

test('a baseline scrape cut short before a series: the change rule is not evaluated, the limit reads the candidate', () => {
  const report = compareRuns(earlyCut(), whole());
  const decode = stage1Decode(report);
  assert.deepEqual([decode.status, decode.baseline, decode.unreadIn], ['candidateOnly', null, 'baseline']);
  assert.equal(histogramNoDiffText(decode), 'no Δ: cut short before it in the baseline');
  assert.equal(histogramCounts(decode), '?/150');
  const change = checkRule(CHANGE, report);
  assert.deepEqual([change.outcome, change.failed], ['notEvaluated', false]);
  assert.equal(change.detail, cutBefore(FAMILY, 'decode p50', 'the baseline'));
  const limit = checkRule(LIMIT, report);
  assert.deepEqual([limit.outcome, limit.failed], ['passed', false]);
  assert.equal(limit.detail, 'stage 1 decode p90 is 2,166.667 ms in the candidate (limit > 5,000 ms)');
});

test('a series cut short in one scrape and absent from the other, cut short before it: kept, unknown in both', () => {
  const report = compareRuns(cut(), earlyCut());
  const decode = stage1Decode(report);
  assert.deepEqual(
    [decode.status, decode.baseline?.cut, decode.candidate, decode.unreadIn],
    ['neither', true, null, 'candidate'],
  );
  assert.equal(histogramNoDiffText(decode), 'no Δ: cut short in the baseline, cut short before it in the candidate');
  assert.equal(histogramCounts(decode), '?/?');
  assert.equal(
    checkRule(CHANGE, report).detail,
    `the ${FAMILY} series of stage 1 is cut short in the baseline's scrape and the candidate's scrape is cut short before it, so stage 1 decode p50 is unknown in both, not measured (a capture cut short, not a lost measurement): take both scrapes again`,
  );
  assert.equal(checkRule(LIMIT, report).detail, cutBefore(FAMILY, 'decode p90', 'the candidate'));
});

test('a family absent from both scrapes, each cut short before it: not evaluated (take both scrapes again), failed only with failUnevaluated; a stage past both cuts is no usage error', () => {
  // Both cut inside stage 1's prefill time (replica 0's in the baseline, replica 1's in the
  // candidate): the decode time, after it, is in neither.
  const PREFILL_BUCKET = (replica: string): string =>
    `vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="${replica}",le="0.5"}`;
  const baseline = scrapeRun(cutInto(WHOLE_TEXT, PREFILL_BUCKET('0'), 2), 'baseline-cut.prom');
  const candidate = scrapeRun(cutInto(WHOLE_TEXT, PREFILL_BUCKET('1'), 2), 'candidate-cut.prom');
  const report = compareRuns(baseline, candidate);
  const bothCut = (stage: string, quantile: string): string =>
    `both runs' scrapes are cut short before the ${FAMILY} series of stage ${stage}, so stage ${stage} decode ${quantile} is unknown in both, not measured (a capture cut short, not a lost measurement): take both scrapes again`;
  const stage0 = rule('stage0.decode.p99 > +5ms');
  const results = [CHANGE, stage0, LIMIT].map((r) => checkRule(r, report));
  assert.deepEqual(
    results.map((r) => [r.outcome, r.failed, r.basis, r.detail]),
    [
      ['notEvaluated', false, null, bothCut('1', 'p50')],
      ['notEvaluated', false, null, bothCut('0', 'p99')],
      [
        'notEvaluated',
        false,
        null,
        `the candidate's scrape is cut short before the ${FAMILY} series of stage 1, so stage 1 decode p90 is unknown there, not measured (a capture cut short, not a lost measurement): take the candidate's scrape again`,
      ],
    ],
  );
  assert.deepEqual(
    [CHANGE, stage0].map((r) => checkRule(r, report, { failUnevaluated: true }).failed),
    [true, true],
  );
  // Whole, both runs lack the family: no series in the scrapes, as before.
  const noDecode = WHOLE_TEXT.split('\n')
    .filter((line) => !line.includes(FAMILY))
    .join('\n');
  assert.equal(
    checkRule(CHANGE, compareRuns(scrapeRun(noDecode, 'a.prom'), scrapeRun(noDecode, 'b.prom'))).detail,
    `no ${FAMILY} series for stage 1 in the scrapes`,
  );
  // Cut inside stage 0's TTFT in both: stage 1 is in no latency row read, and may be past the cut.
  const TTFT_STAGE0 =
    'vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="5.0"}';
  const early = (): RunData => scrapeRun(cutInto(WHOLE_TEXT, TTFT_STAGE0, 2), 'early-cut.prom');
  const earlyReport = compareRuns(early(), early());
  assert.deepEqual(ruleScopeErrors([CHANGE, rule('stage7.decode.p50 > +10%')], earlyReport), []);
  assert.equal(checkRule(CHANGE, earlyReport).detail, bothCut('1', 'p50'));
  // A stage no scrape shows, against a scrape read whole, is still a usage error.
  assert.deepEqual(ruleScopeErrors([rule('stage7.decode.p50 > +10%')], compareRuns(whole(), early())), [
    "--fail-if 'stage7.decode.p50 > +10%': neither run has stage 7; the runs have stage 0, stage 1 and request",
  ]);
});
