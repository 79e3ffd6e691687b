// Rules checked against a comparison. What a CI gate should do:
//  - a change rule (+10%, +5ms) fails only when the point estimate crosses the threshold
//    AND the difference is beyond noise (the bootstrap CI excludes 0). A crossing within
//    noise is reported as `withinNoise`, not failed; `noiseFilter: false` fails it too.
//  - when significance is not testable (a /metrics histogram, or fewer than the minimum
//    values), the point estimate decides, and the result says so.
//  - an absolute rule (500ms) is a limit on the candidate's own quantile: no baseline (its
//    series may be missing or known to be wrong), no significance.
//  - a metric measured in the baseline but not in the candidate (not recorded, not printed,
//    the stage did not run, or its /metrics series known to be wrong there) is a regression
//    of what the server reports: `unmeasured`, which fails. Measured in the candidate only,
//    or folded into prefill+decode (one output), is no regression.
//  - a /metrics series cut short in a scrape the rule reads (the text broke off inside it), or
//    absent from a scrape cut short before it (in the family the text broke off in, or one after
//    it), is unknown there, not missing: a capture problem, not the server ceasing to report it.
//    The rule is `notEvaluated`, saying to take that scrape again, in either run or both (a series
//    absent from both scrapes, each cut short before it, too); a series also known to be wrong
//    (its caveat besides the cut) is judged by that. A series absent from a scrape read whole was
//    lost (`unmeasured`, as above).
//  - a rule that cannot be evaluated (metric measured in neither run or in the candidate
//    only, a series cut short, a baseline of 0 for a % change) is `notEvaluated` with the
//    reason, and fails only with `failUnevaluated`.
//  - a rule naming a stage neither run has is a usage error (ruleScopeErrors): a typo must
//    not pass a gate as "not evaluated".
import { groupedNumber } from '../numberText';
import { QUEUE_TIME_FAMILY } from '../metricsText/downstreamQueueTime';
import { caveatBesidesCut, unreadFamily } from '../metricsText/scrapeCut';
import { METRIC_INFO } from './metrics';
import { scopeLabel, sideMissing, unknownText } from './format';
import type { Rule } from './rules';
import { compareOp } from './rules';
import type {
  ComparisonReport,
  HistogramComparison,
  HistogramSide,
  MetricComparison,
  MetricId,
  QuantileComparison,
} from './types';
import { HISTOGRAM_NOT_TESTABLE, hasObservations } from './histogramCompare';
import { percentChange } from './metricCompare';
import { REQUEST_SCOPE } from './types';
import { rulePipelineErrors } from './rulePipelines';

export type RuleOutcome = 'crossed' | 'withinNoise' | 'passed' | 'notEvaluated' | 'unmeasured';

export interface RuleResult {
  readonly rule: string;
  readonly outcome: RuleOutcome;
  /** true when this rule makes the run fail (exit 1). */
  readonly failed: boolean;
  /** What was tested against the threshold: a change in ms or %, or the candidate's value in ms; null when not evaluated. */
  readonly observed: number | null;
  readonly baseline: number | null;
  readonly candidate: number | null;
  /** Per-request samples or /metrics histograms. */
  readonly basis: 'samples' | 'histogram' | null;
  /** One sentence: the numbers, significance, or why it was not evaluated. */
  readonly detail: string;
}

export interface RuleCheckOptions {
  /** Default true: a change within noise does not fail. */
  readonly noiseFilter?: boolean;
  /** Default false: a rule that cannot be evaluated does not fail. */
  readonly failUnevaluated?: boolean;
}

/** The /metrics family that measures a metric, when there is one. */
const HISTOGRAM_FAMILY: Partial<Record<MetricId, string>> = {
  ttft: 'vllm:time_to_first_token_seconds',
  queued: QUEUE_TIME_FAMILY,
  prefill: 'vllm:request_prefill_time_seconds',
  // Only on a stage that shows the one-output signature, where the prefill histogram is prefill+decode.
  prefillDecode: 'vllm:request_prefill_time_seconds',
  decode: 'vllm:request_decode_time_seconds',
  genTime: 'vllm_omni:stage_gen_time_s',
  e2e: 'vllm_omni:e2e_request_latency_s',
};

