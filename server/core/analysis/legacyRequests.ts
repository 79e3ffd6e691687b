// Requests from logs in vLLM-Omni's format before February 2026 (vllm-omni#891). Each
// `request_level_metrics` dict of log_utils.py is one finished request and says what it
// measured: per stage `stage_gen_time_ms` and token counts, the request's `e2e_time_ms`, its
// transfer totals. With --log-stats, each edge's `transfer_total_stats` dict (size, send, in
// flight, decode, total) is printed, with the same request id, before that request's dict: it
// becomes the request's edge. The format has no phase split: every split value is not measured,
// never 0 and never hidden (a hidden row would mean "zero or not measured").
// The version of log_utils.py that appends JSON lines to files of their own instead writes the
// same keys: an `overall_request` record (<log file>.overall.stats.jsonl) is the request's
// request_level_metrics dict; an `orchestrator_request_e2e` record (.orchestrator.stats.jsonl)
// holds only its end-to-end numbers, after the request's transfer_total_stats records.
import type { LegacyDictRecord, TransferEdge } from '../records';
import type { FieldMap } from '../values';
import { measured, NOT_MEASURED, type Cell } from '../values';
import { isSafeKey } from '../log/strings';
import { requestTransfers } from './transfers';
import { stageKindOf } from './stageKind';
import { notMeasuredSplit } from './phaseSplit';
import type { AnalyzedRequest, RequestRepeat, RequestStage } from './types';

export const REQUEST_LEVEL_METRICS = 'log_utils request_level_metrics';
/** The formats whose record is one finished request. */
const REQUEST_FORMATS: ReadonlySet<string> = new Set([
  REQUEST_LEVEL_METRICS,
  'log_utils overall_request',
  'log_utils orchestrator_request_e2e',
]);
const TRANSFER_TOTAL = 'log_utils transfer_total_stats';
const STAGES_PREFIX = 'stages.';
/** Keys of a dict that name it rather than measure something. */
const NOT_VALUES: ReadonlySet<string> = new Set(['type', 'request_id', 'from_stage', 'to_stage', 'final_stage_id']);
/** Request ids whose edges wait for their request's dict; the oldest go first past this (a dict never printed). */
const MAX_PENDING = 10_000;

/** Where a request read elsewhere sits among the log's requests (RequestAssembler.placeRequest). */
export interface RequestPlace {
  readonly requestId: string;
  readonly boot: number;
  readonly cold: boolean;
  /** It repeats an earlier request's dict (requestRepeats.ts). */
  readonly repeat?: RequestRepeat;
}

interface PendingEdges {
  readonly line: number;
  readonly timestamp: string | null;
  /** Edge name -> its dict's values; null when the edge was printed twice for the id (which one is this request's is unknown). */
  readonly edges: Map<string, TransferEdge | null>;
}

/** How the dicts print "not measured" (a JSON null is read as it, pythonLiteral.ts). */
const NONE = 'None';

/** A value's cell: a number is measured, a printed None not measured (never 0, never hidden); null: no value. */
function cellOf(v: number | string): Cell | null {
  return typeof v === 'number' ? measured(v) : v === NONE ? NOT_MEASURED : null;
}

/** The values of a dict that are not nested (`stages.0.x` is), as cells. */
function topLevelFields(values: LegacyDictRecord['values']): FieldMap {
  const fields: FieldMap = {};
  for (const key in values) {
    const cell = NOT_VALUES.has(key) || key.includes('.') ? null : cellOf(values[key] as number | string);
    if (cell !== null) fields[key] = cell;
  }
  return fields;
}

