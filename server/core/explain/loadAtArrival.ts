// Load at arrival: how many other requests were in flight when each request arrived
// (arrival = finish − e2e_total_ms, finish from the log's timestamp), overall and per
// stage (requests whose stage span on their own clock contained that instant), and the
// target's latency by in-flight bucket, for all requests in scope and for the tail. It
// answers: did the tail arrive into a busier server (queued behind others), or was
// every request slower at the same load? In-flight counts use every request of the
// session with a known arrival, in scope or not (load is load), of the same server boot
// (a restart ends every request in flight; inFlight.ts) and, in a merged log, of the same
// server (one pod's requests do not queue behind another's).
import type { Distribution } from '../analysis/types';
import { countOf } from '../numberText';
import type { ExplainIndex } from './explainIndex';
import { LOG_RESOLUTION_MS } from './logClock';
import { comparedMeans } from './loadWords';
import { rowsInScope, scopeKey } from './scope';
import { countDistribution, distributionInPlace, measuredInto, percentileInPlace } from './select';
import { scratchFloat64, scratchInt32, scratchUint8 } from './scratch';
import { parseTarget } from './targets';
import { targetValuesOf } from './targetValues';
import type {
  LoadAtArrival,
  LoadBucket,
  LoadReading,
  StageLoad,
  TailQuantile,
  TargetName,
  ExplainScope,
} from './types';
import { TAIL_PERCENT } from './types';

export interface LoadQuery {
  readonly target: TargetName;
  readonly quantile: TailQuantile;
  readonly scope: ExplainScope;
}

/** Tail mean in flight at least this many times the overall mean: the tail arrived into a busier server. */
export const BUSIER_RATIO = 1.5;
/** Within this factor either way: the same load. Above it, below BUSIER_RATIO: mixed; below it: a lower load. */
export const SAME_LOAD_RATIO = 1.15;

/** Bucket i holds in-flight counts [lo, hi]: 0, 1, 2-3, 4-7, 8-15, ... */
function bucketOf(inFlight: number): number {
  // floor(log2(n)) + 1, from the bit length.
  return inFlight <= 0 ? 0 : 32 - Math.clz32(inFlight);
}

function bucketBounds(b: number): [number, number] {
  return b === 0 ? [0, 0] : [2 ** (b - 1), 2 ** b - 1];
}

/** The reading of the tail's mean in flight over that of all requests. */
function readingOfRatio(ratio: number): LoadReading {
  if (ratio >= BUSIER_RATIO) return 'busier';
  // The band is symmetric: a tail at 1/1.15 of everyone's load is no more "the same" than one at 1.15×.
  if (ratio < 1 / SAME_LOAD_RATIO) return 'lower';
  return ratio <= SAME_LOAD_RATIO ? 'sameLoad' : 'mixed';
}

/** The reading and its sentence from the overall and tail in-flight distributions (shared with the test's reference pass). */
export function readingOf(
  all: Distribution | null,
  tail: Distribution | null,
  known: number,
  tailCount: number,
  quantile: TailQuantile,
): { reading: LoadReading; text: string } {
  if (known === 0)
    return {
      reading: 'unknown',
      text: 'No request in scope has a known arrival (no log timestamp or no end-to-end time): there is no load at arrival to tell.',
    };
  if (all === null || tail === null || tailCount < 2) {
    // The buckets are still shown below; say they are there, and why they prove nothing.
    const inTail = tailCount === 0 ? `none in the ${quantile} tail` : `${tailCount} in the ${quantile} tail`;
    return {
      reading: 'unknown',
      text: `Only ${countOf(known, 'request')} with a known arrival, ${inTail}: too few to tell whether the tail arrived into a busier server. The table below describes these requests as they are; it is not evidence either way.`,
    };
  }
  if (all.mean === 0 && tail.mean === 0) {
    return {
      reading: 'sameLoad',
      text: 'No other request was in flight when any request arrived: the tail was slower on its own, not queued behind others.',
    };
  }
  const ratio = all.mean === 0 ? Infinity : tail.mean / all.mean;
  const reading = readingOfRatio(ratio);
  // A reading that calls the tail's load higher or lower prints the two means apart (loadWords.ts).
  const [a, t] = comparedMeans(reading, all.mean, tail.mean);
  switch (reading) {
    case 'busier':
      return {
        reading,
        text: `The tail arrived into a busier server: ${t} other requests in flight on average, against ${a} for all requests. It queued behind others.`,
      };
    case 'lower':
      return {
        reading,
        text: `The tail arrived at a lower load than the rest (${t} against ${a} requests in flight on average): load does not explain it; requests were slower with fewer others in flight, so the time is in their own parts.`,
      };
    case 'sameLoad':
      return {
        reading,
        text: `The tail arrived at the same load as the rest (${t} against ${a} requests in flight on average): requests were slower at the same load, not queued behind more others.`,
      };
    default:
      return {
        reading,
        text: `The tail arrived at a somewhat higher load (${t} against ${a} requests in flight on average): partly queueing, partly slower at the same load.`,
      };
  }
}