const fmt = (v: number, unit: 'ms' | '%'): string => {
  const s = groupedNumber(v, 0, unit === '%' ? 1 : 3);
  return unit === '%' ? `${v > 0 ? '+' : ''}${s}%` : `${s} ms`;
};
const signedMs = (v: number): string => `${v > 0 ? '+' : ''}${fmt(v, 'ms')}`;

/** What to write instead of a one-output stage's prefill or decode, on logs and scrapes alike. */
const coversDecodeWrite = (rule: Rule): string =>
  `covers the decode steps (one output): write ${rule.scope === REQUEST_SCOPE ? '' : `stage${rule.scope}.`}prefillDecode.${rule.quantile}`;

type Found =
  | { basis: 'samples'; row: MetricComparison }
  | { basis: 'histogram'; row: HistogramComparison }
  | { basis: null; why: string };

function findTarget(rule: Rule, report: ComparisonReport): Found {
  const scopeName = (scope: string): string => scopeLabel(scope, report.stageRoles);
  const scope = scopeName(rule.scope);
  const what = `${scope} ${METRIC_INFO[rule.metric].label}`;
  if (report.baseline.requestCount !== null && report.candidate.requestCount !== null) {
    const row = report.metrics.find((m) => m.scope === rule.scope && m.metric === rule.metric);
    if (row !== undefined) return { basis: 'samples', row };
    const scopes = [...new Set(report.metrics.map((m) => m.scope))];
    if (!scopes.includes(rule.scope))
      return {
        basis: null,
        why: `neither run has ${scope} (present: ${scopes.map(scopeName).join(', ') || 'none'})`,
      };
    return { basis: null, why: `${what} was not measured in either run` };
  }
  if (rule.scope.includes('_'))
    return {
      basis: null,
      why: `${scope} is a stage segment, which /metrics does not break out, and the runs have no per-request data`,
    };
  const family = HISTOGRAM_FAMILY[rule.metric];
  if (family === undefined)
    return { basis: null, why: `${what} has no /metrics histogram, and the runs have no per-request data to compare` };
  const rows = report.histograms.filter(
    (h) =>
      h.family === family &&
      (rule.scope === REQUEST_SCOPE ? h.labels['stage'] === undefined : h.labels['stage'] === rule.scope),
  );
  if (rows.length === 0) {
    // Absent from every scrape the rule reads, each cut short before the series: unknown, not absent.
    const cutBefore = runsCutShortBefore(rule, report, family);
    return {
      basis: null,
      why:
        cutBefore.length > 0
          ? cutShortText(family, scope, `${what} ${rule.quantile}`, [], cutBefore)
          : `no ${family} series for ${scope} in the scrapes`,
    };
  }
  if (rows.length > 1)
    return {
      basis: null,
      why: `${rows.length} ${family} series match ${scope} (per replica or label): the rule cannot pick one`,
    };
  return { basis: 'histogram', row: rows[0] };
}

/**
 * The runs a rule reads ("the baseline", "the candidate"), each named when its scrape was cut short
 * before the rule's series (the family it broke off in, past the stage's series read whole, or one
 * after it); empty unless every run the rule reads was.
 */
function runsCutShortBefore(rule: Rule, report: ComparisonReport, family: string | undefined): string[] {
  if (family === undefined) return [];
  const stageId = rule.scope === REQUEST_SCOPE ? null : Number(rule.scope);
  const read = { names: [family], perSeries: true as const };
  const runs = rule.kind === 'absolute' ? (['candidate'] as const) : (['baseline', 'candidate'] as const);
  const cutBefore = runs.filter((run) => {
    const cut = report[run].scrapeCut;
    return cut !== undefined && unreadFamily(cut, read, stageId) !== null;
  });
  return cutBefore.length === runs.length ? cutBefore.map((run) => `the ${run}`) : [];
}

type QuantilePair = Pick<
  QuantileComparison,
  'baseline' | 'candidate' | 'diffMs' | 'diffPct' | 'ci' | 'beyondNoise' | 'notTestable'
>;

