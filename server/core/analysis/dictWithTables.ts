// The vllm-omni#891 branch prints each finished request twice in one call: its
// `request_level_metrics` dict, then its tables (RequestE2EStats, StageRequestStats,
// TransferEdgeStats), all from the same RequestE2EStats and stage records. They are one request:
// the tables' values, and the dict's where the tables print none (docs/formats.md#older-and-unmerged-formats).
import type { Cell, FieldMap } from '../values';
import { addedTimeToFirstOutput } from './crossStage';
import { filledFrom } from './filledValues';
import type { AnalyzedRequest, RequestStage, RequestTransfer } from './types';

/**
 * Dict keys whose quantity the E2E table prints under another name (the same number, another
 * unit for the bytes): where the table's is measured, the dict's would count it twice.
 */
const TABLE_TWIN: Readonly<Record<string, string>> = {
  e2e_time_ms: 'e2e_total_ms',
  transfers_total_bytes: 'transfers_total_kbytes',
};

function isMeasured(cell: Cell): boolean {
  return cell.state === 'measured';
}

/** The table's cells, and the dict's where the table has none or an unmeasured one (and no measured twin). */
function withDictFields(table: FieldMap, dict: FieldMap, twins: Readonly<Record<string, string>>): FieldMap {
  return filledFrom(table, dict, isMeasured, (key) => {
    const twin = twins[key];
    return twin !== undefined && table[twin]?.state === 'measured';
  });
}

const NO_TWINS: Readonly<Record<string, string>> = {};

/** The tables' stages, each with the dict's values of that stage the column lacks; the dict's stages when the tables print none. */
function mergedStages(table: readonly RequestStage[], dict: readonly RequestStage[]): readonly RequestStage[] {
  if (table.length === 0) return dict;
  if (dict.length === 0) return table;
  return table.map((stage) => {
    const theirs = dict.find((d) => d.stageKey === stage.stageKey);
    if (theirs === undefined) return stage;
    const fields = withDictFields(stage.fields, theirs.fields, NO_TWINS);
    return fields === stage.fields ? stage : { ...stage, fields };
  });
}

/** The tables' edges, then the dict's edges the tables do not print. */
function mergedTransfers(
  table: readonly RequestTransfer[],
  dict: readonly RequestTransfer[],
): readonly RequestTransfer[] {
  const extra = dict.filter((d) => !table.some((t) => t.edge === d.edge));
  return extra.length === 0 ? table : [...table, ...extra];
}

/** One request from its tables and the `request_level_metrics` dict printed before them (its id, boot and start are the dict's). */
export function withDictValues(tables: AnalyzedRequest, dict: AnalyzedRequest): AnalyzedRequest {
  const stages = mergedStages(tables.stages, dict.stages);
  const repeat = dict.repeat ?? tables.repeat;
  const { repeat: _tablesRepeat, ...rest } = tables;
  return {
    ...rest,
    requestId: dict.requestId,
    boot: dict.boot,
    cold: dict.cold,
    line: Math.min(dict.line, tables.line),
    timestamp: dict.line <= tables.line ? (dict.timestamp ?? tables.timestamp) : tables.timestamp,
    stages,
    e2e: withDictFields(tables.e2e, dict.e2e, TABLE_TWIN),
    transfers: mergedTransfers(tables.transfers, dict.transfers),
    complete: tables.complete && dict.complete,
    derived: stages === tables.stages ? tables.derived : { addedTimeToFirstOutputMs: addedTimeToFirstOutput(stages) },
    ...(repeat === undefined ? {} : { repeat }),
  };
}
