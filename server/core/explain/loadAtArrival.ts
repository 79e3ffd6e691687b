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
import { distributionInPlace, percentileInPlace } from './select';
import { parseTarget } from './targets';
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
  return inFlight <= 0 ? 0 : Math.floor(Math.log2(inFlight)) + 1;
}

function bucketBounds(b: number): [number, number] {
  return b === 0 ? [0, 0] : [2 ** (b - 1), 2 ** b - 1];
}

function dist(values: number[]): Distribution | null {
  return distributionInPlace(Float64Array.from(values), values.length);
}

function readingOf(all: Distribution | null, tail: Distribution | null, tailCount: number): { reading: LoadReading; text: string } {
  if (all === null || tail === null || tailCount < 2) return { reading: 'unknown', text: 'Too few requests with a known arrival to tell.' };
  const f = (v: number): string => v.toFixed(1);
  if (all.mean === 0 && tail.mean === 0) {
    return { reading: 'sameLoad', text: 'No other request was in flight when any request arrived: the tail was slower on its own, not queued behind others.' };
  }
  const ratio = all.mean === 0 ? Infinity : tail.mean / all.mean;
  if (ratio >= BUSIER_RATIO) {
    return { reading: 'busier', text: `The tail arrived into a busier server: ${f(tail.mean)} other requests in flight on average, against ${f(all.mean)} for all requests. It queued behind others.` };
  }
  if (ratio <= SAME_LOAD_RATIO) {
    return { reading: 'sameLoad', text: `The tail arrived at the same load as the rest (${f(tail.mean)} against ${f(all.mean)} requests in flight on average): requests were slower at the same load, not queued behind more others.` };
  }
  return { reading: 'mixed', text: `The tail arrived at a somewhat higher load (${f(tail.mean)} against ${f(all.mean)} requests in flight on average): partly queueing, partly slower at the same load.` };
}

export function loadAtArrival(index: ExplainIndex, query: LoadQuery): LoadAtArrival | null {
  const target = parseTarget(query.target);
  const column = target === null ? undefined : index.target(target.name);
  if (target === null || column === undefined) return null;
  const rows = rowsInScope(index, query.scope);
  const stages = index.stages();

  // In flight at arrival t of request i: arrived at or before t, not finished by t, not i itself.
  const inFlight: number[] = [];
  const perStage: number[][] = stages.map(() => []);
  const values: number[] = [];
  const rowOf: number[] = [];
  let unknown = 0;
  for (const i of rows) {
    const arrival = index.arrivalMs(i);
    if (!Number.isFinite(arrival)) {
      unknown++;
      continue;
    }
    const finish = index.finishMs(i);
    const self = finish > arrival ? 1 : 0;
    const others = index.arrivals.countAtMost(arrival) - index.finishes.countAtMost(arrival) - self;
    stages.forEach((s, k) => {
      const start = s.start.get(i);
      const end = s.end.get(i);
      const selfIn = Number.isFinite(start) && start <= 0 && end > 0 ? 1 : 0;
      (perStage[k] as number[]).push(Math.max(0, s.starts.countAtMost(arrival) - s.ends.countAtMost(arrival) - selfIn));
    });
    inFlight.push(Math.max(0, others));
    values.push(column.get(i));
    rowOf.push(i);
  }

  const measured = values.filter((v) => !Number.isNaN(v));
  const threshold = measured.length === 0 ? null : percentileInPlace(Float64Array.from(measured), measured.length, TAIL_PERCENT[query.quantile]);
  const inTail = values.map((v) => threshold !== null && !Number.isNaN(v) && v >= threshold);

  const bucketValues = new Map<number, { values: number[]; count: number; tail: number }>();
  inFlight.forEach((n, k) => {
    const b = bucketOf(n);
    let entry = bucketValues.get(b);
    if (entry === undefined) bucketValues.set(b, (entry = { values: [], count: 0, tail: 0 }));
    entry.count++;
    if (!Number.isNaN(values[k] as number)) entry.values.push(values[k] as number);
    if (inTail[k] === true) entry.tail++;
  });
  const maxBucket = Math.max(-1, ...bucketValues.keys());
  const buckets: LoadBucket[] = [];
  for (let b = 0; b <= maxBucket; b++) {
    const entry = bucketValues.get(b);
    if (entry === undefined) continue;
    const [lo, hi] = bucketBounds(b);
    buckets.push({ minInFlight: lo, maxInFlight: hi, count: entry.count, tailCount: entry.tail, target: dist(entry.values) });
  }

  const tailOf = (xs: number[]): number[] => xs.filter((_, k) => inTail[k] === true);
  const all = dist(inFlight);
  const tail = dist(tailOf(inFlight));
  const stageLoads: StageLoad[] = stages.map((s, k) => ({ stageKey: s.stageKey, stageId: s.stageId, all: dist(perStage[k] as number[]), tail: dist(tailOf(perStage[k] as number[])) }));
  const tailCount = inTail.filter(Boolean).length;
  const { reading, text } = readingOf(all, tail, tailCount);
  return {
    target: target.name,
    quantile: query.quantile,
    arrivalsKnown: rowOf.length,
    arrivalsUnknown: unknown,
    resolutionMs: LOG_RESOLUTION_MS,
    thresholdMs: threshold,
    inFlight: { all, tail },
    buckets,
    stages: stageLoads,
    reading,
    readingText: text,
  };
}
