// The request schedule of a run, known without running it: the runner and anyone who
// wants to check a run (the live benchmark, tests) build the timing model the same
// way, so "which requests a run prints, and at what simulated time" is a function of
// the options alone. The runner prints a request when the simulated clock reaches its
// statsLoggedTs, however late or coalesced its timer ticks are.
import type { SimulateOptions } from './options';
import type { Micros } from './timeline';
import { TimingModel } from './timingModel';

/** Requests start arriving half a second after the server is up. */
export const FIRST_ARRIVAL_US = 500_000;

export type ScheduleOptions = Pick<SimulateOptions, 'topology' | 'seed' | 'rps' | 'coldStartMs'>;

export function runTimingModel(o: ScheduleOptions): TimingModel {
  return new TimingModel(o.topology, {
    seed: o.seed,
    rps: o.rps,
    coldStartMs: o.coldStartMs,
    firstArrivalUs: FIRST_ARRIVAL_US,
  });
}

export interface StatsSchedule {
  /** Requests that arrive by `untilUs` (uvicorn access lines printed). */
  readonly arrivals: number;
  /** Simulated times at which the stats of each request finished by `untilUs` are printed, in print order. */
  readonly printAt: readonly Micros[];
}

/** What a run with these options prints during its first `untilUs` of simulated time. */
export function statsSchedule(o: ScheduleOptions, untilUs: Micros): StatsSchedule {
  const model = runTimingModel(o);
  const printAt: Micros[] = [];
  let arrivals = 0;
  while (model.peekArrival() <= untilUs) {
    const r = model.next();
    arrivals++;
    if (r.statsLoggedTs <= untilUs) printAt.push(r.statsLoggedTs);
  }
  // The runner merges events by (time, generation order): a stable sort by time.
  printAt.sort((a, b) => a - b);
  return { arrivals, printAt };
}
