// Seeded random draws for the bootstrap: the same inputs and seed give the same CI on
// every machine. mulberry32 for uniforms, Box-Muller for normals, Marsaglia-Tsang for
// gamma (shape >= 1 is all the bootstrap needs) and beta as a ratio of gammas.
// The simulator's generator (server/simulate/seededRandom.ts) runs the same mulberry32 step but
// maps it to [0, 1) and draws other shapes; the two stay apart because server/simulate imports
// nothing of the product and server/core nothing outside itself (test/unit/layering.test.ts).

export interface BootstrapRandom {
  /** Uniform in (0, 1): never exactly 0, so logs and powers stay finite. */
  uniform(): number;
  normal(): number;
  /** Gamma(shape, 1) for shape >= 1. */
  gamma(shape: number): number;
  /** Beta(a, b) for a, b >= 1. */
  beta(a: number, b: number): number;
}

/** FNV-1a of a string: derives a stream's seed from its name, so a result does not depend on what else was compared. */
export function hashSeed(seed: number, name: string): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export function bootstrapRandom(seed: number): BootstrapRandom {
  let state = seed >>> 0;
  let spare: number | null = null;
  const uniform = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) + 0.5) / 4294967296;
  };
  const normal = (): number => {
    if (spare !== null) {
      const s = spare;
      spare = null;
      return s;
    }
    const r = Math.sqrt(-2 * Math.log(uniform()));
    const theta = 2 * Math.PI * uniform();
    spare = r * Math.sin(theta);
    return r * Math.cos(theta);
  };
  const gamma = (shape: number): number => {
    const d = shape - 1 / 3;
    const c = 1 / Math.sqrt(9 * d);
    for (;;) {
      const x = normal();
      const v0 = 1 + c * x;
      if (v0 <= 0) continue;
      const v = v0 * v0 * v0;
      const u = uniform();
      if (u < 1 - 0.0331 * x * x * x * x) return d * v;
      if (Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
    }
  };
  const beta = (a: number, b: number): number => {
    const x = gamma(a);
    return x / (x + gamma(b));
  };
  return { uniform, normal, gamma, beta };
}