/** Two histogram quantiles' difference, the point estimate alone. */
function histogramPair(baseline: number | null, candidate: number | null): QuantilePair | undefined {
  if (baseline === null || candidate === null) return undefined;
  return {
    baseline,
    candidate,
    diffMs: candidate - baseline,
    diffPct: percentChange(baseline, candidate),
    ci: null,
    beyondNoise: null,
    notTestable: HISTOGRAM_NOT_TESTABLE,
  };
}

export function checkRule(rule: Rule, report: ComparisonReport, options: RuleCheckOptions = {}): RuleResult {
  const noiseFilter = options.noiseFilter ?? true;
  const failUnevaluated = options.failUnevaluated ?? false;
  const notEvaluated = (
    detail: string,
    basis: RuleResult['basis'] = null,
    baseline: number | null = null,
    candidate: number | null = null,
  ): RuleResult => ({
    rule: rule.text,
    outcome: 'notEvaluated',
    failed: failUnevaluated,
    observed: null,
    baseline,
    candidate,
    basis,
    // The outcome says "not evaluated" (the table's label, Markdown's cell, JSON's outcome): the detail says why.
    detail,
  });

  const found = findTarget(rule, report);
  if (found.basis === null) return notEvaluated(found.why);
  const what = `${scopeLabel(rule.scope, report.stageRoles)} ${METRIC_INFO[rule.metric].label} ${rule.quantile}`;
  const status = found.row.status;
  const baselineValue =
    found.basis === 'samples' ? found.row.baseline[rule.quantile] : (found.row.baseline?.[rule.quantile] ?? null);
  const candidateValue =
    found.basis === 'samples' ? found.row.candidate[rule.quantile] : (found.row.candidate?.[rule.quantile] ?? null);

  const unmeasured = (detail: string): RuleResult => ({
    rule: rule.text,
    outcome: 'unmeasured',
    failed: true,
    observed: null,
    baseline: baselineValue,
    candidate: null,
    basis: found.basis,
    detail: `${detail}: the candidate lost a measurement (a regression of what the server reports, not a pass)`,
  });
  const oneOutput =
    found.basis === 'samples'
      ? (found.row.baseline.unknown.oneOutput ?? 0) + (found.row.candidate.unknown.oneOutput ?? 0)
      : 0;
  const oneOutputHint =
    oneOutput > 0 ? `; on ${oneOutput} request-stages its vllm_prefill_ms ${coversDecodeWrite(rule)}` : '';
  /** A metric measured in one run only or in neither: nothing to test (the rule's kind says what is missing). */
  const notCompared = (): RuleResult => {
    const side =
      status === 'baselineOnly'
        ? 'the baseline only'
        : status === 'candidateOnly'
          ? 'the candidate only'
          : 'neither run';
    const nothing =
      rule.kind === 'change' ? ', so there is no change to test' : ', so there is no value to hold to the limit';
    return notEvaluated(
      `${what} was measured in ${side}${nothing}${oneOutputHint}`,
      found.basis,
      baselineValue,
      candidateValue,
    );
  };

  if (found.basis === 'histogram') {
    const row = found.row;
    const named = sidesRead(rule, row);
    const runs = (pick: (side: HistogramSide) => boolean): string => histogramRunsWhere(rule, row, pick);
    const scope = scopeLabel(rule.scope, report.stageRoles);
    const oneOutputIn = runs((side) => side.oneOutput === true);
    if ((rule.metric === 'prefill' || rule.metric === 'decode') && oneOutputIn !== '')
      return notEvaluated(
        `${scope} emitted one output per request in ${oneOutputIn}, so its ${row.family} is not a ${METRIC_INFO[rule.metric].label} there: its prefill time ${coversDecodeWrite(rule)}`,
        'histogram',
        baselineValue,
        candidateValue,
      );
    const prefillAloneIn = runs((side) => side.oneOutput !== true);
    if (rule.metric === 'prefillDecode' && prefillAloneIn !== '')
      return notEvaluated(
        `${scope} shows no one-output signature in ${prefillAloneIn}: its ${row.family} is prefill alone, not prefill+decode`,
        'histogram',
        baselineValue,
        candidateValue,
      );
    // A one-output stage's prefill read as prefill+decode is what that caveat asks for; a downstream
    // queue time is the same figure as the log's queued (input wait included): its caveat is about
    // reading it as a scheduling wait, not about its value.
    const caveatCounts = rule.metric !== 'prefillDecode' && row.family !== QUEUE_TIME_FAMILY;
    // Known to be wrong: what the caveat says besides a cut (a cut alone makes the value unknown, not wrong).
    const lie = (side: HistogramSide | null): string | null => (caveatCounts ? caveatBesidesCut(side?.caveat) : null);
    const baselineUsable = row.baseline !== null && lie(row.baseline) === null && status !== 'candidateOnly';
    const candidateLie = lie(row.candidate);
    if (baselineUsable && candidateLie !== null)
      return unmeasured(
        `the ${row.family} series of ${scope} was measured in the baseline and is known to be wrong in the candidate (${candidateLie})`,
      );
    const wrong = named.find(([, side]) => lie(side) !== null);
    if (wrong !== undefined)
      return notEvaluated(
        `the ${row.family} series of ${scope} is known to be wrong in ${wrong[0]}: ${lie(wrong[1]) ?? ''}`,
        'histogram',
        baselineValue,
        candidateValue,
      );
    const cutIn = named.filter(([, side]) => side?.cut === true).map(([name]) => name);
    const unreadIn = named.filter(([name]) => name === `the ${row.unreadIn}`).map(([name]) => name);
    if (cutIn.length > 0 || unreadIn.length > 0)
      return notEvaluated(
        cutShortText(row.family, scope, what, cutIn, unreadIn),
        'histogram',
        baselineValue,
        candidateValue,
      );
    if (status === 'baselineOnly')
      return unmeasured(
        `${what} was measured in the baseline (${row.baseline?.count ?? '?'} observations of ${row.family}) and has no observation in the candidate`,
      );
    const open = named.some(([, side]) => side?.openEnded.includes(rule.quantile) === true);
    if (open)
      return notEvaluated(
        `${what} lies beyond the highest finite bucket of ${row.family}: only a lower bound is known`,
        'histogram',
        baselineValue,
        candidateValue,
      );
    const low = named.find(([, side]) => side?.bounds[rule.quantile]?.kind === 'atMost');
    if (low !== undefined)
      return notEvaluated(
        `${what} lies in the lowest bucket of ${row.family} in ${low[0]}: only an upper bound (≤ ${fmt(low[1]?.bounds[rule.quantile]?.le ?? 0, 'ms')}) is known, not a value`,
        'histogram',
        baselineValue,
        candidateValue,
      );
  } else if (status === 'baselineOnly') {
    const c = found.row.candidate;
    // Folded into prefill+decode (a one-output stage) is measured, under another name: not lost.
    const onlyOneOutput = (c.unknown.oneOutput ?? 0) > 0 && unknownText({ ...c.unknown, oneOutput: 0 }) === '';
    if (onlyOneOutput) return notCompared();
    return unmeasured(
      `${what} was measured in the baseline (${found.row.baseline.measured} values) and not in the candidate (${sideMissing(c, 0, report.candidate.debugLines === true)})`,
    );
  }

  if (rule.kind === 'absolute') {
    if (candidateValue === null) return notCompared();
    const crossed = compareOp(rule.op, candidateValue, rule.threshold);
    return {
      rule: rule.text,
      outcome: crossed ? 'crossed' : 'passed',
      failed: crossed,
      observed: candidateValue,
      baseline: baselineValue,
      candidate: candidateValue,
      basis: found.basis,
      detail: `${what} is ${fmt(candidateValue, 'ms')} in the candidate (limit ${rule.op} ${fmt(rule.threshold, 'ms')})`,
    };
  }

  if (status !== 'compared') return notCompared();
  const q: QuantilePair | undefined =
    found.row.quantiles.find((x) => x.quantile === rule.quantile) ??
    // A histogram row takes no delta on a series with a caveat; past the checks above that caveat is
    // not about this rule's reading (prefill+decode of a one-output stage, a downstream queue time).
    (found.basis === 'histogram' ? histogramPair(baselineValue, candidateValue) : undefined);
  if (q === undefined)
    return notEvaluated(`${what} has no quantile in one of the runs`, found.basis, baselineValue, candidateValue);
  const observed = rule.unit === '%' ? q.diffPct : q.diffMs;
  if (observed === null)
    return notEvaluated(
      `the baseline's ${what} is 0 ms, so a relative change is undefined (use a change in ms)`,
      found.basis,
      q.baseline,
      q.candidate,
    );

  const crosses = compareOp(rule.op, observed, rule.threshold);
  const numbers = `${what} ${fmt(q.baseline, 'ms')} → ${fmt(q.candidate, 'ms')} (${signedMs(q.diffMs)}${q.diffPct === null ? '' : `, ${fmt(q.diffPct, '%')}`}; rule ${rule.op} ${rule.unit === '%' ? fmt(rule.threshold, '%') : signedMs(rule.threshold)})`;
  let outcome: RuleOutcome;
  let significance: string;
  if (q.beyondNoise === null) {
    outcome = crosses ? 'crossed' : 'passed';
    significance = `significance not testable (${q.notTestable ?? 'no CI'}): the point estimate decides`;
  } else if (q.ci !== null) {
    const ci = `CI [${signedMs(q.ci.low)}, ${signedMs(q.ci.high)}]`;
    significance = q.beyondNoise ? `beyond noise, ${ci}` : `within noise, ${ci}`;
    outcome = !crosses ? 'passed' : q.beyondNoise || !noiseFilter ? 'crossed' : 'withinNoise';
  } else {
    outcome = crosses ? 'crossed' : 'passed';
    significance = '';
  }
  return {
    rule: rule.text,
    outcome,
    failed: outcome === 'crossed',
    observed,
    baseline: q.baseline,
    candidate: q.candidate,
    basis: found.basis,
    detail: significance === '' ? numbers : `${numbers}; ${significance}`,
  };
}

