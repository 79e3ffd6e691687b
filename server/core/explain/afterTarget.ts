// Why a part's median contribution to a first-output target is 0. A contribution of 0 is
// either a part that took 0 ms (a measurement) or a part that took time wholly after the
// target's instant (nothing of it counts): the same number, two facts. The views must not
// show the second as "0 ms", so each population counts both, warm and cold apart (a live
// session answers with or without its cold requests from the same counts).

/** Counts over the requests that measured a part. */
export class ZeroContributions {
  /** Took time, all of it after the target's instant. */
  private afterWarm = 0;
  private afterCold = 0;
  /** Took 0 ms. */
  private zeroWarm = 0;
  private zeroCold = 0;

  /**
   * Adds one batch: `ms` the parts' own times, `contributions` their times before the target
   * (NaN: not measured, not counted); `cold[k]` 1 for a cold request (all warm when absent).
   */
  add(ms: Float64Array, contributions: Float64Array, n: number, cold?: Uint8Array): void {
    for (let k = 0; k < n; k++) {
      if (contributions[k] !== 0) continue;
      const isCold = cold !== undefined && cold[k] === 1;
      if (ms[k] > 0) {
        if (isCold) this.afterCold++;
        else this.afterWarm++;
      } else if (isCold) this.zeroCold++;
      else this.zeroWarm++;
    }
  }

  /**
   * With a median contribution of 0 over `measured` requests: in how many of them the part lay
   * wholly after the target, when that (not a 0 ms part) is what most of the zeros are; else null.
   */
  afterTarget(median: number, measured: number, excludeCold: boolean): { requests: number; of: number } | null {
    if (median !== 0) return null;
    const after = this.afterWarm + (excludeCold ? 0 : this.afterCold);
    const zero = this.zeroWarm + (excludeCold ? 0 : this.zeroCold);
    return after > 0 && after >= zero ? { requests: after, of: measured } : null;
  }
}
