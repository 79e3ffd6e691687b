// Load at arrival: how many other requests were in flight when each request arrived
// (arrival = finish − e2e_total_ms, finish from the log's timestamp), overall and per
// stage (requests whose stage span on their own clock contained that instant), and the
// target's latency by in-flight bucket, for all requests in scope and for the tail. It
// answers: did the tail arrive into a busier server (queued behind others), or was
// every request slower at the same load? In-flight counts use every request of the
// session with a known arrival, in scope or not: load is load.
import type { Distribution } from '../analysis/types';
import type { ExplainIndex } from './explainIndex';
import { LOG_RESOLUTION_MS } from './logClock';
import { rowsInScope, type RowScope } from './scope';
import { countDistribution, distributionInPlace, percentileInPlace } from './select';
import { scratchFloat64, scratchInt32, scratchUint8 } from './scratch';
import { parseTarget } from './targets';
import { targetValuesOf } from './targetValues';
import type { LoadAtArrival, LoadBucket, LoadReading, StageLoad, TailQuantile, TargetName } from './types';
import { TAIL_PERCENT } from './types';

export interface LoadQuery {
  readonly target: TargetName;
  readonly quantile: TailQuantile;
  readonly scope: RowScope;
}

/** Tail mean in flight at least this many times the overall mean: the tail arrived into a busier server. */
export const BUSIER_RATIO = 1.5;
/** At most this: the same load. Between the two: mixed. */
export const SAME_LOAD_RATIO = 1.15;

/** Bucket i holds in-flight counts [lo, hi]: 0, 1, 2-3, 4-7, 8-15, ... */
function bucketOf(inFlight: number): number {
  // floor(log2(n)) + 1, from the bit length.
  return inFlight <= 0 ? 0 : 32 - Math.clz32(inFlight);
}

function bucketBounds(b: number): [number, number] {
  return b === 0 ? [0, 0] : [2 ** (b - 1), 2 ** b - 1];
}

function readingOf(
  all: Distribution | null,
  tail: Distribution | null,
  tailCount: number,
): { reading: LoadReading; text: string } {
  if (all === null || tail === null || tailCount < 2)
    return { reading: 'unknown', text: 'Too few requests with a known arrival to tell.' };
  const f = (v: number): string => v.toFixed(1);
  if (all.mean === 0 && tail.mean === 0) {
    return {
      reading: 'sameLoad',
      text: 'No other request was in flight when any request arrived: the tail was slower on its own, not queued behind others.',
    };
  }
  const ratio = all.mean === 0 ? Infinity : tail.mean / all.mean;
  if (ratio >= BUSIER_RATIO) {
    return {
      reading: 'busier',
      text: `The tail arrived into a busier server: ${f(tail.mean)} other requests in flight on average, against ${f(all.mean)} for all requests. It queued behind others.`,
    };
  }
  if (ratio <= SAME_LOAD_RATIO) {
    return {
      reading: 'sameLoad',
      text: `The tail arrived at the same load as the rest (${f(tail.mean)} against ${f(all.mean)} requests in flight on average): requests were slower at the same load, not queued behind more others.`,
    };
  }
  return {
    reading: 'mixed',
    text: `The tail arrived at a somewhat higher load (${f(tail.mean)} against ${f(all.mean)} requests in flight on average): partly queueing, partly slower at the same load.`,
  };
}

/** What every load query over the same requests shares: who had a known arrival, and their counts. */
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
}

// A report asks for the load of every target at every quantile over the same requests: the
// counts and their distributions over all requests are the same for each, kept per index
// for the same row count and scope (a new request changes the key).
const lastBase = new WeakMap<ExplainIndex, ArrivalBase>();