/**
 * Why a rule reads no value where a run's scrape broke off inside its series (`cutIn`), or before
 * it (`unreadIn`: absent from the text read): unknown, not measured, and a capture problem (not the
 * server ceasing to report it), so the scrape is taken again.
 */
function cutShortText(
  family: string,
  scope: string,
  what: string,
  cutIn: readonly string[],
  unreadIn: readonly string[],
): string {
  const series = `the ${family} series of ${scope}`;
  const scrapes = (runs: readonly string[]): string =>
    runs.length === 1 ? `${runs[0]}'s scrape` : "both runs' scrapes";
  const why =
    cutIn.length > 0 && unreadIn.length > 0
      ? `${series} is cut short in ${scrapes(cutIn)} and ${scrapes(unreadIn)} is cut short before it`
      : cutIn.length > 0
        ? `${series} is cut short in ${scrapes(cutIn)}`
        : `${scrapes(unreadIn)} ${unreadIn.length === 1 ? 'is' : 'are'} cut short before ${series}`;
  const runs = [...cutIn, ...unreadIn];
  const one = runs.length === 1 ? runs[0] : undefined;
  return `${why}, so ${what} is unknown ${one === undefined ? 'in both' : 'there'}, not measured (a capture cut short, not a lost measurement): take ${one === undefined ? 'both scrapes' : `${one}'s scrape`} again`;
}

