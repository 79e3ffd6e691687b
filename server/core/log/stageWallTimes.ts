// The `stage_wall_time_ms` row of an [Overall Summary] table as the vllm-omni#891 branch printed
// it before its merge (docs/formats.md#older-and-unmerged-formats): one wall time per stage, stage i at
// place i, as a list `1,404.027, 5,215.880` (a single stage: one number). Read per stage, under
// the names the merged change gives the same values (`e2e_stage_<i>_wall_time_ms`), so every
// output shows them as it shows the merged layout's. The branch prints 0.0 for a stage it never
// timed (no first or last timestamp): such a place is not measured, not 0 ms. Runs once per
// [Overall Summary] table that printed the row, never on another row.
import { NOT_MEASURED, measured, type Cell, type FieldMap } from '../values';

export const STAGE_WALL_TIMES_ROW = 'stage_wall_time_ms';
/** More places than this are no stage list (garbage input): the row is kept as read. */
const MAX_STAGES = 64;

function stageField(place: number): string {
  return `e2e_stage_${place}_wall_time_ms`;
}

/**
 * `fields` with its `stage_wall_time_ms` row read per stage: `listed` the row's elements when it
 * printed a list (null when it printed one number or none). As read when the row is absent, not
 * a number, or a name it would take is already printed.
 */
export function withStageWallTimes(fields: FieldMap, listed: readonly number[] | null): FieldMap {
  const cell = fields[STAGE_WALL_TIMES_ROW];
  if (cell === undefined || cell.state !== 'measured') return fields;
  const values = listed ?? (cell.sampleCount === undefined ? [cell.value] : null);
  if (values === null || values.length === 0 || values.length > MAX_STAGES) return fields;
  for (let i = 0; i < values.length; i++) if (fields[stageField(i)] !== undefined) return fields;
  const out: FieldMap = {};
  for (const name in fields) {
    if (name !== STAGE_WALL_TIMES_ROW) {
      out[name] = fields[name] as Cell;
      continue;
    }
    values.forEach((v, i) => {
      out[stageField(i)] = v === 0 ? NOT_MEASURED : measured(v);
    });
  }
  return out;
}
