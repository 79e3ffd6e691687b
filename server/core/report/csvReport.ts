// `analyze --format csv`: one row per request and stage (`kind` llm or diffusion), then one
// per request and transfer edge (`kind` transfer, `stage` the edge `0->1`). A value cell holds
// the number, or the word of its state, spelled as in the JSON's splitState: `notMeasured`
// (printed None), `hidden` (row absent: zero or not measured), `notRecorded` (a known lie, e.g.
// codec TTFT without the fix), `blank` (printed empty: an empty list, or a key this stage's row
// lacks); inferred values are numbers and the `<name>_state` columns say which state each split
// value has. A list cell `mean (n=N)` is its mean, with N in the `<name>_n` column. An empty CSV
// cell means the column does not apply to the row. Derived values are at the log's precision
// (3 decimals). Text cells (ids, text values) are neutralized for spreadsheets (csvText).
// `prefill_covers_decode` true: the stage emitted one output, so its prefillMs is
// prefill+decode (oneOutputStage.ts), not prefill alone.
import type { AnalyzedRequest, RequestStage, RequestTransfer, SplitName } from '../analysis/types';
import { SPLIT_NAMES } from '../analysis/types';
import type { Cell, FieldMap } from '../values';
import { toLogPrecision } from '../values';
import { withVisibleControls } from '../textTable';
import { prefillCoversDecode } from '../analysis/oneOutputStage';
import { shortestNumberText } from '../numberText';

const STAGE_FIELDS = [
  'stage_gen_time_ms',
  'serving_time_to_first_output_ms',
  'num_tokens_in',
  'num_tokens_out',
  'audio_duration_s',
  'vllm_num_preemptions',
] as const;
/** List fields (`mean (n=N)`): the mean, then N. */
const LIST_FIELDS = ['inter_output_latencies_ms', 'vllm_itls_ms'] as const;
/** The rows of a TransferEdgeStats column (any other row is in the JSON). */
const TRANSFER_FIELDS = ['size_kbytes', 'tx_time_ms', 'rx_decode_time_ms', 'in_flight_time_ms'] as const;

/** CSV quoting (RFC 4180) of a cell that is already safe text. */
export function csvEscape(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A text cell (request id, edge, text value) neutralized against spreadsheet formula
 * injection, then quoted: C0 control characters (and DEL) become their visible Unicode control
 * pictures (tab -> U+2409, CR -> U+240D, ESC -> U+241B), and a cell starting with `=`, `+`, `-`,
 * `@`, tab or CR gets a leading apostrophe, so no spreadsheet evaluates it. Numbers are not text
 * cells: they are written as numbers, negative ones included.
 */
export function csvText(value: string): string {
  const visible = withVisibleControls(value);
  return csvEscape(FORMULA_START.test(value) ? `'${visible}` : visible);
}

/** A number as a CSV cell: as printed (shortest round-trip form); `nan`/`inf` spelled as Python prints them. */
function csvNumber(v: number): string {
  if (Number.isNaN(v)) return 'nan';
  if (!Number.isFinite(v)) return v > 0 ? 'inf' : '-inf';
  return shortestNumberText(v);
}

export const CSV_HEADER = [
  'request_id',
  'boot',
  'cold',
  'line',
  'stage',
  'stage_id',
  'replica_id',
  'kind',
  ...SPLIT_NAMES,
  ...SPLIT_NAMES.map((n) => `${n}_state`),
  ...STAGE_FIELDS,
  'added_time_to_first_output_ms',
  'prefill_covers_decode',
  ...LIST_FIELDS.flatMap((f) => [f, `${f}_n`]),
  'edge_from_stage',
  'edge_to_stage',
  'transfer_table',
  ...TRANSFER_FIELDS,
  'omni_timing_tx_ms',
  'omni_timing_tx_state',
];

/** A field cell: the number, the state word, or the text. */
function fieldCell(fields: FieldMap, name: string): string {
  const cell: Cell | undefined = fields[name];
  if (cell === undefined) return 'hidden';
  if (cell.state === 'notMeasured') return 'notMeasured';
  if (cell.state === 'measured') return csvNumber(cell.value);
  return cell.value === '' ? 'blank' : csvText(cell.value);
}

function listCountCell(fields: FieldMap, name: string): string {
  const cell = fields[name];
  return cell !== undefined && cell.state === 'measured' && cell.sampleCount !== undefined
    ? String(cell.sampleCount)
    : '';
}

function splitCell(stage: RequestStage, name: SplitName): string {
  const value = stage.split.values[name];
  const state = stage.split.states[name];
  if (value !== null) return csvNumber(state === 'inferred' ? toLogPrecision(value) : value);
  return state === 'measured' || state === 'inferred' ? '' : state;
}

const NO_SPLIT = SPLIT_NAMES.map(() => '');
const NO_STAGE_FIELDS = STAGE_FIELDS.map(() => '');
const NO_LISTS = LIST_FIELDS.flatMap(() => ['', '']);
const NO_TRANSFER = ['', '', '', ...TRANSFER_FIELDS.map(() => ''), '', ''];

function requestCells(r: AnalyzedRequest): string[] {
  return [csvText(r.requestId), String(r.boot), String(r.cold), String(r.line)];
}

function stageRow(r: AnalyzedRequest, s: RequestStage): string {
  const added = r.derived.addedTimeToFirstOutputMs[s.stageKey];
  return [
    ...requestCells(r),
    csvText(s.stageKey),
    s.stageId === null ? '' : String(s.stageId),
    String(s.replicaId),
    s.kind,
    ...SPLIT_NAMES.map((n) => splitCell(s, n)),
    ...SPLIT_NAMES.map((n) => s.split.states[n]),
    ...STAGE_FIELDS.map((f) => fieldCell(s.fields, f)),
    added === undefined ? '' : csvNumber(toLogPrecision(added)),
    String(prefillCoversDecode(r, s)),
    ...LIST_FIELDS.flatMap((f) => [fieldCell(s.fields, f), listCountCell(s.fields, f)]),
    ...NO_TRANSFER,
  ].join(',');
}

function transferRow(r: AnalyzedRequest, t: RequestTransfer): string {
  return [
    ...requestCells(r),
    csvText(t.edge),
    '',
    '',
    'transfer',
    ...NO_SPLIT,
    ...NO_SPLIT,
    ...NO_STAGE_FIELDS,
    '',
    '',
    ...NO_LISTS,
    t.fromStage === null ? '' : String(t.fromStage),
    t.toStage === null ? '' : String(t.toStage),
    String(t.tablePrinted),
    ...TRANSFER_FIELDS.map((f) => fieldCell(t.fields, f)),
    t.omniTimingTxMs === null ? 'absent' : csvNumber(t.omniTimingTxMs),
    t.omniTimingTxState,
  ].join(',');
}

/** The rows of one request: its stages, then its transfer edges. */
export function csvRequestRows(r: AnalyzedRequest): string[] {
  const rows: string[] = [];
  for (const s of r.stages) rows.push(stageRow(r, s));
  for (const t of r.transfers) rows.push(transferRow(r, t));
  return rows;
}

export function csvRows(requests: Iterable<AnalyzedRequest>): string[] {
  const lines = [CSV_HEADER.join(',')];
  for (const r of requests) for (const row of csvRequestRows(r)) lines.push(row);
  return lines;
}
