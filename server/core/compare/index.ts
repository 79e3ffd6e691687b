// Comparing two runs: pure, no I/O. Inputs are RunData (per-request samples of a
// log or session, and/or histograms of a scrape); the output is a ComparisonReport (see
// types.ts, also the JSON schema), rules are checked against it, and it renders as a
// terminal table or Markdown.
export * from './types';
export { compareRuns, incomparableReason, methodOf, type CompareOptions } from './compareRuns';
export { emptyRunReason } from './emptyRun';
export { inputBreakOf } from './inputBreak';
export { DEFAULT_SIGNIFICANCE, type SignificanceOptions } from './metricCompare';
export { LogRunReader } from './logRunReader';
export { runStageRolesOf } from './runRoles';
export { RunSamplesBuilder, runSamplesFromAnalysis, findingCount } from './runSamples';
export { histogramRowsOfScrape, histogramRowsOfSummaries } from './scrapeHistograms';
export { METRIC_INFO, ALL_METRICS } from './metrics';
export { parseRules, parseRule, formatRuleError, isRuleError, RULE_GRAMMAR, type Rule, type RuleError } from './rules';
export {
  checkRules,
  checkRule,
  ruleScopeErrors,
  type RuleResult,
  type RuleOutcome,
  type RuleCheckOptions,
} from './ruleCheck';
export { compareTable, ruleLines } from './tableReport';
export { compareMarkdown } from './markdownReport';
export { compareJson, type CompareJson } from './jsonReport';
export { runDataName } from './format';
