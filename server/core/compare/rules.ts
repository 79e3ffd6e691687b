// The `--fail-if` rule grammar. A rule names one quantile of one metric and a threshold:
//
//   rules      = rule *( ";" rule )
//   rule       = target op threshold                 (spaces allowed around op)
//   target     = scope "." metric "." quantile
//   scope      = "stage" stage-key | "request"        stage1, stage0, stage1_2 (segment 2 of stage 1)
//   metric     = queued | inputWait | readyQueued | prefill | decode | prefillDecode | ttft | genTime
//              | firstOutput | addedFirstOutput      (stage scope)
//              | e2e                                 (request scope)
//                case-insensitive; "_" and "-" are ignored (input_wait = inputWait)
//   quantile   = p50 | p90 | p99
//   op         = ">" | ">=" | "<" | "<="
//   threshold  = [ "+" / "-" ] number unit
//   unit       = "ms" | "s" | "%"
//
// A signed threshold is a change from the baseline: `stage1.ttft.p90 > +10%` (relative)
// or `> +5ms` (absolute change). An unsigned one in ms/s is a limit on the candidate's
// own value: `request.e2e.p99 > 2s`. A `%` threshold must be signed (a percentage is only
// meaningful relative to the baseline). A `--fail-if` value with no rule in it, or an empty
// rule before, between or after its ';' (an unset variable in "$RULES;"), is an error, never
// skipped: a gate with fewer rules than written would pass in silence.
import { isEdgeMetric, isRequestMetric, metricByName } from './metrics';
import { PERCENTILES, type Percentile } from '../reportedPercentiles';
import type { MetricId } from './types';
import { REQUEST_SCOPE } from './types';

export type RuleOp = '>' | '>=' | '<' | '<=';

export interface Rule {
  /** The rule as written (trimmed). */
  readonly text: string;
  /** Stage key (`1`, `1_2`) or `request`. */
  readonly scope: string;
  readonly metric: MetricId;
  readonly quantile: Percentile;
  readonly op: RuleOp;
  /** change: candidate − baseline (ms or %); absolute: the candidate's value (ms). */
  readonly kind: 'change' | 'absolute';
  readonly unit: 'ms' | '%';
  /** In ms for ms/s thresholds, in percent for %. Signed for changes. */
  readonly threshold: number;
}

export interface RuleError {
  /** What is malformed: one rule, or a whole `--fail-if` value (a rule list with an empty rule in it). */
  readonly of: 'rule' | 'list';
  readonly text: string;
  /** Offset in `text` of the part that is wrong, and its length (at least 1). */
  readonly at: number;
  readonly length: number;
  readonly message: string;
}

export const RULE_GRAMMAR = `  rule      = <scope>.<metric>.<quantile> <op> <threshold>   (several: repeat --fail-if or separate with ';')
  scope     = stage<N> (stage1, stage1_2 for a second segment) | request
  metric    = queued | inputWait | readyQueued | prefill | decode | prefillDecode | ttft | genTime | firstOutput | addedFirstOutput
              (stage scope); e2e (request scope); case-insensitive, '_' and '-' ignored
  quantile  = p50 | p90 | p99
  op        = > | >= | < | <=
  threshold = +N% / -N%    change relative to the baseline's quantile
              +Nms / -Nms  change in ms (also s)
              Nms          limit on the candidate's own quantile (also s)`;

const OP = /(>=|<=|>|<)/;
const THRESHOLD = /^([+-])?(\d+(?:\.\d+)?|\.\d+)(ms|s|%)$/;

function fail(text: string, at: number, length: number, message: string, of: RuleError['of'] = 'rule'): RuleError {
  return { of, text, at, length: Math.max(1, length), message };
}

export function isRuleError(v: Rule | RuleError): v is RuleError {
  return 'message' in v;
}

