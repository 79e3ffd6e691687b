// The reference for load at arrival (not a test file itself): the straightforward pass
// that answered it before buckets were sorted by counting and count distributions read
// from a histogram (server/core/explain/loadAtArrival.ts), kept as written then. The
// product's answer must equal it exactly.
import type { Distribution } from '../../../server/core/analysis/types';
import type { ExplainIndex } from '../../../server/core/explain/explainIndex';
import { LOG_RESOLUTION_MS } from '../../../server/core/explain/logClock';
import { rowsInScope } from '../../../server/core/explain/scope';
import { distributionInPlace, percentileInPlace } from '../../../server/core/explain/select';
import { parseTarget } from '../../../server/core/explain/targets';
import type {
  LoadAtArrival,
  LoadBucket,
  StageLoad,
  TailQuantile,
  TargetName,
  ExplainScope,
} from '../../../server/core/explain/types';
import { TAIL_PERCENT } from '../../../server/core/explain/types';
// The reading's words are the product's: what this reference checks is the buckets and counts.
import { readingOf } from '../../../server/core/explain/loadAtArrival';

interface LoadQuery {
  readonly target: TargetName;
  readonly quantile: TailQuantile;
  readonly scope: ExplainScope;
}

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
