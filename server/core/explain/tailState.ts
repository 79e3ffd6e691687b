// Tail attribution over the whole session, kept up to date as requests arrive: per target,
// the order statistics of its values and of every part's contribution to it
// (orderStatistics.ts), so that a query selects the threshold and the medians in O(log n)
// instead of a pass and a select over every request for each of ~30 parts. Made on the
// first query for a target (one pass over the requests so far), then fed each request as
// the index adds it. A request adds its contributions once; nothing it holds changes later.
import type { ExplainIndex, IndexFollower } from './explainIndex';
import { WarmColdSamples } from './orderStatistics';
import { forEachContribution } from './tailContributions';
import { tailResult } from './tailResult';
import type { Target } from './targets';
import type { TailAttribution, TailQuantile, TargetName } from './types';
import { TAIL_PERCENT } from './types';

const states = new WeakMap<ExplainIndex, Map<TargetName, TailState>>();

/** The kept state of a target (the index must have the target). */
export function tailStateOf(index: ExplainIndex, target: Target): TailState {
  let byTarget = states.get(index);
  if (byTarget === undefined) states.set(index, (byTarget = new Map<TargetName, TailState>()));
  let state = byTarget.get(target.name);
  if (state === undefined) {
    state = new TailState(index, target);
    byTarget.set(target.name, state);
    index.follow(state);
  }
  return state;
}

export class TailState implements IndexFollower {
  /** The target's value per row (NaN: not measured). */
  private values = new Float64Array(1024);
  private rows = 0;
  private readonly targetSamples = new WarmColdSamples();
  private readonly parts = new Map<string, WarmColdSamples>();

  constructor(
    private readonly index: ExplainIndex,
    private readonly target: Target,
  ) {
    const all = new Int32Array(index.length);
    for (let i = 0; i < all.length; i++) all[i] = i;
    this.take(all);
  }

  add(row: number): void {
    this.take(Int32Array.of(row));
  }

  /** Adds rows (ascending, each the next one of the index). */
  private take(rows: Int32Array): void {
    const index = this.index;
    const column = index.target(this.target.name);
    const read = new Float64Array(rows.length);
    if (column === undefined) read.fill(Number.NaN);
    else column.read(rows, read);
    this.grow(this.rows + rows.length);
    this.values.set(read, this.rows);
    this.rows += rows.length;

    let n = 0;
    for (let k = 0; k < rows.length; k++) if (!Number.isNaN(read[k])) n++;
    if (n === 0) return;
    const population = new Int32Array(n);
    const values = new Float64Array(n);
    const cold = new Uint8Array(n);
    for (let k = 0, j = 0; k < rows.length; k++) {
      if (Number.isNaN(read[k])) continue;
      population[j] = rows[k];
      values[j] = read[k];
      cold[j] = index.isCold(rows[k]);
      j++;
    }
    addAll(this.targetSamples, values, cold);
    forEachContribution(index, this.target, population, values, (part, contributions) => {
      let samples = this.parts.get(part.meta.key);
      if (samples === undefined) this.parts.set(part.meta.key, (samples = new WarmColdSamples()));
      addAll(samples, contributions, cold);
    });
  }

  private grow(size: number): void {
    if (size <= this.values.length) return;
    let n = this.values.length;
    while (n < size) n *= 2;
    const grown = new Float64Array(n);
    grown.set(this.values.subarray(0, this.rows));
    this.values = grown;
  }

  /** The tail at a quantile over every request of the session, or its warm ones; null when none measured the target. */
  attribution(quantile: TailQuantile, excludeCold: boolean): TailAttribution | null {
    const n = this.targetSamples.count(excludeCold);
    if (n === 0) return null;
    const threshold = this.targetSamples.percentile(TAIL_PERCENT[quantile], excludeCold);
    const median = this.targetSamples.percentile(50, excludeCold);
    const tail: number[] = [];
    const values = this.values;
    for (let i = 0; i < this.rows; i++) {
      if (values[i] >= threshold && !(excludeCold && this.index.isCold(i) === 1)) tail.push(i);
    }
    const tailRows = Int32Array.from(tail);
    const tailValues = Float64Array.from(tail, (i) => values[i]);
    const partMedians = new Map<string, number>();
    const clipped = this.target.kind === 'firstOutput';
    for (const [key, samples] of this.parts) {
      // Under a first-output target, a part that lies wholly after that instant in every request is not part of it.
      if (samples.count(excludeCold) === 0 || (clipped && !samples.hasNonzero(excludeCold))) continue;
      partMedians.set(key, samples.percentile(50, excludeCold));
    }
    return tailResult(this.index, {
      target: this.target,
      quantile,
      thresholdMs: threshold,
      targetMedianMs: median,
      scopeCount: n,
      tailRows,
      tailValues,
      partMedians,
    });
  }

  get bytes(): number {
    let n = this.values.byteLength + this.targetSamples.bytes;
    for (const s of this.parts.values()) n += s.bytes;
    return n;
  }
}

/** Adds the measured values (NaN: not measured, left out: never a 0), the warm ones at once. */
function addAll(samples: WarmColdSamples, values: Float64Array, cold: Uint8Array): void {
  let warm = 0;
  for (let k = 0; k < values.length; k++) if (!Number.isNaN(values[k]) && cold[k] === 0) warm++;
  const warmValues = new Float64Array(warm);
  for (let k = 0, j = 0; k < values.length; k++) {
    const v = values[k];
    if (Number.isNaN(v)) continue;
    if (cold[k] === 1) samples.add(v, true);
    else warmValues[j++] = v;
  }
  samples.addWarm(warmValues);
}
