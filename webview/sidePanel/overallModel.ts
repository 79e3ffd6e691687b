// The side panel's table for a session whose log has [Overall Summary] tables and no
// per-request stage table (an older build printed the summary at INFO): the end-to-end and
// per-stage wall times and the tokens/s the summaries print, one value per table, which is
// all such a log has. Same row shape as the phase table, so the same view draws it.
import { maxOf } from '../../server/shared';
import type { OverallSummaries, Percentile } from '../../server/protocol';
import { stageLabel } from '../shared/labels';
import type { ValueView } from '../shared/valueState';
import { EMPTY_VIEW, fewValuesNote } from '../shared/valueState';
import { formatCompact, formatCount, formatDurationMs, formatExact } from '../shared/format';
import type { SummaryCell, SummaryColumn, SummaryModel, SummaryRow } from './summaryModel';

const WALL: SummaryColumn = {
  id: 'wall',
  label: 'wall time',
  unit: 'ms',
  group: 'total',
  help: "From [Overall Summary]: e2e_wall_time_ms on the end-to-end row, e2e_stage_<i>_wall_time_ms on a stage's; a table's values cover its e2e_requests requests together.",
};
const PER_REQUEST: SummaryColumn = {
  id: 'perRequest',
  label: 'mean per request',
  unit: 'ms',
  group: 'total',
  help: "From [Overall Summary]: e2e_avg_time_per_request_ms, the mean over the requests a table covers (shown when one covers several); no request's own time.",
};
const RATE: SummaryColumn = {
  id: 'rate',
  label: 'tokens/s',
  unit: '',
  group: 'token',
  help: 'From [Overall Summary]: e2e_avg_tokens_per_s, over the requests a table covers.',
};

/** `e2e_stage_<i>_wall_time_ms` -> `<i>`; null for any other field. */
function stageOfField(name: string): string | null {
  const prefix = 'e2e_stage_';
  const suffix = '_wall_time_ms';
  if (!name.startsWith(prefix) || !name.endsWith(suffix)) return null;
  const id = name.slice(prefix.length, name.length - suffix.length);
  return /^\d{1,4}$/.test(id) ? id : null;
}

function fieldView(overall: OverallSummaries, field: string, unit: string, pct: Percentile): ValueView {
  const d = overall.fields[field];
  const states = overall.fieldStates[field];
  if (d === undefined || d.count === 0) {
    const why = states === undefined ? 'not printed.' : 'printed without a number (None, text or no row).';
    return { ...EMPTY_VIEW, title: `${field}: ${why}` };
  }
  // One table: its value as printed, no percentile of it.
  const value = d.count === 1 ? d.max : d[pct];
  const few = d.count === 1 ? '' : fewValuesNote(d.count, pct);
  const what =
    d.count === 1
      ? `${field}: ${formatExact(value)} ${unit} as printed by the one table`
      : `${field} ${pct}: ${formatExact(value)} ${unit} over ${d.count} tables`;
  const left =
    d.count < overall.tables
      ? ` ${overall.tables - d.count} of ${overall.tables} tables printed no number for it.`
      : '';
  return {
    // A wall time runs to seconds or minutes: said with its unit, as the headline above says it.
    text: unit === 'ms' ? formatDurationMs(value) : formatCompact(value),
    state: 'measured',
    title: `${what}.${few}${left}`,
    value,
    partial: d.count < overall.tables,
    fewValues: few !== '',
  };
}

export function overallModel(
  overall: OverallSummaries,
  pct: Percentile,
  stageNames: Readonly<Record<string, string>>,
): SummaryModel {
  const wholeCall = (what: string): ValueView => ({
    ...EMPTY_VIEW,
    title: `${what}: printed for the whole call only.`,
  });
  const views: { row: Omit<SummaryRow, 'cells'>; wall: ValueView; perRequest: ValueView; rate: ValueView }[] = [];
  for (const field in overall.fieldStates) {
    const stageKey = stageOfField(field);
    if (stageKey === null) continue;
    const role = stageLabel(stageKey, stageNames);
    views.push({
      row: {
        key: stageKey,
        label: `stage ${stageKey}`,
        role: role.includes(' · ') ? role.slice(role.indexOf(' · ') + 3) : '',
        replica: null,
        requestCount: null,
        stageId: Number(stageKey),
      },
      wall: fieldView(overall, field, 'ms', pct),
      perRequest: wholeCall('mean per request'),
      rate: wholeCall('tokens/s'),
    });
  }
  views.push({
    row: { key: 'e2e', label: 'end to end', role: '', replica: null, requestCount: null, stageId: null },
    wall: fieldView(overall, 'e2e_wall_time_ms', 'ms', pct),
    perRequest: fieldView(overall, 'e2e_avg_time_per_request_ms', 'ms', pct),
    rate: fieldView(overall, 'e2e_avg_tokens_per_s', 'tokens/s', pct),
  });
  const max = maxOf(
    0,
    views.map((v) => v.wall.value ?? 0),
  );
  const cell = (view: ValueView, ratio: number): SummaryCell => ({ ...view, ratio, hot: false });
  const ratio = (v: ValueView): number => (v.value === null || max <= 0 ? 0 : Math.max(0, Math.min(1, v.value / max)));
  const rows = views.map(({ row, wall, perRequest, rate }): SummaryRow => ({
    ...row,
    cells: {
      [WALL.id]: cell(wall, ratio(wall)),
      [PER_REQUEST.id]: cell(perRequest, ratio(perRequest)),
      [RATE.id]: cell(rate, rate.value === null ? 0 : 1),
    },
  }));
  // A table of one request prints its wall time again as the mean: the column would repeat it.
  const several = overall.coveringSeveral > 0;
  return { columns: several ? [WALL, PER_REQUEST, RATE] : [WALL, RATE], rows };
}

/** The table's caption, its heading then the muted note beside it: which tables, and that there is no per-request split. */
export function overallCaption(overall: OverallSummaries): { readonly heading: string; readonly note: string } {
  const n = overall.tables;
  return n === 1
    ? { heading: "From the log's [Overall Summary] table", note: 'as printed, no per-request split' }
    : {
        heading: `From the log's ${formatCount(n)} [Overall Summary] tables`,
        note: 'one value per table, no per-request split',
      };
}
