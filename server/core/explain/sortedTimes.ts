// A growing multiset of times that answers "how many are <= t" in O(log n): a sorted body
// and a tail of recent additions, sorted and merged into the body only when a query comes
// (a linear merge of the few that arrived since, not a sort of everything). The load at
// arrival of every request is two such counts, so a live session keeps one per kind of
// event (arrivals, finishes, each stage's starts and ends) instead of sorting 100k times
// per query.

export class SortedTimes {
  private body = new Float64Array(0);
  private size = 0;
  private pending: number[] = [];

  add(t: number): void {
    if (Number.isFinite(t)) this.pending.push(t);
  }

  get count(): number {
    return this.size + this.pending.length;
  }

  /** How many times are <= t. */
  countAtMost(t: number): number {
    this.settle();
    let lo = 0;
    let hi = this.size;
    const body = this.body;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (body[mid] <= t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private settle(): void {
    const fresh = this.pending;
    if (fresh.length === 0) return;
    if (fresh.length === 1) {
      // One new time per request in a one-shot pass: placed without sorting or allocating.
      this.insertOne(fresh.pop() as number);
      return;
    }
    const add = Float64Array.from(fresh).sort();
    const total = this.size + add.length;
    let out = this.body;
    if (out.length < total) {
      out = new Float64Array(Math.max(total, Math.ceil(this.body.length * 1.5), 1024));
    }
    // Merge from the back, so merging in place into a body with room needs no copy of it.
    let i = this.size - 1;
    let j = add.length - 1;
    let k = total - 1;
    const body = this.body;
    while (j >= 0) {
      if (i >= 0 && body[i] > add[j]) out[k--] = body[i--];
      else out[k--] = add[j--];
    }
    if (out !== body) out.set(body.subarray(0, i + 1), 0);
    this.body = out;
    this.size = total;
    fresh.length = 0;
  }

  private insertOne(t: number): void {
    if (this.size === this.body.length) {
      const grown = new Float64Array(Math.max(1024, Math.ceil(this.body.length * 1.5)));
      grown.set(this.body);
      this.body = grown;
    }
    const body = this.body;
    let i = this.size - 1;
    for (; i >= 0 && body[i] > t; i--) body[i + 1] = body[i];
    body[i + 1] = t;
    this.size++;
  }

  get bytes(): number {
    return this.body.byteLength + this.pending.length * 8;
  }
}
