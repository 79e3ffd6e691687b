// The reference for load at arrival (not a test file itself): the straightforward pass
// that answered it before buckets were sorted by counting and count distributions read
// from a histogram (server/core/explain/loadAtArrival.ts), kept as written then. The
// product's answer must equal it exactly.
import type { Distribution } from '../../../server/core/analysis/types';
import { countOf } from '../../../server/core/numberText';
import type { ExplainIndex } from '../../../server/core/explain/explainIndex';
import { LOG_RESOLUTION_MS } from '../../../server/core/explain/logClock';
import { rowsInScope, type RowScope } from '../../../server/core/explain/scope';
import { distributionInPlace, percentileInPlace } from '../../../server/core/explain/select';
import { parseTarget } from '../../../server/core/explain/targets';
import type {
  LoadAtArrival,
  LoadBucket,
  LoadReading,
  StageLoad,
  TailQuantile,
  TargetName,
} from '../../../server/core/explain/types';
import { TAIL_PERCENT } from '../../../server/core/explain/types';

interface LoadQuery {
  readonly target: TargetName;
  readonly quantile: TailQuantile;
  readonly scope: RowScope;
}

/** Tail mean in flight at least this many times the overall mean: the tail arrived into a busier server. */
const BUSIER_RATIO = 1.5;
/** At most this: the same load. Between the two: mixed. */
const SAME_LOAD_RATIO = 1.15;

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

function readingOf(
  all: Distribution | null,
  tail: Distribution | null,
  known: number,
  tailCount: number,
  quantile: TailQuantile,
): { reading: LoadReading; text: string } {
  if (known === 0)
    return {
      reading: 'unknown',
      text: 'No request in scope has a known arrival (no log timestamp or no e2e_total_ms): there is no load at arrival to tell.',
    };
  if (all === null || tail === null || tailCount < 2) {
    const inTail = tailCount === 0 ? `none in the ${quantile} tail` : `${tailCount} in the ${quantile} tail`;
    return {
      reading: 'unknown',
      text: `Only ${countOf(known, 'request')} with a known arrival, ${inTail}: too few to tell whether the tail arrived into a busier server. The table below describes these requests as they are; it is not evidence either way.`,
    };
  }
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

export function loadAtArrivalByPass(index: ExplainIndex, query: LoadQuery): LoadAtArrival | null {
  const target = parseTarget(query.target);
  const column = target === null ? undefined : index.target(target.name);
  if (target === null || column === undefined) return null;
  const rows = rowsInScope(index, query.scope);
  const stages = index.stages();

  // Counts kept by the index as requests arrived (inFlight.ts); -1: arrival unknown.
  const n = rows.length;
  const targetValues = new Float64Array(n);
  column.read(rows, targetValues);
  const inFlight = new Int32Array(n);
  const values = new Float64Array(n);
  const kept = new Int32Array(n);
  let known = 0;
  let unknown = 0;
  for (let k = 0; k < n; k++) {
    const i = rows[k];
    const c = index.inFlight.count(i);
    if (c < 0) {
      unknown++;
      continue;
    }
    inFlight[known] = c;
    values[known] = targetValues[k];
    kept[known] = i;
    known++;
  }

  let measured = 0;
  const scratch = new Float64Array(known);
  for (let k = 0; k < known; k++) if (!Number.isNaN(values[k])) scratch[measured++] = values[k];
  const threshold = measured === 0 ? null : percentileInPlace(scratch, measured, TAIL_PERCENT[query.quantile]);
  const inTail = new Uint8Array(known);
  let tailCount = 0;
  for (let k = 0; k < known; k++) {
    if (threshold !== null && values[k] >= threshold) {
      inTail[k] = 1;
      tailCount++;
    }
  }

  const bucketValues = new Map<number, { values: number[]; count: number; tail: number }>();
  for (let k = 0; k < known; k++) {
    const b = bucketOf(inFlight[k]);
    let entry = bucketValues.get(b);
    if (entry === undefined) bucketValues.set(b, (entry = { values: [], count: 0, tail: 0 }));
    entry.count++;
    if (!Number.isNaN(values[k])) entry.values.push(values[k]);
    if (inTail[k] === 1) entry.tail++;
  }
  const buckets: LoadBucket[] = [...bucketValues.keys()]
    .sort((a, b) => a - b)
    .map((b) => {
      const entry = bucketValues.get(b)!;
      const [lo, hi] = bucketBounds(b);
      return {
        minInFlight: lo,
        maxInFlight: hi,
        count: entry.count,
        tailCount: entry.tail,
        target: dist(entry.values),
      };
    });

  /** Distributions of a count over all known rows and over the tail. */
  const split = (countOf: (k: number) => number): { all: Distribution | null; tail: Distribution | null } => {
    const all = new Float64Array(known);
    const tail = new Float64Array(tailCount);
    let t = 0;
    for (let k = 0; k < known; k++) {
      const c = countOf(k);
      all[k] = c;
      if (inTail[k] === 1) tail[t++] = c;
    }
    return { all: distributionInPlace(all, known), tail: distributionInPlace(tail, t) };
  };
  const overall = split((k) => inFlight[k]);
  const stageLoads: StageLoad[] = stages.map((s) => {
    const counts = index.inFlight.stageCounts(s.stageKey);
    return {
      stageKey: s.stageKey,
      stageId: s.stageId,
      ...split((k) => Math.max(0, counts === null ? 0 : ((counts[kept[k]] as number | undefined) ?? 0))),
    };
  });
  const { reading, text } = readingOf(overall.all, overall.tail, known, tailCount, query.quantile);
  return {
    target: target.name,
    quantile: query.quantile,
    arrivalsKnown: known,
    arrivalsUnknown: unknown,
    resolutionMs: LOG_RESOLUTION_MS,
    thresholdMs: threshold,
    inFlight: overall,
    buckets,
    stages: stageLoads,
    reading,
    readingText: text,
  };
}
