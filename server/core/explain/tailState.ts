// Tail attribution over the whole session, kept up to date as requests arrive: per target,
// the order statistics of its values and of every part's contribution to it
// (orderStatistics.ts), so that a query selects the threshold and the medians in O(log n)
// instead of a pass and a select over every request for each of ~30 parts. Made on the
// first query for a target (one pass over the requests so far), then fed the requests as
// the index adds them (in batches of up to BATCH, and the rest when a query comes). A
// request adds its contributions once; nothing it holds changes later.
import type { ExplainIndex, IndexFollower } from './explainIndex';
import { ZeroContributions } from './afterTarget';
import { WarmColdSamples } from './orderStatistics';
import { forEachContribution } from './tailContributions';
import { tailResult } from './tailResult';
import type { Target } from './targets';
import { targetValuesOf } from './targetValues';
import type { TailAttribution, TailQuantile, TargetName } from './types';
import { TAIL_PERCENT } from './types';

/** Requests taken at once at most, between two queries. */
const BATCH = 256;

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
  private readonly targetSamples = new WarmColdSamples();
  private readonly parts = new Map<string, WarmColdSamples>();
  /** First-output targets: why a part's contribution was 0 (afterTarget.ts). */
  private readonly zeros = new Map<string, ZeroContributions>();

  /** Rows [0, taken) are in the order statistics. */
  private taken = 0;

  constructor(
    private readonly index: ExplainIndex,
    private readonly target: Target,
  ) {
    this.catchUp();
  }

  add(row: number): void {
    // Taken in batches: one pass over the parts for many requests costs less than one each.
    if (row + 1 - this.taken >= BATCH) this.catchUp();
  }

  /** Takes the rows added since the last time. */
  private catchUp(): void {
    const n = this.index.length;
    if (n === this.taken) return;
    const rows = new Int32Array(n - this.taken);
    for (let k = 0; k < rows.length; k++) rows[k] = this.taken + k;
    this.taken = n;
    this.take(rows);
  }

  /** Adds rows (ascending, each the next one of the index). */
  private take(rows: Int32Array): void {
    const index = this.index;
    const column = index.target(this.target.name);
    const read = new Float64Array(rows.length);
    if (column === undefined) read.fill(Number.NaN);
    else column.read(rows, read);

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
    const clipped = this.target.kind === 'firstOutput';
    forEachContribution(index, this.target, population, values, (part, contributions, ms) => {
      let samples = this.parts.get(part.meta.key);
      if (samples === undefined) this.parts.set(part.meta.key, (samples = new WarmColdSamples()));
      addAll(samples, contributions, cold);
      if (!clipped) return;
      let zeros = this.zeros.get(part.meta.key);
      if (zeros === undefined) this.zeros.set(part.meta.key, (zeros = new ZeroContributions()));
      zeros.add(ms, contributions, n, cold);
    });
  }

  /** The tail at a quantile over every request of the session, or its warm ones; null when none measured the target. */
  attribution(quantile: TailQuantile, excludeCold: boolean): TailAttribution | null {
    this.catchUp();
    const n = this.targetSamples.count(excludeCold);
    if (n === 0) return null;
    const threshold = this.targetSamples.percentile(TAIL_PERCENT[quantile], excludeCold);
    const median = this.targetSamples.percentile(50, excludeCold);
    const tail: number[] = [];
    const values = targetValuesOf(this.index, this.target.name) ?? new Float64Array(0);
    for (let i = 0; i < values.length; i++) {
      if (values[i] >= threshold && !(excludeCold && this.index.isCold(i) === 1)) tail.push(i);
    }
    const tailRows = Int32Array.from(tail);
    const tailValues = Float64Array.from(tail, (i) => values[i]);
    const partMedians = new Map<string, number>();
    const afterTarget = new Map<string, { requests: number; of: number }>();
    const clipped = this.target.kind === 'firstOutput';
    for (const [key, samples] of this.parts) {
      const count = samples.count(excludeCold);
      // Under a first-output target, a part that lies wholly after that instant in every request is not part of it.
      if (count === 0 || (clipped && !samples.hasNonzero(excludeCold))) continue;
      const median = samples.percentile(50, excludeCold);
      partMedians.set(key, median);
      const after = this.zeros.get(key)?.afterTarget(median, count, excludeCold) ?? null;
      if (after !== null) afterTarget.set(key, after);
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
      afterTarget,
    });
  }

  get bytes(): number {
    let n = this.targetSamples.bytes;
    for (const s of this.parts.values()) n += s.bytes;
    // Four counters and the map entry per part.
    n += this.zeros.size * 64;
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
