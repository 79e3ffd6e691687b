// A p99 from 6 values is the largest value, or an interpolation towards it: printed beside
// percentiles from thousands of values it reads as a tail estimate. The tables say which
// rows (and columns) have fewer values than their p90 / p99 need, by compare's rule.
import { valuesAbovePercentile } from '../reportedPercentiles';

export interface CountedColumn {
  readonly column: string;
  /** Values the column's percentiles are computed from (0: none shown). */
  readonly count: number;
}

export interface CountedRow {
  readonly label: string;
  readonly columns: readonly CountedColumn[];
}

const P90_NEEDS = valuesAbovePercentile('p90');
const P99_NEEDS = valuesAbovePercentile('p99');

function affected(count: number): string {
  return count < P90_NEEDS ? 'p90 and p99' : 'p99';
}

/** One clause per row that has a column with too few values; [] when every percentile has enough. */
function rowClause(row: CountedRow): string | null {
  const shown = row.columns.filter((c) => c.count > 0);
  const few = shown.filter((c) => c.count < P99_NEEDS);
  if (few.length === 0) return null;
  const first = few[0] as CountedColumn;
  if (few.length === shown.length && few.every((c) => c.count === first.count))
    return `${row.label} (n = ${first.count}): ${affected(first.count)}`;
  // Columns of the same count said together: "input wait, ready queued (n = 3): p90 and p99".
  const byCount = new Map<number, string[]>();
  for (const c of few) byCount.set(c.count, [...(byCount.get(c.count) ?? []), c.column]);
  const parts = [...byCount].map(([count, columns]) => `${columns.join(', ')} (n = ${count}): ${affected(count)}`);
  return `${row.label} ${parts.join(', ')}`;
}

/** The note under a table of p50/p90/p99 rows, or [] when no row needs it. */
export function fewValuesLines(rows: readonly CountedRow[]): string[] {
  const clauses = rows.map(rowClause).filter((c): c is string => c !== null);
  if (clauses.length === 0) return [];
  return [
    `Few values: a p99 from fewer than ${P99_NEEDS} values (a p90 from fewer than ${P90_NEEDS}) is the largest value or an interpolation towards it, not a tail estimate:`,
    ...clauses.map((c) => `  ${c}`),
  ];
}
