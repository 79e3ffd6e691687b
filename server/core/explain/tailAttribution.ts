// Tail attribution: for a target and a quantile, the requests at or above the target's
// value at that quantile (the tail); for each, the excess of every part over that part's
// median, within the request; then the mean of those excesses over the tail. Medians are
// over the requests in scope that measured the target. Nothing is subtracted across
// requests or stages: a part's excess is always (this request's part − its median).
// A part a tail request did not measure adds nothing for that request (its time is in the
// residual), so the identity holds exactly: excess = Σ parts' excess + residual.
//
// In a live session, over the whole session (every boot, cold requests in or out), the
// medians and the threshold come from order statistics kept as requests arrive
// (tailState.ts); a scope that cuts the session (a time window, one boot), and a one-shot
// report, take a pass over the requests here. Both give the same answer.
import type { ExplainIndex } from './explainIndex';
import type { ColumnReads } from './columnReads';
import { ZeroContributions } from './afterTarget';
import { rowsInScope, scopeKey } from './scope';
import { countAtLeast, measuredInto, percentileInPlace } from './select';
import { forEachContribution } from './tailContributions';
import { tailResult } from './tailResult';
import { tailStateOf } from './tailState';
import { parseTarget, type Target } from './targets';
import type { TailAttribution, TailQuantile, TargetName, ExplainScope } from './types';
import { TAIL_PERCENT } from './types';

export interface TailQuery {
  readonly target: TargetName;
  readonly quantile: TailQuantile;
  readonly scope: ExplainScope;
}

/** The tail of one target at one quantile over the scope; null when no request in scope measured the target. */
/** `reads`: column values shared with the other questions of one report. */
export function tailAttribution(index: ExplainIndex, query: TailQuery, reads?: ColumnReads): TailAttribution | null {
  const target = parseTarget(query.target);
  if (target === null || index.target(target.name) === undefined) return null;
  const { scope } = query;
  if (
    index.live &&
    scope.fromMs === undefined &&
    scope.toMs === undefined &&
    scope.boot === undefined &&
    scope.server === undefined
  )
    return tailStateOf(index, target).attribution(query.quantile, scope.excludeCold === true);
  return scopedTailAttribution(index, target, query, reads);
}

// The population (requests in scope that measured the target) and its parts' medians depend
// on the target and the scope, not on the quantile: a report asks for p95 and p99 of each
// target over the same requests in a row, so the last ones are kept per index, for the same
// row count, target and scope.
interface Population {
  readonly key: string;
  readonly rows: Int32Array;
  readonly values: Float64Array;
  readonly medians: Map<string, number>;
  readonly afterTarget: Map<string, { requests: number; of: number }>;
}
const lastPopulation = new WeakMap<ExplainIndex, Population>();

function populationKey(index: ExplainIndex, target: Target, scope: ExplainScope): string {
  return `${target.name}|${scopeKey(index, scope)}`;
}

function populationOf(
  index: ExplainIndex,
  target: Target,
  scope: ExplainScope,
  reads: ColumnReads | undefined,
): Population | null {
  const key = populationKey(index, target, scope);
  const last = lastPopulation.get(index);
  if (last !== undefined && last.key === key) return last;
  const column = index.target(target.name);
  if (column === undefined) return null;
  const scoped = rowsInScope(index, scope);
  const all = new Float64Array(scoped.length);
  column.read(scoped, all);
  const rows = new Int32Array(scoped.length);
  const values = new Float64Array(scoped.length);
  const n = rowsMeasured(scoped, all, rows, values);
  const population: Population = {
    key,
    rows: rows.subarray(0, n),
    values: values.subarray(0, n),
    ...partMedians(index, target, rows.subarray(0, n), values.subarray(0, n), reads),
  };
  lastPopulation.set(index, population);
  return population;
}

/** Each part's median contribution over the population, and the parts whose median 0 is their lying after the target. */
function partMedians(
  index: ExplainIndex,
  target: Target,
  rows: Int32Array,
  values: Float64Array,
  reads: ColumnReads | undefined,
): Pick<Population, 'medians' | 'afterTarget'> {
  const n = rows.length;
  const medians = new Map<string, number>();
  const afterTarget = new Map<string, { requests: number; of: number }>();
  const scratch = new Float64Array(n);
  const clipped = target.kind === 'firstOutput';
  forEachContribution(
    index,
    target,
    rows,
    values,
    (part, contributions, ms) => {
      const count = measuredInto(contributions, n, scratch);
      // Under a first-output target, a part that lies wholly after that instant in every request is not part of it.
      if (count === 0 || (clipped && allZeroIn(scratch, count))) return;
      const median = percentileInPlace(scratch, count, 50);
      medians.set(part.meta.key, median);
      if (!clipped || median !== 0) return;
      const zeros = new ZeroContributions();
      zeros.add(ms, contributions, n);
      const after = zeros.afterTarget(median, count, false);
      if (after !== null) afterTarget.set(part.meta.key, after);
    },
    reads,
  );
  return { medians, afterTarget };
}

function allZeroIn(values: Float64Array, n: number): boolean {
  for (let k = 0; k < n; k++) if (values[k] !== 0) return false;
  return true;
}

/** The same answer from a pass over the requests in scope (any scope). */
export function scopedTailAttribution(
  index: ExplainIndex,
  target: Target,
  query: TailQuery,
  reads?: ColumnReads,
): TailAttribution | null {
  const population = populationOf(index, target, query.scope, reads);
  if (population === null || population.rows.length === 0) return null;
  const { rows, values } = population;
  const n = rows.length;
  const scratch = values.slice();
  const threshold = percentileInPlace(scratch, n, TAIL_PERCENT[query.quantile]);
  const median = percentileInPlace(scratch, n, 50);

  const tailCount = countAtLeast(values, n, threshold);
  const tailRows = new Int32Array(tailCount);
  const tailValues = new Float64Array(tailCount);
  rowsAtLeast(rows, values, threshold, tailRows, tailValues);

  return tailResult(index, {
    target,
    quantile: query.quantile,
    ...(query.scope.boot === undefined ? {} : { boot: query.scope.boot }),
    thresholdMs: threshold,
    targetMedianMs: median,
    scopeCount: n,
    tailRows,
    tailValues,
    partMedians: population.medians,
    afterTarget: population.afterTarget,
  });
}

/** The rows whose value is a number, with their values; returns how many. */
function rowsMeasured(rows: Int32Array, values: Float64Array, intoRows: Int32Array, intoValues: Float64Array): number {
  let n = 0;
  for (let k = 0; k < rows.length; k++) {
    const v = values[k];
    if (Number.isNaN(v)) continue;
    intoRows[n] = rows[k];
    intoValues[n] = v;
    n++;
  }
  return n;
}

/** The rows whose value is >= threshold, with their values, in order (the outputs are sized for them). */
function rowsAtLeast(
  rows: Int32Array,
  values: Float64Array,
  threshold: number,
  intoRows: Int32Array,
  intoValues: Float64Array,
): void {
  for (let k = 0, j = 0; k < rows.length; k++) {
    if (values[k] < threshold) continue;
    intoRows[j] = rows[k];
    intoValues[j++] = values[k];
  }
}
