// Log timestamps: vLLM prints `MM-DD HH:MM:SS` (no year, no milliseconds) in local
// time. With --fixed-clock the simulator stamps a fixed UTC epoch plus simulated time,
// so golden runs are byte-identical.
import type { Micros } from './timeline';

export interface LogClock {
  stamp(simUs: Micros): string;
  /** Seconds since the Unix epoch, for `created` fields. */
  epochSeconds(simUs: Micros): number;
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** 2026-08-21 18:00:00 UTC. */
export const FIXED_EPOCH_MS = Date.UTC(2026, 7, 21, 18, 0, 0);

export function fixedClock(): LogClock {
  return {
    stamp(simUs) {
      const d = new Date(FIXED_EPOCH_MS + Math.floor(simUs / 1000));
      return `${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
    },
    epochSeconds: (simUs) => Math.floor((FIXED_EPOCH_MS + simUs / 1000) / 1000),
  };
}

/**
 * The wall clock at the run's start, then simulated time: with --speed x a real server's log
 * would have stamped x times more time than passed, so a sped-up log's timestamps agree with
 * its durations (a reader places requests by them). Anchored at the first stamp, where
 * simulated time `simUs` is wall time x speed since the run started.
 */
export function wallClock(speed = 1): LogClock {
  let anchorMs: number | null = null;
  const at = (simUs: Micros): Date => {
    anchorMs ??= Date.now() - simUs / 1000 / speed;
    return new Date(anchorMs + simUs / 1000);
  };
  return {
    stamp(simUs) {
      const d = at(simUs);
      return `${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
    },
    epochSeconds: (simUs) => Math.floor(at(simUs).getTime() / 1000),
  };
}
