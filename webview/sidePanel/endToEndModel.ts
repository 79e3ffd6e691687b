// The side panel's end-to-end rows, as the CLI's "End to end per request" table has them: each
// request's end to end and, where the log prints one, its time per token (e2e_tpt or
// e2e_time_per_token_ms), a 0.0 (no output token) said under the table, never a 0 ms. The
// [OmniTiming] and legacy-dicts tables (timingModel.ts) end with these rows; a log with stage
// tables shows them as their own table under the phase table, which has no end-to-end row. A log
// that merges several servers' adds each server's end to end under them, over that server's own
// requests (as analyze's "End to end per server"), so that a slow pod shows.
import { maxOf, TIME_PER_TOKEN_LABEL, TIME_PER_TOKEN_SOURCE, timePerTokenLeftOut } from '../../server/shared';
import type { Percentile, SummaryResult, TimePerTokenSummary } from '../../server/protocol';
import type { ValueView } from '../shared/valueState';
import { distributionView, STATE_TEXT } from '../shared/valueState';
import type { SummaryCell, SummaryColumn, SummaryModel, SummaryRow } from './summaryModel';

/** A row before its bar: what it is and its value. */
export interface RowView {
  readonly row: Omit<SummaryRow, 'cells'>;
  readonly view: ValueView;
  /** Not a duration of the request like the rows around it: no bar, and not in the others' scale. */
  readonly barless?: boolean;
}

/** Where a log with stage tables or [OmniTiming] lines has its end to end, for the hover. */
export const END_TO_END_SOURCE = 'end to end (e2e_total_ms, or [OmniTiming] total)';

/** The request's end to end; `source` names the fields it is read from, for the hover. */
export function endToEndRow(summary: SummaryResult, pct: Percentile, source: string): RowView {
  const e2e = summary.endToEnd;
  return {
    row: {
      key: 'e2e',
      label: 'end to end',
      role: '',
      replica: null,
      requestCount: e2e?.ms.count ?? null,
      countTitle: (n) => `${n} requests with a measured end-to-end time`,
      stageId: null,
    },
    view: distributionView(e2e?.ms ?? null, pct, source, 'no request printed its end-to-end time yet.'),
  };
}

/**
 * The request's time per token as the dicts print it, over measured values: a 0.0 (no output
 * token) is left out and said, so a row of only such is "not recorded", never 0 ms.
 */
function timePerTokenView(perToken: TimePerTokenSummary, pct: Percentile): ValueView {
  const leftOut = timePerTokenLeftOut(perToken);
  const what = `${TIME_PER_TOKEN_LABEL} (${TIME_PER_TOKEN_SOURCE})`;
  if (perToken.ms === null)
    return { text: STATE_TEXT.notRecorded, state: 'notRecorded', title: `${what}: ${leftOut.join(' ')}`, value: null };
  const view = distributionView(perToken.ms, pct, what, '');
  return leftOut.length === 0 ? view : { ...view, title: `${view.title} ${leftOut.join(' ')}`, partial: true };
}

/** The time per token row; null when the log prints none. */
export function timePerTokenRow(summary: SummaryResult, pct: Percentile): RowView | null {
  const perToken = summary.endToEnd?.timePerToken;
  if (perToken === undefined) return null;
  return {
    row: {
      key: 'timePerToken',
      label: TIME_PER_TOKEN_LABEL,
      role: '',
      replica: null,
      requestCount: perToken.ms?.count ?? 0,
      countTitle: (n) => `${n} requests with a measured time per token`,
      stageId: null,
    },
    view: timePerTokenView(perToken, pct),
    barless: true,
  };
}

/**
 * The rows of a one-column table, each bar a share of the largest duration; a time per token
 * (milliseconds of another kind) has no bar.
 */
export function rowsWithBars(views: readonly RowView[], column: SummaryColumn): SummaryRow[] {
  const max = maxOf(
    0,
    views.map((v) => (v.barless === true ? 0 : (v.view.value ?? 0))),
  );
  return views.map(({ row, view, barless }): SummaryRow => {
    const cell: SummaryCell = {
      ...view,
      ratio: barless === true || view.value === null || max <= 0 ? 0 : Math.max(0, Math.min(1, view.value / max)),
      hot: false,
      ...(barless === true ? { barless } : {}),
    };
    return { ...row, cells: { [column.id]: cell } };
  });
}

/** The printed times per token left out of the percentiles, in the CLI's words; absent when none was. */
export function leftOutOf(summary: SummaryResult): Pick<SummaryModel, 'leftOut'> {
  const leftOut = timePerTokenLeftOut(summary.endToEnd?.timePerToken);
  return leftOut.length === 0 ? {} : { leftOut };
}

const END_TO_END_HELP = "Each request's end-to-end time (e2e_total_ms of RequestE2EStats, or the [OmniTiming] total)";

function endToEndColumn(withTimePerToken: boolean): SummaryColumn {
  const perToken = `, then its ${TIME_PER_TOKEN_LABEL} (${TIME_PER_TOKEN_SOURCE}; a 0.0 left out: no output token)`;
  return {
    id: 'time',
    label: 'time',
    unit: 'ms',
    group: 'total',
    help: `${END_TO_END_HELP}${withTimePerToken ? perToken : ''}.`,
  };
}

/** Each server's end to end, in a log that merges two servers' or more; none otherwise. */
function serverRows(summary: SummaryResult, pct: Percentile): RowView[] {
  const servers = summary.servers ?? [];
  if (servers.length < 2) return [];
  return servers.map((s) => ({
    row: {
      key: `server:${s.server}`,
      label: s.server,
      role: 'server',
      replica: null,
      requestCount: s.e2eMs?.count ?? 0,
      countTitle: (n) => `${n} of this server's ${s.requests} requests with a measured end-to-end time`,
      stageId: null,
    },
    view: distributionView(
      s.e2eMs,
      pct,
      `end to end of the requests of server ${s.server} (its lines' tag in the merged log)`,
      'none of its requests printed an end-to-end time yet.',
    ),
  }));
}

/**
 * The end-to-end table beside a phase table: end to end and, where the log prints one, time per
 * token, as the CLI prints them, then each server's end to end in a merged log; null for a log
 * that prints neither (no end-to-end table then, as in the CLI).
 */
export function endToEndModel(summary: SummaryResult, pct: Percentile): SummaryModel | null {
  const perToken = timePerTokenRow(summary, pct);
  if (perToken === null && (summary.endToEnd?.ms.count ?? 0) === 0) return null;
  const views = [
    endToEndRow(summary, pct, END_TO_END_SOURCE),
    ...(perToken === null ? [] : [perToken]),
    ...serverRows(summary, pct),
  ];
  const column = endToEndColumn(perToken !== null);
  return { columns: [column], rows: rowsWithBars(views, column), ...leftOutOf(summary) };
}
