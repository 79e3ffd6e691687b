// A growing set of samples that answers percentile queries repeatedly without
// re-sorting everything: new samples wait in a small tail that is sorted and merged
// into the sorted body at query time (O(n) merge instead of O(n log n) sort), which
// keeps a live summary of 100k requests cheap.
import { distributionOfSorted } from './percentiles';
import type { Distribution } from './types';

export class SampleSet {
  private sorted = new Float64Array(0);
  private pending: number[] = [];
  private total = 0;

  add(value: number): void {
    this.pending.push(value);
    this.total += value;
  }

  get count(): number {
    return this.sorted.length + this.pending.length;
  }

  distribution(): Distribution | null {
    this.flush();
    return distributionOfSorted(this.sorted, this.total);
  }

  /** The sorted values (a view; do not modify). */
  values(): Float64Array {
    this.flush();
    return this.sorted;
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    const tail = Float64Array.from(this.pending).sort();
    this.pending = [];
    const body = this.sorted;
    const merged = new Float64Array(body.length + tail.length);
    let i = 0;
    let j = 0;
    let k = 0;
    while (i < body.length && j < tail.length) merged[k++] = (body[i] as number) <= (tail[j] as number) ? (body[i++] as number) : (tail[j++] as number);
    while (i < body.length) merged[k++] = body[i++] as number;
    while (j < tail.length) merged[k++] = tail[j++] as number;
    this.sorted = merged;
  }
}