/** The runs a rule reads, named: a limit holds the candidate's own value (the baseline's series, right or wrong, plays no part). */
function sidesRead(rule: Rule, row: HistogramComparison): readonly (readonly [string, HistogramSide | null])[] {
  return rule.kind === 'absolute'
    ? [['the candidate', row.candidate]]
    : [
        ['the baseline', row.baseline],
        ['the candidate', row.candidate],
      ];
}

/** The runs a rule reads ("the baseline and the candidate") whose series has observations and `pick` holds. */
function histogramRunsWhere(rule: Rule, row: HistogramComparison, pick: (side: HistogramSide) => boolean): string {
  const named = sidesRead(rule, row);
  // A side with no observation (a family stuck at 0) shows no signature either way: it lost the measurement.
  return named
    .filter(([, side]) => hasObservations(side) && side !== null && pick(side))
    .map(([name]) => name)
    .join(' and ');
}

/**
 * A rule on the prefill or decode of a stage that emitted one output (its vllm_prefill_ms covers
 * its decode), where that leaves a run the rule reads without the value: why, with what to write
 * instead; null otherwise. Such a rule is a usage error: reported as not evaluated, a gate on it
 * would pass forever.
 */
function oneOutputRefusal(rule: Rule, report: ComparisonReport): string | null {
  if (rule.metric !== 'prefill' && rule.metric !== 'decode') return null;
  const found = findTarget(rule, report);
  if (found.basis === null) return null;
  const scope = scopeLabel(rule.scope, report.stageRoles);
  const label = METRIC_INFO[rule.metric].label;
  if (found.basis === 'histogram') {
    const runs = histogramRunsWhere(rule, found.row, (side) => side.oneOutput === true);
    return runs === ''
      ? null
      : `${scope} emitted one output per request in ${runs}, so its ${found.row.family} is not a ${label} there: its prefill time ${coversDecodeWrite(rule)}`;
  }
  const sides = rule.kind === 'absolute' ? (['candidate'] as const) : (['baseline', 'candidate'] as const);
  const lost = sides.filter((s) => found.row[s][rule.quantile] === null && (found.row[s].unknown.oneOutput ?? 0) > 0);
  if (lost.length === 0) return null;
  const requestStages = lost.reduce((n, s) => n + (found.row[s].unknown.oneOutput ?? 0), 0);
  const runs = lost.map((s) => `the ${s}`).join(' and ');
  return `${scope} emitted one output per request in ${runs} (${requestStages} request-stages), so it has no ${label} there: its vllm_prefill_ms ${coversDecodeWrite(rule)}`;
}

