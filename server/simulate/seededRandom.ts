// The simulator's seeded PRNG (mulberry32). All randomness of a run flows from one seed and
// is drawn while requests are generated in arrival order, so the same seed always
// yields the same requests whatever the wall clock does. compare's bootstrap has its own
// (server/core/compare/bootstrapRandom.ts): the simulator imports nothing of the product.

/** mulberry32: uniform draws in [0, 1) from a 32-bit seed. Shared by the simulator, the benchmark log and the tests. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class Random {
  /** Uniform in [0, 1). */
  readonly next: () => number;

  constructor(seed: number) {
    this.next = mulberry32((Math.trunc(seed) ^ 0x9e3779b9) >>> 0);
  }

  uniform(lo: number, hi: number): number {
    return lo + (hi - lo) * this.next();
  }

  /** Integer in [lo, hi] inclusive. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  /** Exponential with the given mean (Poisson inter-arrival times). */
  exponential(mean: number): number {
    return -Math.log(1 - this.next()) * mean;
  }

  /** Multiplicative jitter around 1: a value in [1 - spread, 1 + spread]. */
  jitter(spread: number): number {
    return 1 + spread * (2 * this.next() - 1);
  }

  hex(length: number): string {
    let s = '';
    while (s.length < length) s += this.int(0, 15).toString(16);
    return s;
  }
}
