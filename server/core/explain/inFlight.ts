// How many other requests were in flight when each request arrived, overall and per stage,
// kept up to date as requests arrive instead of recounted per query. Request i counts
// request j when j arrived at or before i did and had not finished yet (a_j <= a_i < f_j);
// in a stage, when j's span in that stage contained a_i. A request is logged when it
// finishes, so when j arrives in the index: its own count is what the requests logged so
// far say (arrived by a_j, not finished by a_j), and it adds 1 to every logged request
// that arrived while it was in flight (a_i in [a_j, f_j)). Those are the requests that
// overlapped it: a few, found by binary search in arrival order; so each request costs
// O(log n + concurrency), and a query reads the counts.
// With log timestamps of whole seconds, an arrival (finish − e2e) and another request's finish
// are each placed within their printed second, so their order is known only when they lie more
// than that resolution apart: j counts for i only while it had more than the resolution left
// (a_i < f_j − resolution), and the same for a stage span's end. A client that sends a request
// as the last one finishes thus reads 0 in flight, not 1 in some of its requests.
// Requests of different server boots never count each other: a restart ends every request in
// flight, and a restarted server's log clock can run back over the times of the boot before
// (a log of two runs of the same script), so each boot keeps its own arrivals, finishes and
// stage spans. The index gives the servers of a merged log a boot key each of their own
// (explainIndex.ts): one pod's requests never wait in another's queue.
import { SortedTimes } from './sortedTimes';

/** Arrival-ordered (time, row) pairs; inserts land near the end (requests arrive in roughly finish order). */
class ByArrival {
  times = new Float64Array(1024);
  rows = new Int32Array(1024);
  size = 0;

  /** First position whose time is >= t (lower bound). */
  lowerBound(t: number): number {
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.times[mid] < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Inserts after every equal time; returns the position. */
  insert(t: number, row: number): number {
    if (this.size === this.times.length) {
      const times = new Float64Array(this.size * 2);
      times.set(this.times);
      const rows = new Int32Array(this.size * 2);
      rows.set(this.rows);
      this.times = times;
      this.rows = rows;
    }
    let at = this.size;
    while (at > 0 && this.times[at - 1] > t) at--;
    this.times.copyWithin(at + 1, at, this.size);
    this.rows.copyWithin(at + 1, at, this.size);
    this.times[at] = t;
    this.rows[at] = row;
    this.size++;
    return at;
  }

  get bytes(): number {
    return this.times.byteLength + this.rows.byteLength;
  }
}

/** A growable Int32Array of counts, -1 where unknown. */
class Counts {
  data = new Int32Array(1024).fill(-1);

  ensure(row: number): void {
    if (row < this.data.length) return;
    let n = this.data.length;
    while (n <= row) n *= 2;
    const grown = new Int32Array(n).fill(-1);
    grown.set(this.data);
    this.data = grown;
  }

  get bytes(): number {
    return this.data.byteLength;
  }
}

/** The times of one server boot's requests: arrivals, finishes and each stage's span ends. */
class BootTimes {
  readonly byArrival = new ByArrival();
  readonly finishes = new SortedTimes();
  readonly stageSpans = new Map<string, { readonly starts: SortedTimes; readonly ends: SortedTimes }>();

  stageSpansOf(stageKey: string): { readonly starts: SortedTimes; readonly ends: SortedTimes } {
    let spans = this.stageSpans.get(stageKey);
    if (spans === undefined)
      this.stageSpans.set(stageKey, (spans = { starts: new SortedTimes(), ends: new SortedTimes() }));
    return spans;
  }

  get bytes(): number {
    let n = this.byArrival.bytes + this.finishes.bytes;
    for (const s of this.stageSpans.values()) n += s.starts.bytes + s.ends.bytes;
    return n;
  }
}

export class InFlightCounts {
  private readonly boots = new Map<number, BootTimes>();
  private readonly overall = new Counts();
  private readonly perStage = new Map<string, Counts>();

