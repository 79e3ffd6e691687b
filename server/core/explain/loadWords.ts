// Load at arrival in the words explain prints and the editor shows: the mean number of other
// requests in flight when a request arrived (the statistic the reading compares, docs/breakdown.md),
// to one decimal, over all requests in scope against the tail; overall and in each stage.
import type { Distribution } from '../analysis/types';
import { stageLabel } from '../stageRoles';
import type { LoadAtArrival } from './types';

export const IN_FLIGHT_LABEL = 'mean in flight at arrival, all / tail';
export const STAGE_LOAD_LABEL = 'mean in each stage at arrival, all / tail';

/** The mean to one decimal; null when no request of the group has a known arrival. */
export function meanInFlight(d: Distribution | null): string | null {
  return d === null ? null : d.mean.toFixed(1);
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

/** `mean in flight at arrival, all / tail: 1.2 / 3.0`; `missing` for a group with no known arrival. */
export function inFlightText(load: LoadAtArrival, missing: string): string {
  return `${IN_FLIGHT_LABEL}: ${meanInFlight(load.inFlight.all) ?? missing} / ${meanInFlight(load.inFlight.tail) ?? missing}`;
}
