// Which requests of the index a query is over: a time window on the log clock (by finish
// time), cold requests left out or kept, one server boot, one server of a merged log. Every "why" query takes the
// same scope, so the table, the histograms and the tail agree on their requests.
import type { ExplainIndex } from './explainIndex';
import type { ExplainScope } from './types';

/** Whether a scope leaves any request out (an empty scope is every request). */
export function scopeCutsRows(scope: ExplainScope | undefined): scope is ExplainScope {
  return (
    scope !== undefined &&
    (scope.fromMs !== undefined ||
      scope.toMs !== undefined ||
      scope.excludeCold === true ||
      scope.boot !== undefined ||
      scope.server !== undefined)
  );
}

/** Row indices in scope, in index order (from row `first` on); written into `into` when given (room for every row from `first`). */
export function rowsInScope(
  index: ExplainIndex,
  scope: ExplainScope,
  first = 0,
  into: Int32Array = new Int32Array(Math.max(0, index.length - first)),
): Int32Array {
  const n = index.length;
  const out = into;
  let k = 0;
  const from = scope.fromMs ?? Number.NEGATIVE_INFINITY;
  const to = scope.toMs ?? Number.POSITIVE_INFINITY;
  const windowed = scope.fromMs !== undefined || scope.toMs !== undefined;
  const excludeCold = scope.excludeCold === true;
  const boot = scope.boot;
  const oneServer = scope.server !== undefined;
  const server = oneServer ? index.serverOrdinalOf(scope.server) : -1;
  if (!excludeCold && boot === undefined && !windowed && !oneServer) return allRows(first, n, out);
  for (let i = first; i < n; i++) {
    if (excludeCold && index.isCold(i) === 1) continue;
    if (boot !== undefined && index.boot(i) !== boot) continue;
    if (oneServer && index.serverOrdinal(i) !== server) continue;
    if (windowed) {
      // A request without a time is outside every window.
      const t = index.finishMs(i);
      if (!(t >= from && t <= to)) continue;
    }
    out[k++] = i;
  }
  return out.subarray(0, k);
}

/** Names the requests in scope at the index's current length: equal keys, equal rows (rows are only appended). */
export function scopeKey(index: ExplainIndex, scope: ExplainScope): string {
  return `${index.length}|${scope.fromMs}|${scope.toMs}|${scope.boot}|${scope.excludeCold === true}|${JSON.stringify(scope.server ?? null)}`;
}

/** Boots that have requests in the scope, ascending. */
export function bootsInScope(index: ExplainIndex, scope: ExplainScope): number[] {
  const boots = new Set<number>();
  for (const i of rowsInScope(index, scope)) boots.add(index.boot(i));
  return [...boots].sort((a, b) => a - b);
}

/** Rows first..n-1 (every row is in an unrestricted scope), in a loop of its own (select.ts says why). */
function allRows(first: number, n: number, into: Int32Array): Int32Array {
  let k = 0;
  for (let i = first; i < n; i++) into[k++] = i;
  return into.subarray(0, k);
}