/** Parses one rule; every failure names the part that is wrong. */
export function parseRule(raw: string): Rule | RuleError {
  const text = raw.trim();
  if (text === '') return fail(text, 0, 1, 'empty rule');
  const m = OP.exec(text);
  if (m === null)
    return fail(
      text,
      text.length,
      1,
      'expected a comparison: one of > >= < <= followed by a threshold, e.g. "stage1.ttft.p90 > +10%"',
    );
  const op = m[1] as RuleOp;
  const opAt = m.index;
  const target = text.slice(0, opAt).trimEnd();
  const rest = text.slice(opAt + op.length).trim();
  const thresholdAt = rest === '' ? text.length : text.lastIndexOf(rest);
  if (target === '')
    return fail(
      text,
      0,
      op.length,
      'missing target before the comparison: <scope>.<metric>.<quantile>, e.g. stage1.ttft.p90',
    );
  const stray = /[^\w.-]/.exec(target);
  if (stray !== null) {
    const what = /\s/.test(stray[0]) ? 'space' : `'${stray[0]}'`;
    return fail(
      text,
      stray.index,
      1,
      `unexpected ${what} in the target '${target}': write <scope>.<metric>.<quantile> <op> <threshold>, e.g. stage1.ttft.p90 > +10%`,
    );
  }

  const parts = target.split('.');
  if (parts.length !== 3)
    return fail(
      text,
      0,
      target.length,
      `target '${target}' must have three parts: <scope>.<metric>.<quantile>, e.g. stage1.ttft.p90`,
    );
  const [scopeText = '', metricText = '', quantileText = ''] = parts;
  const metricAt = scopeText.length + 1;
  const quantileAt = metricAt + metricText.length + 1;

  let scope: string;
  const stage = /^stage(\d+(?:_\d+)?)$/i.exec(scopeText);
  if (stage !== null) scope = stage[1];
  else if (scopeText.toLowerCase() === REQUEST_SCOPE) scope = REQUEST_SCOPE;
  else
    return fail(
      text,
      0,
      scopeText.length,
      `unknown scope '${scopeText}': use stage<N> (e.g. stage0, stage1, stage1_2) or request`,
    );

  const metric = metricByName(metricText);
  if (metric === undefined) {
    return fail(
      text,
      metricAt,
      metricText.length,
      `unknown metric '${metricText}': use queued, inputWait, readyQueued, prefill, decode, prefillDecode, ttft, genTime, firstOutput, addedFirstOutput (stage) or e2e (request)`,
    );
  }
  if (isEdgeMetric(metric))
    return fail(
      text,
      metricAt,
      metricText.length,
      `'${metricText}' is a transfer-edge metric: rules name stages and the request, not edges (the comparison shows edges)`,
    );
  if (scope === REQUEST_SCOPE && !isRequestMetric(metric))
    return fail(
      text,
      metricAt,
      metricText.length,
      `'${metricText}' is a stage metric: write stage<N>.${metricText}, or request.e2e`,
    );
  if (scope !== REQUEST_SCOPE && isRequestMetric(metric))
    return fail(
      text,
      metricAt,
      metricText.length,
      `'${metricText}' is a request-level metric: write request.${metricText}`,
    );

  const quantile = PERCENTILES.find((q) => q === quantileText.toLowerCase());
  if (quantile === undefined)
    return fail(text, quantileAt, quantileText.length, `unknown quantile '${quantileText}': use p50, p90 or p99`);

  if (rest === '')
    return fail(text, text.length, 1, 'missing threshold after the comparison, e.g. +10%, +5ms or 500ms');
  const t = THRESHOLD.exec(rest.replace(/\s+/g, ''));
  if (t === null)
    return fail(
      text,
      thresholdAt,
      rest.length,
      `bad threshold '${rest}': write a number with a unit, e.g. +10% (change from the baseline), +5ms (change in ms) or 500ms (limit on the candidate)`,
    );
  const [, sign, number = '0', unit = 'ms'] = t;
  if (unit === '%' && sign === undefined) {
    return fail(
      text,
      thresholdAt,
      rest.length,
      `'${rest}' needs a sign: a percentage is a change from the baseline, write +${number}% or -${number}%`,
    );
  }
  const magnitude = Number(number) * (unit === 's' ? 1000 : 1);
  return {
    text,
    scope,
    metric,
    quantile,
    op,
    kind: sign === undefined ? 'absolute' : 'change',
    unit: unit === '%' ? '%' : 'ms',
    threshold: sign === '-' ? -magnitude : magnitude,
  };
}

/** Splits each `--fail-if` value on ';' and parses every rule; all errors are returned, not just the first. */
export function parseRules(values: readonly string[]): { rules: Rule[]; errors: RuleError[] } {
  const rules: Rule[] = [];
  const errors: RuleError[] = [];
  for (const value of values) {
    const parts = value.split(';');
    const list = parts.length > 1;
    if (list && parts.every((p) => p.trim() === '')) {
      errors.push(fail(value, 0, value.length, NO_RULE_IN_LIST, 'list'));
      continue;
    }
    let at = 0;
    parts.forEach((part, i) => {
      // A value without ';' is one rule: parseRule names an empty one itself.
      if (list && part.trim() === '') errors.push(emptyRuleInList(value, at, part.length, i, parts.length));
      else {
        const r = parseRule(part);
        if (isRuleError(r)) errors.push(r);
        else rules.push(r);
      }
      at += part.length + 1;
    });
  }
  return { rules, errors };
}

const NO_RULE_IN_LIST =
  'no rule in it, only \';\': give at least one rule, or leave --fail-if out (an unset variable, as in "$RULES;", leaves none)';

/** The empty `index`th of `count` rules of `list`, at `at`: the caret takes in the ';' on each side of it. */
function emptyRuleInList(list: string, at: number, length: number, index: number, count: number): RuleError {
  const from = index === 0 ? at : at - 1;
  const to = index === count - 1 ? at + length : at + length + 1;
  const where = index === 0 ? 'before the first' : index === count - 1 ? 'after the last' : 'between two';
  return fail(
    list,
    from,
    to - from,
    `empty rule ${where} ';': every ';' separates two rules, and an empty one is refused, not skipped (an unset variable?): write the rule or remove the ';'`,
    'list',
  );
}

/** The error as two lines: the rule, and a caret line under the part that is wrong. */
export function formatRuleError(e: RuleError): string {
  const what = e.of === 'rule' ? 'rule' : '--fail-if';
  return `malformed ${what} '${e.text}': ${e.message}\n    ${e.text}\n    ${' '.repeat(e.at)}${'^'.repeat(e.length)}`;
}

export function compareOp(op: RuleOp, value: number, threshold: number): boolean {
  switch (op) {
    case '>':
      return value > threshold;
    case '>=':
      return value >= threshold;
    case '<':
      return value < threshold;
    case '<=':
      return value <= threshold;
  }
}