/** What every load query over the same requests shares: who had a known arrival, their counts and buckets. */
interface ArrivalBase {
  readonly key: string;
  /** Rows in scope with a known arrival, and how many others were in flight then. */
  readonly kept: Int32Array;
  readonly inFlight: Int32Array;
  readonly unknown: number;
  readonly all: Distribution | null;
  readonly stages: readonly {
    stageKey: string;
    stageId: number | null;
    counts: Int32Array;
    all: Distribution | null;
  }[];
  /** Each kept row's in-flight bucket, how many buckets there are, and the rows in each. */
  readonly bucketOfRow: Uint8Array;
  readonly buckets: number;
  readonly bucketCount: Int32Array;
}

// A report asks for the load of every target at every quantile over the same requests: the
// counts, their distributions over all requests and the buckets are the same for each,
// kept per index for the same row count and scope (a new request changes the key).
const lastBase = new WeakMap<ExplainIndex, ArrivalBase>();

function arrivalBase(index: ExplainIndex, scope: ExplainScope): ArrivalBase {
  const key = scopeKey(index, scope);
  const last = lastBase.get(index);
  if (last !== undefined && last.key === key) return last;
  const rows = rowsInScope(index, scope, 0, scratchInt32('load.rows', index.length));
  // Counts kept by the index as requests arrived (inFlight.ts); -1: arrival unknown.
  const n = rows.length;
  const inFlight = scratchInt32('load.base.inFlight', n);
  const kept = scratchInt32('load.base.kept', n);
  const known = knownCounts(rows, index.inFlight.counts(), kept, inFlight);
  const stages = index.stages().map((s, at) => {
    const own = scratchInt32(`load.base.stage.${at}`, known);
    stageCountsOf(kept, known, index.inFlight.stageCounts(s.stageKey) ?? new Int32Array(0), own);
    return { stageKey: s.stageKey, stageId: s.stageId, counts: own, all: countDistribution(own, known) };
  });
  // Rows by bucket (a stable counting sort: each bucket's values stay in index order).
  const bucketOfRow = scratchUint8('load.base.bucket', known);
  const buckets = bucketsOf(inFlight, known, bucketOfRow);
  const bucketCount = new Int32Array(buckets);
  for (let k = 0; k < known; k++) bucketCount[bucketOfRow[k]]++;
  const base: ArrivalBase = {
    key,
    kept: kept.subarray(0, known),
    inFlight: inFlight.subarray(0, known),
    unknown: n - known,
    all: countDistribution(inFlight, known),
    stages,
    bucketOfRow,
    buckets,
    bucketCount,
  };
  lastBase.set(index, base);
  return base;
}

