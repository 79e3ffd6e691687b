// The side panel's table for a session of [OmniTiming] lines only (no stats tables: the
// server ran at INFO, or its stats logger was above DEBUG, or the tables were cut out): each
// stage's time and the end-to-end time, which is all such a log has; for the per-request stats
// of the format before February 2026 (request_level_metrics dicts, or the records of its
// .stats.jsonl files), the same and each request's transfer total and its time per token, as
// the CLI's table. Same row shape as the phase table, so the same view draws it.
import type { Percentile, SummaryResult, TransfersTotalSummary } from '../../server/protocol';
import { FIELD_OMNI_TIMING_STAGE, stageLabel } from '../shared/labels';
import type { ValueView } from '../shared/valueState';
import { formatExact } from '../shared/format';
import { distributionView, summaryFieldView } from '../shared/valueState';
import {
  END_TO_END_SOURCE,
  endToEndRow,
  leftOutOf,
  rowsWithBars,
  timePerTokenRow,
  type RowView,
} from './endToEndModel';
import type { SummaryColumn, SummaryModel } from './summaryModel';

const TIME: SummaryColumn = {
  id: 'time',
  label: 'time',
  unit: 'ms',
  group: 'total',
  help: "Stage time from [OmniTiming] (the stage's stage_gen_time_ms, printed to 10 ms); then the request's end-to-end time.",
};

const LEGACY_TIME: SummaryColumn = {
  ...TIME,
  help: "Stage time (stage_gen_time_ms) and the request's end-to-end time (e2e_time_ms) from the per-request stats of vLLM-Omni before February 2026 (request_level_metrics dicts in the log, or the overall_request records of its .stats.jsonl files), then each request's transfer total (transfers_total_time_ms) and time per token (e2e_tpt or e2e_time_per_token_ms, a 0.0 left out: no output token); that format has no phase split.",
};

const TRANSFERS_LABEL = 'transfers (total per request)';

/** The request's transfer total of the legacy dicts, with its size and what was left out in the hover. */
function transfersView(totals: TransfersTotalSummary, pct: Percentile): ValueView {
  const view = distributionView(totals.timeMs, pct, 'transfers_total_time_ms', 'no request printed it as a time.');
  const notes: string[] = [];
  if (totals.kbytes !== null)
    notes.push(
      `Size (transfers_total_bytes) ${pct}: ${formatExact(totals.kbytes[pct])} KB over ${totals.kbytes.count} requests.`,
    );
  const without = totals.requests - (totals.timeMs?.count ?? 0) - totals.timeNotATime;
  if (without > 0) notes.push(`${without} of ${totals.requests} requests printed no time: left out, not counted as 0.`);
  if (totals.timeNotATime > 0)
    notes.push(
      `${totals.timeNotATime} of ${totals.requests} requests printed one below zero, nan or inf: not a time, left out.`,
    );
  return notes.length === 0 ? view : { ...view, title: `${view.title} ${notes.join(' ')}` };
}

function toMs(view: ValueView): ValueView {
  if (view.value === null) return view;
  const ms = view.value * 1000;
  return {
    ...view,
    value: ms,
    text: ms >= 100 ? Math.round(ms).toLocaleString('en-US') : String(Number(ms.toFixed(1))),
  };
}

/**
 * Whether the side panel shows the table of the per-request stats of the format before February
 * 2026: every request is one of theirs (the legacy-stats-format finding is a warning then) and
 * there is a request or a stage. An orchestrator stats file's requests name no stage; their end to
 * end is still a row, as in the CLI's table.
 */
export function legacyStatsOnly(summary: Pick<SummaryResult, 'requestCount' | 'stages' | 'findings'>): boolean {
  return (
    (summary.requestCount > 0 || summary.stages.length > 0) &&
    summary.findings.some((f) => f.code === 'legacy-stats-format' && f.severity === 'warning')
  );
}

export function timingModel(
  summary: SummaryResult,
  pct: Percentile,
  stageNames: Readonly<Record<string, string>>,
  /** Every request is a request_level_metrics dict's (the format before February 2026). */
  legacy = false,
): SummaryModel {
  const views: RowView[] = [];
  for (const stage of summary.stages) {
    if (stage.replicaId !== null) continue;
    const view =
      stage.fields['stage_gen_time_ms'] !== undefined
        ? summaryFieldView(stage, 'stage_gen_time_ms', 'ms', pct, 'hidden')
        : toMs(summaryFieldView(stage, FIELD_OMNI_TIMING_STAGE, 's', pct, 'hidden'));
    const role = stageLabel(stage.stageKey, stageNames);
    views.push({
      row: {
        key: stage.stageKey,
        label: `stage ${stage.stageKey}`,
        role: role.includes(' · ') ? role.slice(role.indexOf(' · ') + 3) : '',
        replica: null,
        requestCount: stage.requestCount,
        stageId: stage.stageId,
      },
      view,
    });
  }
  views.push(endToEndRow(summary, pct, legacy ? 'end to end (e2e_time_ms)' : END_TO_END_SOURCE));
  const totals = summary.endToEnd?.transfersTotal;
  if (legacy && totals !== undefined)
    views.push({
      row: {
        key: 'transfers',
        label: TRANSFERS_LABEL,
        role: '',
        replica: null,
        requestCount: totals.timeMs?.count ?? 0,
        countTitle: (n) => `${n} requests with a measured transfer total`,
        stageId: null,
      },
      view: transfersView(totals, pct),
    });
  const perToken = timePerTokenRow(summary, pct);
  if (perToken !== null) views.push(perToken);
  const column = legacy ? LEGACY_TIME : TIME;
  return { columns: [column], rows: rowsWithBars(views, column), ...leftOutOf(summary) };
}
