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
import { rowsInScope, type RowScope } from './scope';
import { percentileInPlace } from './select';
import { forEachContribution } from './tailContributions';
import { tailResult } from './tailResult';
import { tailStateOf } from './tailState';
import { parseTarget, type Target } from './targets';
import type { TailAttribution, TailQuantile, TargetName } from './types';
import { TAIL_PERCENT } from './types';

export interface TailQuery {
  readonly target: TargetName;
  readonly quantile: TailQuantile;
  readonly scope: RowScope;
}

/** The tail of one target at one quantile over the scope; null when no request in scope measured the target. */
export function tailAttribution(index: ExplainIndex, query: TailQuery): TailAttribution | null {
  const target = parseTarget(query.target);
  if (target === null || index.target(target.name) === undefined) return null;
  const { scope } = query;
  if (index.live && scope.fromMs === undefined && scope.toMs === undefined && scope.boot === undefined)
    return tailStateOf(index, target).attribution(query.quantile, scope.excludeCold === true);
  return scopedTailAttribution(index, target, query);
}

// The parts' medians depend on the target and the requests in scope, not on the quantile:
// a report asks for p95 and p99 of each target over the same requests in a row, so the last
// medians are kept per index, for the same row count, target and scope.
const lastMedians = new WeakMap<ExplainIndex, { readonly key: string; readonly medians: Map<string, number> }>();

function mediansKey(index: ExplainIndex, target: Target, scope: RowScope): string {
  return `${index.length}|${target.name}|${scope.fromMs}|${scope.toMs}|${scope.boot}|${scope.excludeCold === true}`;
}

/** The same answer from a pass over the requests in scope (any scope). */
export function scopedTailAttribution(index: ExplainIndex, target: Target, query: TailQuery): TailAttribution | null {
  const column = index.target(target.name);
  if (column === undefined) return null;
  const scoped = rowsInScope(index, query.scope);
  // The population: requests in scope that measured the target.
  const all = new Float64Array(scoped.length);
  column.read(scoped, all);
  const rows = new Int32Array(scoped.length);
  const values = new Float64Array(scoped.length);
  let n = 0;
  for (let k = 0; k < scoped.length; k++) {
    const v = all[k];
    if (Number.isNaN(v)) continue;
    rows[n] = scoped[k];
    values[n] = v;
    n++;
  }
  if (n === 0) return null;
  const population = rows.subarray(0, n);
  const populationValues = values.subarray(0, n);
  const scratch = values.slice(0, n);
  const threshold = percentileInPlace(scratch, n, TAIL_PERCENT[query.quantile]);
  const median = percentileInPlace(scratch, n, 50);

  let tailCount = 0;
  for (let k = 0; k < n; k++) if (populationValues[k] >= threshold) tailCount++;
  const tailRows = new Int32Array(tailCount);
  const tailValues = new Float64Array(tailCount);
  for (let k = 0, j = 0; k < n; k++) {
    if (populationValues[k] < threshold) continue;
    tailRows[j] = population[k];
    tailValues[j++] = populationValues[k];
  }

  const key = mediansKey(index, target, query.scope);
  const last = lastMedians.get(index);
  const known = last !== undefined && last.key === key ? last.medians : null;
  const partMedians = known ?? new Map<string, number>();
  const clipped = target.kind === 'firstOutput';
  if (known === null)
    forEachContribution(index, target, population, populationValues, (part, contributions) => {
      let count = 0;
      let allZero = true;
      for (let k = 0; k < n; k++) {
        const c = contributions[k];
        if (Number.isNaN(c)) continue;
        scratch[count++] = c;
        if (c !== 0) allZero = false;
      }
      // Under a first-output target, a part that lies wholly after that instant in every request is not part of it.
      if (count === 0 || (clipped && allZero)) return;
      partMedians.set(part.meta.key, percentileInPlace(scratch, count, 50));
    });
  lastMedians.set(index, { key, medians: partMedians });

  return tailResult(index, {
    target,
    quantile: query.quantile,
    ...(query.scope.boot === undefined ? {} : { boot: query.scope.boot }),
    thresholdMs: threshold,
    targetMedianMs: median,
    scopeCount: n,
    tailRows,
    tailValues,
    partMedians,
  });
}
