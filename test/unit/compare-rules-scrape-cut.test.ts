// --fail-if rules on real /metrics scrapes whose text breaks off inside a histogram series (stage 1
// replica 1's decode time, the last series of the Qwen3-TTS replicas scrape): that series is
// unknown, not measured. A capture cut short is no regression of what the server reports, so a
// rule reading it is not evaluated (and says to take the scrape again), in whichever run the cut
// is; a series known to be wrong in the candidate still fails as not measured.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { compareRuns } from '../../server/core/compare/compareRuns';
import { histogramNoDiffText } from '../../server/core/compare/format';
import { checkRule, ruleScopeErrors } from '../../server/core/compare/ruleCheck';
import { isRuleError, parseRule, type Rule } from '../../server/core/compare/rules';
import { histogramRowsOfScrape } from '../../server/core/compare/scrapeHistograms';
import type { ComparisonReport, RunData } from '../../server/core/compare/types';
import { cutInto, lastSeriesLine, REPLICAS_SCRAPE } from '../integration/support/cutScrape';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'scrapes');

/** A scrape's run as `compare` reads a .prom file: its text parsed, its series added over replicas. */
function scrapeRun(text: string, source: string): RunData {
  const { rows, problemCount, findings, exposed, cutShort } = histogramRowsOfScrape(text);
  return {
    source,
    kind: 'scrape',
    samples: null,
    histograms: rows,
    problemCount,
    scrapeFindings: findings,
    exposedHistogramSeries: exposed,
    ...(cutShort === null ? {} : { scrapeBreak: cutShort }),
  };
}

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
  `not evaluated: the ${FAMILY} series of stage 1 is cut short in ${inRun}'s scrape, so stage 1 decode ${quantile} is unknown there, not measured (a capture cut short, not a lost measurement): take ${inRun}'s scrape again`;

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
    `not evaluated: the ${FAMILY} series of stage 1 is cut short in both runs' scrapes, so stage 1 decode p50 is unknown in both, not measured (a capture cut short, not a lost measurement): take both scrapes again`,
  );
  // A limit reads the candidate alone.
  assert.equal(checkRule(LIMIT, report).detail, cutShort('p90', 'the candidate'));
  assert.equal(checkRule(LIMIT, report).failed, false);
});
