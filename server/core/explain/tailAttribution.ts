// Tail attribution: for a target and a quantile, the requests at or above the target's
// value at that quantile (the tail); for each, the excess of every part over that part's
// median, within the request; then the mean of those excesses over the tail. Medians are
// over the requests in scope that measured the target. Nothing is subtracted across
// requests or stages: a part's excess is always (this request's part − its median).
// A part a tail request did not measure adds nothing for that request (its time is in the
// residual), so the identity holds exactly: excess = Σ parts' excess + residual.
import type { ExplainIndex, PartColumns } from './explainIndex';
import { rowsInScope, type RowScope } from './scope';
import { percentileInPlace } from './select';
import { contribution, parseTarget, partCounts, type Target } from './targets';
import type { TailAttribution, TailPart, TailQuantile, TargetName } from './types';
import { TAIL_PERCENT } from './types';

const MAX_REQUEST_IDS = 50;

export interface TailQuery {
  readonly target: TargetName;
  readonly quantile: TailQuantile;
  readonly scope: RowScope;
}

/** The tail of one target at one quantile over the scope; null when no request in scope measured the target. */
export function tailAttribution(index: ExplainIndex, query: TailQuery): TailAttribution | null {
  const target = parseTarget(query.target);
  const column = target === null ? undefined : index.target(target.name);
  if (target === null || column === undefined) return null;
  const scoped = rowsInScope(index, query.scope);
  // The population: requests in scope that measured the target.
  const rows = new Int32Array(scoped.length);
  const values = new Float64Array(scoped.length);
  let n = 0;
  for (const i of scoped) {
    const v = column.get(i);
    if (Number.isNaN(v)) continue;
    rows[n] = i;
    values[n] = v;
    n++;
  }
  if (n === 0) return null;
  const scratch = values.slice(0, n);
  const threshold = percentileInPlace(scratch, n, TAIL_PERCENT[query.quantile]);
  const median = percentileInPlace(scratch, n, 50);

  const tail: number[] = [];
  let excess = 0;
  for (let k = 0; k < n; k++) {
    if ((values[k] as number) >= threshold) {
      tail.push(k);
      excess += (values[k] as number) - median;
    }
  }
  const tailCount = tail.length;
  excess /= tailCount;

  const parts: TailPart[] = [];
  const contributions = new Float64Array(n);
  for (const part of index.parts()) {
    if (!partCounts(part.meta, target)) continue;
    const measured = partContributions(part, target, rows, values, n, contributions);
    // Under a first-output target, a part that lies wholly after that instant in every request is not part of it.
    if (measured.count === 0 || (target.kind === 'firstOutput' && measured.allZero)) continue;
    const partMedian = percentileInPlace(measured.scratch, measured.count, 50);
    let sum = 0;
    let measuredIn = 0;
    for (const k of tail) {
      const c = contributions[k] as number;
      if (Number.isNaN(c)) continue;
      sum += c - partMedian;
      measuredIn++;
    }
    if (measuredIn === 0) continue;
    const partExcess = sum / tailCount;
    const m = part.meta;
    parts.push({
      key: m.key,
      stageId: m.stageId,
      stageKey: m.stageKey,
      phase: m.phase,
      ...(m.edge === null ? {} : { edge: m.edge }),
      ...(m.component === null ? {} : { component: m.component }),
      excessMs: partExcess,
      share: Math.abs(excess) < 1e-9 ? null : partExcess / excess,
      medianMs: partMedian,
      measuredIn,
    });
  }
  parts.sort((a, b) => b.excessMs - a.excessMs || (a.key < b.key ? -1 : 1));
  let explained = 0;
  for (const p of parts) explained += p.excessMs;

  const slowest = tail.slice().sort((a, b) => (values[b] as number) - (values[a] as number) || (rows[a] as number) - (rows[b] as number));
  return {
    target: target.name,
    quantile: query.quantile,
    ...(query.scope.boot === undefined ? {} : { boot: query.scope.boot }),
    thresholdMs: threshold,
    requestCount: tailCount,
    scopeCount: n,
    targetMedianMs: median,
    excessMs: excess,
    parts,
    residualMs: excess - explained,
    requestIds: slowest.slice(0, MAX_REQUEST_IDS).map((k) => index.requestId(rows[k] as number)),
  };
}

/**
 * Fills `out[k]` with the part's contribution to the target in row k of the population
 * (NaN where it has none) and returns the defined ones packed in a scratch array for the median.
 */
function partContributions(part: PartColumns, target: Target, rows: Int32Array, targetValues: Float64Array, n: number, out: Float64Array): { scratch: Float64Array; count: number; allZero: boolean } {
  const scratch = new Float64Array(n);
  let count = 0;
  let allZero = true;
  const ownStage = part.meta.stageKey !== null && part.meta.stageKey === target.stageKey;
  for (let k = 0; k < n; k++) {
    const i = rows[k] as number;
    const ms = part.ms.get(i);
    let c = Number.NaN;
    if (!Number.isNaN(ms)) c = contribution(ms, part.start.get(i), target, targetValues[k] as number, ownStage);
    out[k] = c;
    if (!Number.isNaN(c)) {
      scratch[count++] = c;
      if (c !== 0) allZero = false;
    }
  }
  return { scratch, count, allZero };
}
