// A request's stages from what the log printed: the columns of its stage table (with the
// phase split of each), or, when the stage table is missing, the stage times of its
// [OmniTiming] line. Used when a request is assembled and when a stored one is read back.
import { mapPacked } from '../arrays';
import type { OmniTimingRecord, StageColumn } from '../records';
import type { Cell, FieldMap } from '../values';
import { measured } from '../values';
import { phaseSplitOf } from './phaseSplit';
import { stageKindOf } from './stageKind';
import type { RequestStage } from './types';

export function stagesFromColumns(columns: readonly StageColumn[]): RequestStage[] {
  const nativeStats = tableHasNativeStats(columns);
  return mapPacked(columns, (column) => stageFromColumn(column, nativeStats));
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

export function stageFromColumn(column: StageColumn, tableHasNativeStats: boolean): RequestStage {
  const kind = stageKindOf(column.fields);
  const replica = column.fields['replica_id'];
  return {
    stageKey: column.column,
    stageId: column.stageId,
    segment: column.segment,
    replicaId: replicaIdOf(replica),
    kind,
    fields: column.fields,
    split: phaseSplitOf(column.fields, { kind, tableHasNativeStats }),
  };
}

/** The one field of a stage known only from [OmniTiming] (no stage table prints it). */
export const OMNI_TIMING_STAGE_FIELD = 'omni_timing_stage_s';

/** Without a stage table (it is DEBUG-only on phase-split builds), OmniTiming still gives each stage's time. */
export function stagesFromTiming(timing: OmniTimingRecord): RequestStage[] {
  return mapPacked(timing.stages, (s) => {
    const fields: FieldMap = { [OMNI_TIMING_STAGE_FIELD]: measured(s.seconds) };
    return {
      stageKey: String(s.stageId),
      stageId: s.stageId,
      segment: 1,
      replicaId: 0,
      kind: 'llm' as const,
      fields,
      split: phaseSplitOf(fields, { kind: 'llm', tableHasNativeStats: false }),
    };
  });
}
