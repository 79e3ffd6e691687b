// The [Overall Summary] tables of a log in `analyze --format table`, for a log without the
// per-request stage tables: each field as printed, one value per table. One table: its values
// as the log prints them; several: n, p50/p90/p99 and max over the tables, with the few-values
// note. Rows keep the log's field names (the JSON's keys), so a reader finds them in the log.
import { overallCutOffSentence } from '../analysis/overallSummaries';
import type { OverallSummaries } from '../analysis/types';
import { groupedNumber } from '../numberText';
import { textTable, withVisibleControls } from '../textTable';
import { toLogPrecision } from '../values';
import { fewValuesLines } from './fewValues';

/**
 * A value as the log prints it: times and rates (`_ms`, `_per_s`) with 3 decimals, counts
 * (`e2e_requests`, `e2e_total_tokens`) without; a percentile between two counts to 3 at most.
 */
export function asPrinted(name: string, v: number): string {
  const decimals = name.endsWith('_ms') || name.endsWith('_s') ? 3 : 0;
  return groupedNumber(toLogPrecision(v), decimals, 3);
}

/**
 * The units of the rows shown, for the heading: `_ms` fields, `_s` fields (seconds) and
 * `…tokens_per_s` fields by name; counts have none. A table cut before a kind's rows names no unit of it.
 */
export function overallUnitNote(names: Iterable<string>): string {
  let ms = false;
  let seconds = false;
  const rates: string[] = [];
  for (const name of names) {
    if (name.endsWith('_ms')) ms = true;
    else if (name.endsWith('tokens_per_s')) rates.push(`${withVisibleControls(name)} in tokens/s`);
    else if (name.endsWith('_s') && !name.endsWith('_per_s')) seconds = true;
  }
  const parts = [...(ms ? ['_ms fields in ms'] : []), ...(seconds ? ['_s fields in s'] : []), ...rates];
  return parts.length === 0 ? '' : ` (${parts.join(', ')})`;
}

export function overallSummaryLines(overall: OverallSummaries): string[] {
  const n = overall.tables;
  const one = n === 1;
  const units = overallUnitNote(Object.keys(overall.fieldStates));
  const title = one
    ? `From the [Overall Summary] table, as printed${units}`
    : `From ${n} [Overall Summary] tables, one value per table${units}`;
  const rows: string[][] = [];
  const notes: string[] = [];
  for (const name in overall.fieldStates) {
    const label = withVisibleControls(name);
    const d = overall.fields[name];
    const states = overall.fieldStates[name];
    if (one) rows.push([label, d === undefined ? '-' : asPrinted(name, d.max)]);
    else if (d === undefined) rows.push([label, '0', '-', '-', '-', '-']);
    else
      rows.push([
        label,
        String(d.count),
        asPrinted(name, d.p50),
        asPrinted(name, d.p90),
        asPrinted(name, d.p99),
        asPrinted(name, d.max),
      ]);
    const parts: string[] = [];
    if (states.notMeasured > 0) parts.push(`${states.notMeasured} not measured (None)`);
    if (states.text > 0) parts.push(`${states.text} not a number (text or blank)`);
    if (states.hidden > 0) parts.push(`${states.hidden} without the row (zero or not measured)`);
    if (parts.length > 0) notes.push(`  ${label}: ${parts.join(', ')} of ${n}`);
  }
  const out = [
    title,
    ...(one ? textTable(['field', 'value'], rows) : textTable(['field', 'n', 'p50', 'p90', 'p99', 'max'], rows)),
  ];
  if (!one) {
    const few = fewValuesLines(
      rows.map((r) => ({ label: r[0] as string, columns: [{ column: '', count: Number(r[1]) }] })),
    );
    if (few.length > 0) out.push('', ...few);
  }
  if (notes.length > 0) out.push('', `Tables without a number for a field (left out of its values):`, ...notes);
  if (overall.cutOffTables > 0) out.push('', overallCutOffSentence(overall.cutOffTables, n, 'see Input problems'));
  if (overall.cellsLeftOut > 0)
    out.push('', `${overall.cellsLeftOut} cells of further field names were counted, not summarized.`);
  return out;
}
