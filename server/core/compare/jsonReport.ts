// `stage-lens compare --format json`: the ComparisonReport (schema in types.ts) plus the
// rule results and whether the gate failed.
import type { RuleResult } from './ruleCheck';
import type { ComparisonReport } from './types';

export interface CompareJson extends ComparisonReport {
  /** One per --fail-if rule, in the order given. */
  readonly rules: readonly RuleResult[];
  /** A rule failed: the exit status is 1. */
  readonly failed: boolean;
}

export function compareJson(report: ComparisonReport, rules: readonly RuleResult[]): CompareJson {
  return { ...report, rules, failed: rules.some((r) => r.failed) };
}