export function checkRules(
  rules: readonly Rule[],
  report: ComparisonReport,
  options: RuleCheckOptions = {},
): RuleResult[] {
  return rules.map((r) => checkRule(r, report, options));
}

/** The stages rules may name: those either run has (per-request scopes, else the scrapes' `stage` labels). */
function stagesOfRuns(report: ComparisonReport): string[] {
  const perRequest = report.baseline.requestCount !== null && report.candidate.requestCount !== null;
  const stages = perRequest
    ? report.metrics.map((m) => m.scope).filter((s) => s !== REQUEST_SCOPE && !s.includes('->'))
    : report.histograms.flatMap((h) => (h.labels['stage'] === undefined ? [] : [h.labels['stage']]));
  return [...new Set(stages)];
}

/**
 * Rules naming a stage neither run has, each said with the stages the runs have: a usage
 * error (exit 2), as `explain --target` of a stage the log lacks is. A misspelt stage must
 * not pass a gate as "not evaluated"; a stage absent from every scrape the rule reads, each cut
 * short before its series, may be in the part not read: not evaluated, said so (checkRule). Then
 * rules on a stage of runs that are two pipelines (rulePipelines.ts), and rules on the prefill or
 * decode of a one-output stage (oneOutputRefusal).
 */
export function ruleScopeErrors(rules: readonly Rule[], report: ComparisonReport): string[] {
  const stages = stagesOfRuns(report);
  const perRequest = report.baseline.requestCount !== null && report.candidate.requestCount !== null;
  const has = (scope: string): boolean =>
    // A scrape does not break out segments: its stage stands for them (the rule says why it is not evaluated).
    scope === REQUEST_SCOPE || stages.includes(perRequest ? scope : (scope.split('_')[0] ?? scope));
  const named = stages.map((s) => scopeLabel(s, report.stageRoles));
  const list = named.length === 0 ? 'no stage, only request' : `${named.join(', ')} and request`;
  // Every scrape the rule reads cut short before its series: the stage may be in the part not read (checkRule says so).
  const unread = (r: Rule): boolean =>
    !perRequest && !r.scope.includes('_') && runsCutShortBefore(r, report, HISTOGRAM_FAMILY[r.metric]).length > 0;
  const missing = rules
    .filter((r) => !has(r.scope) && !unread(r))
    .map(
      (r) => `--fail-if '${r.text}': neither run has ${scopeLabel(r.scope, report.stageRoles)}; the runs have ${list}`,
    );
  const oneOutput = rules.flatMap((r) => {
    const why = has(r.scope) ? oneOutputRefusal(r, report) : null;
    return why === null ? [] : [`--fail-if '${r.text}': ${why}`];
  });
  return [...missing, ...rulePipelineErrors(rules, report), ...oneOutput];
}
