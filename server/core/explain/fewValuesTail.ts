// The caveat of a tail taken from too few values, in the words explain, the Tail tab and the
// side panel share: such a "p99" is the largest value (or an interpolation towards it), so the
// tail is simply the slowest requests.
import type { TailAttribution } from './types';

/** Why this tail is no tail estimate; null when the scope has enough values for its quantile. */
export function fewValuesTailText(t: TailAttribution): string | null {
  if (t.fewValues === undefined) return null;
  const slowest = t.requestCount === 1 ? 'request' : `${t.requestCount} requests`;
  return `few values: a ${t.quantile} from ${t.scopeCount} values (fewer than ${t.fewValues.needed}) is the largest value or an interpolation towards it, not a tail estimate: the tail is the slowest ${slowest}`;
}