export function loadAtArrival(index: ExplainIndex, query: LoadQuery): LoadAtArrival | null {
  const target = parseTarget(query.target);
  const targetValues = target === null ? null : targetValuesOf(index, target.name);
  if (target === null || targetValues === null) return null;
  const base = arrivalBase(index, query.scope);
  const { kept, inFlight, bucketOfRow, buckets, bucketCount } = base;
  const known = kept.length;
  const values = scratchFloat64('load.values', known);
  gather(targetValues, kept, values);

  const scratch = scratchFloat64('load.scratch', known);
  const measured = measuredInto(values, known, scratch);
  const threshold = measured === 0 ? null : percentileInPlace(scratch, measured, TAIL_PERCENT[query.quantile]);
  const inTail = scratchUint8('load.inTail', known);
  const tailCount = markAtLeast(values, known, threshold ?? Number.POSITIVE_INFINITY, inTail);

  const bucketTail = new Int32Array(buckets);
  const bucketMeasured = new Int32Array(buckets + 1);
  countByBucket(bucketOfRow, inTail, values, bucketTail, bucketMeasured);
  for (let b = 1; b <= buckets; b++) bucketMeasured[b] += bucketMeasured[b - 1];
  const byBucket = scratchFloat64('load.byBucket', measured);
  fillByBucket(values, bucketOfRow, bucketMeasured.slice(0, buckets), byBucket);
  const loadBuckets: LoadBucket[] = [];
  for (let b = 0; b < buckets; b++) {
    if (bucketCount[b] === 0) continue;
    const [lo, hi] = bucketBounds(b);
    const from = bucketMeasured[b];
    const to = bucketMeasured[b + 1];
    loadBuckets.push({
      minInFlight: lo,
      maxInFlight: hi,
      count: bucketCount[b],
      tailCount: bucketTail[b],
      target: distributionInPlace(byBucket.subarray(from, to), to - from),
    });
  }

  /** The distribution of a count over the tail's rows. */
  const tail = scratchInt32('load.tail', tailCount);
  const tailOf = (counts: Int32Array): Distribution | null => countDistribution(tail, marked(counts, inTail, tail));
  const overall = { all: base.all, tail: tailOf(inFlight) };
  const stageLoads: StageLoad[] = base.stages.map((s) => ({
    stageKey: s.stageKey,
    stageId: s.stageId,
    all: s.all,
    tail: tailOf(s.counts),
  }));
  const { reading, text } = readingOf(overall.all, overall.tail, known, tailCount, query.quantile);
  return {
    target: target.name,
    quantile: query.quantile,
    arrivalsKnown: known,
    arrivalsUnknown: base.unknown,
    resolutionMs: LOG_RESOLUTION_MS,
    thresholdMs: threshold,
    inFlight: overall,
    buckets: loadBuckets,
    stages: stageLoads,
    reading,
    readingText: text,
  };
}

// The loops, each in a function of its own (select.ts says why).

/** The rows with a known count (>= 0), and their counts; returns how many. */
function knownCounts(rows: Int32Array, counts: Int32Array, kept: Int32Array, inFlight: Int32Array): number {
  let known = 0;
  for (let k = 0; k < rows.length; k++) {
    const i = rows[k];
    const c = i < counts.length ? counts[i] : -1;
    if (c < 0) continue;
    inFlight[known] = c;
    kept[known] = i;
    known++;
  }
  return known;
}

/** A stage's count at each kept row; rows past the end of its counts, and unknown ones (-1), count 0. */
function stageCountsOf(kept: Int32Array, known: number, counts: Int32Array, into: Int32Array): void {
  const size = counts.length;
  for (let k = 0; k < known; k++) {
    const i = kept[k];
    const c = i < size ? counts[i] : 0;
    into[k] = c > 0 ? c : 0;
  }
}

/** Each count's bucket; returns the number of buckets. */
function bucketsOf(inFlight: Int32Array, n: number, into: Uint8Array): number {
  let buckets = 0;
  for (let k = 0; k < n; k++) {
    const b = bucketOf(inFlight[k]);
    into[k] = b;
    if (b + 1 > buckets) buckets = b + 1;
  }
  return buckets;
}

function gather(values: Float64Array, rows: Int32Array, into: Float64Array): void {
  for (let k = 0; k < rows.length; k++) into[k] = values[rows[k]];
}

/** marks[k] = 1 where values[k] >= threshold, else 0; returns how many. */
function markAtLeast(values: Float64Array, n: number, threshold: number, marks: Uint8Array): number {
  let count = 0;
  for (let k = 0; k < n; k++) {
    const at = values[k] >= threshold ? 1 : 0;
    marks[k] = at;
    count += at;
  }
  return count;
}

/** Per bucket, the tail rows, and the measured values (at b + 1, for prefix sums). */
function countByBucket(
  bucketOfRow: Uint8Array,
  inTail: Uint8Array,
  values: Float64Array,
  tail: Int32Array,
  measured: Int32Array,
): void {
  for (let k = 0; k < values.length; k++) {
    const b = bucketOfRow[k];
    if (inTail[k] === 1) tail[b]++;
    if (!Number.isNaN(values[k])) measured[b + 1]++;
  }
}

/** The measured values grouped by bucket, each group in row order; next[b]: where bucket b's next value goes. */
function fillByBucket(values: Float64Array, bucketOfRow: Uint8Array, next: Int32Array, into: Float64Array): void {
  for (let k = 0; k < values.length; k++) if (!Number.isNaN(values[k])) into[next[bucketOfRow[k]]++] = values[k];
}

/** The counts at marked rows, in order; returns how many. */
function marked(counts: Int32Array, marks: Uint8Array, into: Int32Array): number {
  let t = 0;
  for (let k = 0; k < marks.length; k++) if (marks[k] === 1) into[t++] = counts[k];
  return t;
}
