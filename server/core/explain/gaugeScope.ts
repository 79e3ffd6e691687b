// The engines' gauges (running, waiting, KV cache usage) of the scope a query is over: a boot's
// are the samples taken while it ran, a window's the samples within it, a merged log's server's
// the samples of its own engines. Cold requests are
// requests, not time: leaving them out does not cut the engines' load.
import type { GaugeSamples } from './types';
import type { ExplainScope } from './types';

/** Whether a scope cuts the gauges (a boot, a server, or a window): cold left out alone does not. */
export function scopeCutsGauges(scope: ExplainScope): boolean {
  return (
    scope.boot !== undefined || scope.server !== undefined || scope.fromMs !== undefined || scope.toMs !== undefined
  );
}

/** The part of a scope the gauges are cut to (its boot, server and window); null when it cuts none. */
export function gaugeScopeOf(scope: ExplainScope): Omit<ExplainScope, 'excludeCold'> | null {
  if (!scopeCutsGauges(scope)) return null;
  return {
    ...(scope.boot === undefined ? {} : { boot: scope.boot }),
    ...(scope.server === undefined ? {} : { server: scope.server }),
    ...(scope.fromMs === undefined ? {} : { fromMs: scope.fromMs }),
    ...(scope.toMs === undefined ? {} : { toMs: scope.toMs }),
  };
}

/**
 * The boot of each sample taken at `times` (log clock), from where each boot started
 * (`bootStarts[n - 1]`: boot n's marker; boot 0 before the first): for samples that do not come
 * from the log's lines (scrapes), whose boot only their time tells. Null when a boot's start is
 * not known (a marker without a timestamp): their boot is then not known either.
 */
export function bootsByTime(times: ArrayLike<number>, bootStarts: readonly number[]): Int32Array | null {
  if (bootStarts.some((t) => !Number.isFinite(t))) return null;
  const out = new Int32Array(times.length);
  let boot = 0;
  for (let i = 0; i < times.length; i++) {
    const t = times[i];
    // Samples are in time order; a step back (a NaN time) starts the search again.
    if (boot > 0 && !(t >= bootStarts[boot - 1])) boot = 0;
    while (boot < bootStarts.length && t >= bootStarts[boot]) boot++;
    out[i] = boot;
  }
  return out;
}

/** A gauge's samples within the scope's boot, server and window (the same object when the scope cuts none). */
export function gaugeInScope(g: GaugeSamples, scope: ExplainScope): GaugeSamples {
  if (!scopeCutsGauges(scope)) return g;
  // Another server's engine (or one of no server's tag) has no sample of this server's.
  const otherServer = scope.server !== undefined && g.server !== scope.server;
  const from = scope.fromMs ?? Number.NEGATIVE_INFINITY;
  const to = scope.toMs ?? Number.POSITIVE_INFINITY;
  const boots = g.boots;
  const kept: number[] = [];
  for (let i = 0; i < (otherServer ? 0 : g.times.length); i++) {
    const t = g.times[i];
    if (scope.boot !== undefined && (boots === undefined || boots[i] !== scope.boot)) continue;
    if ((scope.fromMs !== undefined || scope.toMs !== undefined) && !(t >= from && t <= to)) continue;
    kept.push(i);
  }
  const pick = (xs: ArrayLike<number>): number[] => kept.map((i) => xs[i]);
  return {
    ...g,
    times: pick(g.times),
    ...(boots === undefined ? {} : { boots: pick(boots) }),
    running: pick(g.running),
    waiting: pick(g.waiting),
    kvCacheUsagePerc: pick(g.kvCacheUsagePerc),
  };
}