/** The request's stages from its `stages.<id>.<name>` values, by stage id. */
export function legacyStages(values: LegacyDictRecord['values']): RequestStage[] {
  const byId = new Map<number, FieldMap>();
  for (const key in values) {
    const cell = key.startsWith(STAGES_PREFIX) ? cellOf(values[key] as number | string) : null;
    if (cell === null) continue;
    const dot = key.indexOf('.', STAGES_PREFIX.length);
    const idText = key.slice(STAGES_PREFIX.length, dot);
    const name = key.slice(dot + 1);
    const id = Number(idText);
    if (dot === -1 || idText === '' || !Number.isInteger(id) || name === '' || name.includes('.') || !isSafeKey(name))
      continue;
    let fields = byId.get(id);
    if (fields === undefined) byId.set(id, (fields = {}));
    fields[name] = cell;
  }
  return [...byId.keys()]
    .sort((a, b) => a - b)
    .map((id) => {
      const fields = byId.get(id) as FieldMap;
      return {
        stageKey: String(id),
        stageId: id,
        segment: 1,
        replicaId: 0,
        kind: stageKindOf(fields),
        fields,
        split: notMeasuredSplit(),
      };
    });
}

/** A `request_level_metrics` dict (or record of the JSON lines) that names its request and holds something of it. */
function isRequestDict(record: LegacyDictRecord): boolean {
  if (!REQUEST_FORMATS.has(record.format) || record.requestId === null) return false;
  // A fragment (its opening line not in the input) is taken for one only when it prints a request's values.
  if (record.values['e2e_time_ms'] !== undefined) return true;
  for (const key in record.values) if (key.startsWith(STAGES_PREFIX)) return true;
  return false;
}

function edgeOf(record: LegacyDictRecord): TransferEdge | null {
  const from = record.values['from_stage'];
  const to = record.values['to_stage'];
  if (typeof from !== 'number' || typeof to !== 'number') return null;
  const fields = topLevelFields(record.values);
  // The same quantity the current format prints as size_kbytes (size_bytes / 1024; the dict's own
  // total_time_per_kb_ms divides by that KB too), so the views' size column has it.
  const bytes = record.values['size_bytes'];
  if (typeof bytes === 'number' && fields['size_kbytes'] === undefined) fields['size_kbytes'] = measured(bytes / 1024);
  return { edge: `${from}->${to}`, fromStage: from, toStage: to, fields };
}

/** Reads the legacy dicts of one log, in order; a request comes out at its request_level_metrics dict. */
export class LegacyRequestReader {
  private readonly pending = new Map<string, PendingEdges>();

  constructor(private readonly place: (key: string) => RequestPlace) {}

  read(record: LegacyDictRecord): AnalyzedRequest | null {
    if (record.format === TRANSFER_TOTAL) {
      this.holdEdge(record);
      return null;
    }
    if (!isRequestDict(record)) return null;
    const id = record.requestId as string;
    const held = this.pending.get(id);
    this.pending.delete(id);
    const edges: TransferEdge[] = [];
    if (held !== undefined) for (const edge of held.edges.values()) if (edge !== null) edges.push(edge);
    const place = this.place(id);
    const first = held !== undefined && held.line < record.line ? held : null;
    return {
      requestId: place.requestId,
      boot: place.boot,
      cold: place.cold,
      line: first?.line ?? record.line,
      timestamp: first !== null ? first.timestamp : (record.header?.timestamp ?? null),
      stages: legacyStages(record.values),
      e2e: topLevelFields(record.values),
      timing: null,
      transfers: requestTransfers(edges, null),
      overallSummary: null,
      complete: record.complete,
      hasStageTable: false,
      stageTableCut: false,
      derived: { addedTimeToFirstOutputMs: {} },
      legacyDict: true,
      ...(place.repeat === undefined ? {} : { repeat: place.repeat }),
    };
  }

  private holdEdge(record: LegacyDictRecord): void {
    const edge = record.requestId === null || !record.complete ? null : edgeOf(record);
    if (edge === null || record.requestId === null) return;
    let held = this.pending.get(record.requestId);
    if (held === undefined) {
      if (this.pending.size >= MAX_PENDING) this.pending.delete(this.pending.keys().next().value as string);
      held = { line: record.line, timestamp: record.header?.timestamp ?? null, edges: new Map() };
      this.pending.set(record.requestId, held);
    }
    held.edges.set(edge.edge, held.edges.has(edge.edge) ? null : edge);
  }
}
