// Load at arrival in the words explain prints and the editor shows: the mean number of other
// requests in flight when a request arrived (the statistic the reading compares, docs/breakdown.md),
// to one decimal, over all requests in scope against the tail; overall and in each stage. Where
// the reading calls the tail's load higher or lower, the two means it compares get the decimals
// it takes for them not to read equal.
import type { Distribution } from '../analysis/types';
import { stageLabel } from '../stageRoles';
import type { LoadAtArrival, LoadReading } from './types';

export const IN_FLIGHT_LABEL = 'mean in flight at arrival, all / tail';
export const STAGE_LOAD_LABEL = 'mean in each stage at arrival, all / tail';

/** The mean to one decimal; null when no request of the group has a known arrival. */
export function meanInFlight(d: Distribution | null): string | null {
  return d === null ? null : d.mean.toFixed(1);
}

/** Readings that call the tail's load higher or lower than that of all requests. */
const COMPARING: ReadonlySet<LoadReading> = new Set<LoadReading>(['busier', 'lower', 'mixed']);
/** Most decimals a mean gets; two means a reading tells apart differ by more than 13%, so far fewer are needed. */
const MOST_DECIMALS = 6;

/** Two means to one decimal, or to as many more as it takes for them not to read equal (0.28 and 0.33, not 0.3 and 0.3). */
function meansApart(a: number, b: number): [string, string] {
  let decimals = 1;
  while (decimals < MOST_DECIMALS && a !== b && a.toFixed(decimals) === b.toFixed(decimals)) decimals++;
  return [a.toFixed(decimals), b.toFixed(decimals)];
}

/** The mean of all requests and of the tail as the reading gives them: apart where it calls one higher or lower. */
export function comparedMeans(reading: LoadReading, all: number, tail: number): [string, string] {
  return COMPARING.has(reading) ? meansApart(all, tail) : [all.toFixed(1), tail.toFixed(1)];
}

export interface StageLoadCells {
  readonly stageKey: string;
  /** `stage 1 · code2wav`. */
  readonly stage: string;
  readonly all: string | null;
  readonly tail: string | null;
}

export function stageLoadCells(load: LoadAtArrival, roles: Readonly<Record<string, string>>): StageLoadCells[] {
  return load.stages.map((s) => ({
    stageKey: s.stageKey,
    stage: stageLabel(s.stageKey, roles),
    all: meanInFlight(s.all),
    tail: meanInFlight(s.tail),
  }));
}

/** `mean in flight at arrival, all / tail: 1.2 / 3.0` (the figures the reading gives); `missing` for a group with no known arrival. */
export function inFlightText(load: LoadAtArrival, missing: string): string {
  const { all, tail } = load.inFlight;
  const [a, t] =
    all !== null && tail !== null
      ? comparedMeans(load.reading, all.mean, tail.mean)
      : [meanInFlight(all) ?? missing, meanInFlight(tail) ?? missing];
  return `${IN_FLIGHT_LABEL}: ${a} / ${t}`;
}