function arrivalBase(index: ExplainIndex, scope: RowScope): ArrivalBase {
  const key = `${index.length}|${scope.fromMs}|${scope.toMs}|${scope.boot}|${scope.excludeCold === true}`;
  const last = lastBase.get(index);
  if (last !== undefined && last.key === key) return last;
  const rows = rowsInScope(index, scope, 0, scratchInt32('load.rows', index.length));
  // Counts kept by the index as requests arrived (inFlight.ts); -1: arrival unknown.
  const n = rows.length;
  const counts = index.inFlight.counts();
  const inFlight = scratchInt32('load.base.inFlight', n);
  const kept = scratchInt32('load.base.kept', n);
  let known = 0;
  for (let k = 0; k < n; k++) {
    const i = rows[k];
    const c = i < counts.length ? counts[i] : -1;
    if (c < 0) continue;
    inFlight[known] = c;
    kept[known] = i;
    known++;
  }
  const stages = index.stages().map((s, at) => {
    // Rows past the end of a stage's counts, and unknown ones (-1), count 0.
    const counts = index.inFlight.stageCounts(s.stageKey) ?? new Int32Array(0);
    const size = counts.length;
    const own = scratchInt32(`load.base.stage.${at}`, known);
    for (let k = 0; k < known; k++) {
      const i = kept[k];
      const c = i < size ? counts[i] : 0;
      own[k] = c > 0 ? c : 0;
    }
    return { stageKey: s.stageKey, stageId: s.stageId, counts: own, all: countDistribution(own, known) };
  });
  const base: ArrivalBase = {
    key,
    kept: kept.subarray(0, known),
    inFlight: inFlight.subarray(0, known),
    unknown: n - known,
    all: countDistribution(inFlight, known),
    stages,
  };
  lastBase.set(index, base);
  return base;
}

export function loadAtArrival(index: ExplainIndex, query: LoadQuery): LoadAtArrival | null {
  const target = parseTarget(query.target);
  const targetValues = target === null ? null : targetValuesOf(index, target.name);
  if (target === null || targetValues === null) return null;
  const base = arrivalBase(index, query.scope);
  const { kept, inFlight } = base;
  const known = kept.length;
  const values = scratchFloat64('load.values', known);
  for (let k = 0; k < known; k++) values[k] = targetValues[kept[k]];

  let measured = 0;
  const scratch = scratchFloat64('load.scratch', known);
  for (let k = 0; k < known; k++) if (!Number.isNaN(values[k])) scratch[measured++] = values[k];
  const threshold = measured === 0 ? null : percentileInPlace(scratch, measured, TAIL_PERCENT[query.quantile]);
  const inTail = scratchUint8('load.inTail', known).fill(0);
  let tailCount = 0;
  for (let k = 0; k < known; k++) {
    if (threshold !== null && values[k] >= threshold) {
      inTail[k] = 1;
      tailCount++;
    }
  }

  // Rows by bucket (a stable counting sort: each bucket's values stay in index order).
  const bucketOfRow = scratchUint8('load.bucket', known);
  let buckets = 0;
  for (let k = 0; k < known; k++) {
    const b = bucketOf(inFlight[k]);
    bucketOfRow[k] = b;
    if (b + 1 > buckets) buckets = b + 1;
  }
  const bucketCount = new Int32Array(buckets);
  const bucketTail = new Int32Array(buckets);
  const bucketMeasured = new Int32Array(buckets + 1);
  for (let k = 0; k < known; k++) {
    const b = bucketOfRow[k];
    bucketCount[b]++;
    if (inTail[k] === 1) bucketTail[b]++;
    if (!Number.isNaN(values[k])) bucketMeasured[b + 1]++;
  }
  for (let b = 1; b <= buckets; b++) bucketMeasured[b] += bucketMeasured[b - 1];
  const byBucket = scratchFloat64('load.byBucket', measured);
  const next = bucketMeasured.slice(0, buckets);
  for (let k = 0; k < known; k++) if (!Number.isNaN(values[k])) byBucket[next[bucketOfRow[k]]++] = values[k];
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
  const tailOf = (counts: Int32Array): Distribution | null => {
    let t = 0;
    for (let k = 0; k < known; k++) if (inTail[k] === 1) tail[t++] = counts[k];
    return countDistribution(tail, t);
  };
  const overall = { all: base.all, tail: tailOf(inFlight) };
  const stageLoads: StageLoad[] = base.stages.map((s) => ({
    stageKey: s.stageKey,
    stageId: s.stageId,
    all: s.all,
    tail: tailOf(s.counts),
  }));
  const { reading, text } = readingOf(overall.all, overall.tail, tailCount);
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