  /**
   * Adds request `row` of server boot `boot` (arrival and finish on one clock; stage spans
   * absolute), or records it as unknown when its arrival is not known. `resolutionMs`: how far
   * apart two of these times must be for their order to be known (the log's timestamps: 1 s).
   */
  add(
    row: number,
    boot: number,
    arrival: number,
    rawFinish: number,
    spans: readonly { readonly stageKey: string; readonly start: number; readonly end: number }[],
    resolutionMs = 0,
  ): void {
    this.overall.ensure(row);
    if (!Number.isFinite(arrival) || !Number.isFinite(rawFinish)) return;
    // Until when others are surely counted: never before the arrival (so a finish at or before
    // another's arrival implies an arrival before it too).
    const finish = Math.max(arrival, rawFinish - resolutionMs);
    let times = this.boots.get(boot);
    if (times === undefined) this.boots.set(boot, (times = new BootTimes()));
    const byArrival = times.byArrival;
    const at = byArrival.insert(arrival, row);
    // Logged requests of its boot that arrived at or before it (the ones before `at` and equal ones after) and had not finished.
    let arrivedBy = at + 1;
    while (arrivedBy < byArrival.size && byArrival.times[arrivedBy] === arrival) arrivedBy++;
    const own = arrivedBy - 1 - times.finishes.countAtMost(arrival);
    this.overall.data[row] = Math.max(0, own);
    increment(byArrival, this.overall, arrival, finish, row);
    times.finishes.add(finish);
    for (const span of spans) {
      if (!this.perStage.has(span.stageKey)) {
        // A stage seen for the first time: every request logged so far had nobody in it.
        const counts = new Counts();
        counts.ensure(this.overall.data.length - 1);
        for (let r = 0; r < this.overall.data.length; r++)
          if (this.overall.data[r] >= 0 && r !== row) counts.data[r] = 0;
        this.perStage.set(span.stageKey, counts);
      }
    }
    // Every stage, whether this request ran it or not: who of its boot was in it when this request arrived.
    for (const [stageKey, counts] of this.perStage) {
      counts.ensure(row);
      const spansOfBoot = times.stageSpans.get(stageKey);
      counts.data[row] =
        spansOfBoot === undefined
          ? 0
          : Math.max(0, spansOfBoot.starts.countAtMost(arrival) - spansOfBoot.ends.countAtMost(arrival));
    }
    for (const span of spans) {
      const counts = this.perStage.get(span.stageKey)!;
      const spansOfBoot = times.stageSpansOf(span.stageKey);
      const end = Math.max(span.start, span.end - resolutionMs);
      if (end > span.start) increment(byArrival, counts, span.start, end, row);
      spansOfBoot.starts.add(span.start);
      spansOfBoot.ends.add(end);
    }
  }
  /** Per row, others in flight when it arrived (-1: unknown; rows past the end: unknown). */
  counts(): Int32Array {
    return this.overall.data;
  }

  /** Others in flight when `row` arrived; -1 when its arrival is unknown. */
  count(row: number): number {
    return row < this.overall.data.length ? this.overall.data[row] : -1;
  }

  /** Per request, others in the stage when it arrived (-1: unknown; rows past the end: unknown); null for a stage never seen. */
  stageCounts(stageKey: string): Int32Array | null {
    return this.perStage.get(stageKey)?.data ?? null;
  }

  /** Others in the stage when `row` arrived; -1 when its arrival is unknown. */
  stageCount(stageKey: string, row: number): number {
    const counts = this.perStage.get(stageKey);
    if (counts === undefined || row >= counts.data.length) return -1;
    return counts.data[row];
  }

  get bytes(): number {
    let n = this.overall.bytes;
    for (const times of this.boots.values()) n += times.bytes;
    for (const counts of this.perStage.values()) n += counts.bytes;
    return n;
  }
}

/** +1 for every logged request of a boot (its arrivals: `b`) but `self` that arrived in [from, to). */
function increment(b: ByArrival, counts: Counts, from: number, to: number, self: number): void {
  for (let k = b.lowerBound(from); k < b.size && b.times[k] < to; k++) {
    const row = b.rows[k];
    if (row === self) continue;
    counts.ensure(row);
    if (counts.data[row] >= 0) counts.data[row] = counts.data[row] + 1;
  }
}
