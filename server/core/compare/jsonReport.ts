// `stage-lens compare --format json`: the ComparisonReport (schema in types.ts) plus the
// rule results and whether the gate failed. Numbers are at the logs' precision, 3 decimals
// (toLogPrecision, as analyze's JSON): a quantile or a difference of 3-decimal values carries
// binary noise (14.525400000000001) that is no information. The rank test's statistics keep
// theirs (a p-value of 0.00002 is not 0).
import type { RuleResult } from './ruleCheck';
import type { ComparisonReport } from './types';
import { toLogPrecision } from '../values';

export interface CompareJson extends ComparisonReport {
  /** One per --fail-if rule, in the order given. */
  readonly rules: readonly RuleResult[];
  /** A rule failed: the exit status is 1. */
  readonly failed: boolean;
}

/** Fields whose numbers are not at a log's precision. */
const UNROUNDED = new Set(['rankTest', 'method']);

function rounded(value: unknown): unknown {
  if (typeof value === 'number') return toLogPrecision(value);
  if (Array.isArray(value)) return value.map(rounded);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = UNROUNDED.has(k) ? v : rounded(v);
  return out;
}

export function compareJson(report: ComparisonReport, rules: readonly RuleResult[]): CompareJson {
  return rounded({ ...report, rules, failed: rules.some((r) => r.failed) }) as CompareJson;
}
