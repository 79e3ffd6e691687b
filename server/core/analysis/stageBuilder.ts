// A request's stages from what the log printed: the columns of its stage table (with the
// phase split of each), or, when the stage table is missing, the stage times of its
// [OmniTiming] line. Used when a request is assembled and when a stored one is read back.
import { mapPacked } from '../arrays';
import type { OmniTimingRecord, StageColumn, UnreadRows } from '../records';
import type { Cell, FieldMap } from '../values';
import { measured } from '../values';
import { inUnreadRows, notMeasuredSplit, phaseSplitOf } from './phaseSplit';
import { stageKindOf } from './stageKind';
import { segmentStageKey, timingSegments } from './timingSegments';
import type { AnalyzedRequest, RequestStage } from './types';

/**
 * `cut`: the table was cut off (rows after the last one read are unknown); `unreadRows`, when a
 * line of it was lost, every range of rows it did not read (records.ts).
 */
export function stagesFromColumns(
  columns: readonly StageColumn[],
  cut = false,
  unreadRows?: readonly UnreadRows[],
): RequestStage[] {
  const nativeStats = tableHasNativeStats(columns);
  const unread = unreadRows ?? (cut ? afterLastRow(columns.map((c) => Object.keys(c.fields))) : null);
  return mapPacked(columns, (column) => stageFromColumn(column, nativeStats, unread));
}

/** The rows a table cut off after its last row read never reached. */
export function afterLastRow(columnNames: Iterable<Iterable<string>>): UnreadRows[] {
  return [{ after: lastRowOf(columnNames), before: null }];
}

/**
 * The last row a cut-off table printed: it sorts its rows by name, and prints a row only when
 * some column has a value, so it is the greatest name any column holds ('' when none).
 */
export function lastRowOf(columnNames: Iterable<Iterable<string>>): string {
  let last = '';
  for (const names of columnNames) for (const name of names) if (name > last) last = name;
  return last;
}

/** Whether some column of the table prints a measured vLLM-native (`vllm_*`) value. */
export function tableHasNativeStats(columns: readonly Pick<StageColumn, 'fields'>[]): boolean {
  // Most tables print a measured vllm_queued_ms: found without a scan of every name.
  for (const c of columns) if (c.fields['vllm_queued_ms']?.state === 'measured') return true;
  for (const c of columns) {
    for (const name in c.fields) if (name.startsWith('vllm_') && c.fields[name]?.state === 'measured') return true;
  }
  return false;
}

/** A hidden row is 0 on every stage (the server hides an all-zero row); `None` (or any non-number) is no replica id. */
function replicaIdOf(cell: Cell | undefined): number | null {
  if (cell === undefined) return 0;
  return cell.state === 'measured' && Number.isFinite(cell.value) ? cell.value : null;
}

/** A row of the request's stage table that the table never read: cut off before it, or on a line lost (a stage that holds its value read it). */
export function rowUnread(
  request: Pick<AnalyzedRequest, 'stageTableCut' | 'stageTableUnreadRows' | 'stages'>,
  row: string,
): boolean {
  if (!request.stageTableCut) return false;
  // A row cut short keeps the values before the cut: its other columns are unread.
  const unread = request.stageTableUnreadRows;
  if (unread !== undefined) return inUnreadRows(row, unread);
  for (const s of request.stages) if (s.fields[row] !== undefined) return false;
  return row > lastRowOf(request.stages.map((s) => Object.keys(s.fields)));
}

/** `unreadRows`: the rows a cut-off table (or one with a lost line) did not read; null when whole. */
export function stageFromColumn(
  column: StageColumn,
  tableHasNativeStats: boolean,
  unreadRows: readonly UnreadRows[] | null = null,
): RequestStage {
  const kind = stageKindOf(column.fields);
  const replica = column.fields['replica_id'];
  return {
    // A labelled column (`0:thinker`) is stage 0, as its [OmniTiming] line and other requests name it.
    stageKey: column.label === undefined || column.stageId === null ? column.column : String(column.stageId),
    stageId: column.stageId,
    segment: column.segment,
    replicaId: replicaIdOf(replica),
    kind,
    fields: column.fields,
    split: phaseSplitOf(column.fields, { kind, tableHasNativeStats, unreadRows }),
  };
}

/** The one field of a stage known only from [OmniTiming] (no stage table prints it). */
export const OMNI_TIMING_STAGE_FIELD = 'omni_timing_stage_s';

/**
 * Without a stage table (it is DEBUG-only on phase-split builds), OmniTiming still gives each
 * stage's time; a stage printed twice is its two segments, keyed as the table keys them.
 */
export function stagesFromTiming(timing: OmniTimingRecord): RequestStage[] {
  const segments = timingSegments(timing.stages);
  return mapPacked(timing.stages, (s, i) => {
    const fields: FieldMap = { [OMNI_TIMING_STAGE_FIELD]: measured(s.seconds) };
    const segment = segments[i] as number;
    return {
      stageKey: segmentStageKey(s.stageId, segment),
      stageId: s.stageId,
      segment,
      replicaId: 0,
      kind: 'llm' as const,
      fields,
      split: notMeasuredSplit(),
    };
  });
}
