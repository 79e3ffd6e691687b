// Whether some work grows linearly with its input, measured so that it holds on a shared,
// noisy machine: the size is chosen so that one run takes a few milliseconds of CPU (so a
// pattern that is cubic is measured at a few hundred bytes, not left to run for minutes),
// each size is timed several times interleaved and the fastest run kept (noise only adds
// time), and the test is the growth ratio from n to 4n: ~4 when linear, ~16 when
// quadratic, ~64 when cubic. A ratio over the bound is measured again before it counts.
import assert from 'node:assert/strict';

export interface Growth {
  readonly n: number;
  readonly smallMs: number;
  readonly largeMs: number;
  readonly ratio: number;
}

/** CPU milliseconds of one run (this thread's process; other threads are idle here). */
function cpuMs(run: () => void): number {
  const start = process.cpuUsage();
  run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

function fastest<T>(input: T, run: (input: T) => void, times: number): number {
  let best = Infinity;
  for (let i = 0; i < times; i++)
    best = Math.min(
      best,
      cpuMs(() => run(input)),
    );
  return best;
}

export interface GrowthOptions {
  /** First size tried. */
  readonly start?: number;
  /** The size is doubled until one run takes this long (and halved while it takes 4x it). */
  readonly targetMs?: number;
  /** Largest size tried; an input that is still fast at this size counts as linear. */
  readonly maxN?: number;
  readonly minN?: number;
}

/** The growth from n to 4n of `run` on `make(n)`, with n chosen as described above. */
export function measureGrowth<T>(make: (n: number) => T, run: (input: T) => void, options: GrowthOptions = {}): Growth {
  const targetMs = options.targetMs ?? 4;
  const maxN = options.maxN ?? 4_000_000;
  const minN = options.minN ?? 16;
  let n = options.start ?? 256;
  let input = make(n);
  let ms = fastest(input, run, 2);
  while (ms < targetMs && n * 2 <= maxN) {
    n *= 2;
    input = make(n);
    ms = fastest(input, run, 2);
  }
  while (ms > targetMs * 4 && n / 2 >= minN) {
    n = Math.floor(n / 2);
    input = make(n);
    ms = fastest(input, run, 2);
  }
  const large = make(n * 4);
  let smallMs = Infinity;
  let largeMs = Infinity;
  for (let i = 0; i < 3; i++) {
    smallMs = Math.min(smallMs, fastest(input, run, 1));
    largeMs = Math.min(largeMs, fastest(large, run, 1));
  }
  // The size was chosen on a spike (the process's CPU time counts its collector's and compiler's
  // threads too): measured at its fastest the run is far under the target, too short to time.
  if (smallMs < targetMs / 4 && n * 8 <= maxN) return measureGrowth(make, run, { ...options, start: n * 2 });
  return { n, smallMs, largeMs, ratio: largeMs / Math.max(smallMs, 0.001) };
}

/**
 * Asserts linear growth: the n → 4n ratio below `bound` (linear ~4, quadratic ~16) in
 * one of five measurements (a collection or another process on the cores can land in one).
 * Runs faster than `floorMs` even at 4n are too short to time and count as linear (that
 * takes inputs of megabytes: maxN).
 */
export function assertLinear<T>(
  what: string,
  make: (n: number) => T,
  run: (input: T) => void,
  options: GrowthOptions & { readonly bound?: number; readonly floorMs?: number } = {},
): Growth {
  const bound = options.bound ?? 9;
  const floorMs = options.floorMs ?? 1;
  let growth = measureGrowth(make, run, options);
  for (let attempt = 1; attempt < 5 && growth.ratio >= bound && growth.largeMs >= floorMs; attempt++)
    growth = measureGrowth(make, run, { ...options, start: growth.n });
  assert.ok(
    growth.ratio < bound || growth.largeMs < floorMs,
    `${what}: not linear: ${growth.smallMs.toFixed(2)} ms at n=${growth.n}, ${growth.largeMs.toFixed(2)} ms at 4n (x${growth.ratio.toFixed(1)}; linear is ~4)`,
  );
  return growth;
}
