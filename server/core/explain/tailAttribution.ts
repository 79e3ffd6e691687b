// Tail attribution: for a target and a quantile, the requests at or above the target's
// value at that quantile (the tail); for each, the excess of every part over that part's
// median, within the request; then the mean of those excesses over the tail. Medians are
// over the requests in scope that measured the target. Nothing is subtracted across
// requests or stages: a part's excess is always (this request's part − its median).
// A part a tail request did not measure adds nothing for that request (its time is in the
// residual), so the identity holds exactly: excess = Σ parts' excess + residual.
import type { ExplainIndex } from './explainIndex';
import { rowsInScope, type RowScope } from './scope';
import { percentileInPlace } from './select';
import { contribution, parseTarget, partCounts } from './targets';
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
  const scratch = values.slice(0, n);
  const threshold = percentileInPlace(scratch, n, TAIL_PERCENT[query.quantile]);
  const median = percentileInPlace(scratch, n, 50);

  const tailList: number[] = [];
  let excess = 0;
  for (let k = 0; k < n; k++) {
    if (values[k] >= threshold) {
      tailList.push(k);
      excess += values[k] - median;
    }
  }
  const tail = Int32Array.from(tailList);
  const tailCount = tail.length;
  excess /= tailCount;

  const parts: TailPart[] = [];
  const ms = new Float64Array(n);
  const contributions = new Float64Array(n);
  // Only a first-output target clips parts at its instant; the others take them whole.
  const clipped = target.kind === 'firstOutput';
  // Where the next phase of the current stage starts, per request (clipped targets only).
  const clock = new Float64Array(n);
  let clockStage: string | null = null;
  const stageStarts = new Map(index.stages().map((s) => [s.stageKey, s.start]));
  for (const part of index.parts()) {
    if (!partCounts(part.meta, target)) continue;
    const m = part.meta;
    part.ms.read(population, ms);
    let count = 0;
    let allZero = true;
    const inStage =
      m.phase !== 'preprocess' && m.phase !== 'transfer' && m.phase !== 'finalOutput' && m.stageKey !== null;
    if (clipped && inStage && clockStage !== m.stageKey) {
      clockStage = m.stageKey;
      const start = stageStarts.get(m.stageKey as string);
      if (start === undefined) clock.fill(Number.NaN);
      else start.read(population, clock);
    }
    const ownStage = m.stageKey !== null && m.stageKey === target.stageKey;
    for (let k = 0; k < n; k++) {
      const v = ms[k];
      let c = Number.NaN;
      if (!Number.isNaN(v)) {
        if (!clipped) c = v;
        else {
          const startMs = m.phase === 'preprocess' ? 0 : inStage && v >= 0 ? clock[k] : Number.NaN;
          c = contribution(v, startMs, target, values[k], ownStage);
          if (inStage && v >= 0) clock[k] = clock[k] + v;
        }
      }
      contributions[k] = c;
      if (!Number.isNaN(c)) {
        scratch[count++] = c;
        if (c !== 0) allZero = false;
      }
    }
    // Under a first-output target, a part that lies wholly after that instant in every request is not part of it.
    if (count === 0 || (clipped && allZero)) continue;
    const partMedian = percentileInPlace(scratch, count, 50);
    let sum = 0;
    let measuredIn = 0;
    for (let j = 0; j < tailCount; j++) {
      const c = contributions[tail[j]];
      if (Number.isNaN(c)) continue;
      sum += c - partMedian;
      measuredIn++;
    }
    if (measuredIn === 0) continue;
    const partExcess = sum / tailCount;
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

  const slowest = tailList.sort((a, b) => values[b] - values[a] || rows[a] - rows[b]);
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
    requestIds: slowest.slice(0, MAX_REQUEST_IDS).map((k) => index.requestId(rows[k])),
  };
}
