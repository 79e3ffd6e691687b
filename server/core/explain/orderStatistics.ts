// Order statistics of samples kept as they arrive, split into the warm requests' (a
// SampleSet: O(log n) to add and to select) and the few cold ones' (the first request
// after each server start, kept aside in a small sorted list), so one structure answers
// for all requests and for the warm ones alone. Percentiles are numpy's linear ones, from
// the same ranks as select.ts takes: the same numbers as a pass over the values.
import { SampleSet } from '../analysis/sampleSet';

/** numpy's linear percentile (p in 0..100) of n values given their k-th smallest. */
export function percentileOfRanks(n: number, p: number, kth: (k: number) => number): number {
  if (n === 0) return Number.NaN;
  const h = ((n - 1) * p) / 100;
  const lo = Math.floor(h);
  const a = kth(lo);
  if (h === lo || lo + 1 >= n) return a;
  return a + (h - lo) * (kth(lo + 1) - a);
}

export class WarmColdSamples {
  private readonly warm = new SampleSet();
  /** Ascending. */
  private readonly cold: number[] = [];
  private nonzeroWarm = 0;
  private nonzeroCold = 0;

  add(value: number, cold: boolean): void {
    if (cold) {
      let at = this.cold.length;
      while (at > 0 && this.cold[at - 1] > value) at--;
      this.cold.splice(at, 0, value);
      if (value !== 0) this.nonzeroCold++;
    } else {
      this.warm.add(value);
      if (value !== 0) this.nonzeroWarm++;
    }
  }

  /** Adds many warm samples at once. */
  addWarm(values: Float64Array): void {
    this.warm.addAll(values);
    for (let i = 0; i < values.length; i++) if (values[i] !== 0) this.nonzeroWarm++;
  }

  count(excludeCold: boolean): number {
    return this.warm.count + (excludeCold ? 0 : this.cold.length);
  }

  /** Whether some sample is not 0. */
  hasNonzero(excludeCold: boolean): boolean {
    return this.nonzeroWarm > 0 || (!excludeCold && this.nonzeroCold > 0);
  }

  percentile(p: number, excludeCold: boolean): number {
    return percentileOfRanks(this.count(excludeCold), p, (k) => this.kth(k, excludeCold));
  }

  /** The k-th smallest (0-based) of the warm samples, or of all of them: a binary search over how many come from the cold list. */
  private kth(k: number, excludeCold: boolean): number {
    const warm = this.warm;
    const cold = this.cold;
    if (excludeCold || cold.length === 0) return warm.at(k);
    const n = warm.count;
    let lo = Math.max(0, k + 1 - n);
    let hi = Math.min(k + 1, cold.length);
    while (lo < hi) {
      const i = (lo + hi) >> 1;
      if (cold[i] < warm.at(k - i)) lo = i + 1;
      else hi = i;
    }
    const fromCold = lo > 0 ? cold[lo - 1] : Number.NEGATIVE_INFINITY;
    const fromWarm = k + 1 - lo > 0 ? warm.at(k - lo) : Number.NEGATIVE_INFINITY;
    return Math.max(fromCold, fromWarm);
  }

  get bytes(): number {
    return this.warm.bytes + this.cold.length * 8;
  }
}
