// `analyze --format csv`: one row per request and stage (`kind` llm or diffusion), then one
// per request and transfer edge (`kind` transfer, `stage` the edge `0->1`). A value cell holds
// the number, or the word of its state, spelled as in the JSON's splitState: `notMeasured`
// (printed None), `hidden` (row absent: zero or not measured), `notRecorded` (a known lie, e.g.
// codec TTFT without the fix), `blank` (printed empty: an empty list, or a key this stage's row
// lacks); inferred values are numbers and the `<name>_state` columns say which state each split
// value has. A list cell `mean (n=N)` is its mean, with N in the `<name>_n` column. An empty CSV
// cell means the column does not apply to the row. Derived values are at the log's precision
// (3 decimals). Text cells (ids, text values) are neutralized for spreadsheets (csvText).
// Field columns are as printed, the JSON's `fields`: a number that is not a measurement
// (unrecordedValues.ts: a first output of 0.0, a negative duration, nan or inf) keeps its
// printed value there, and its `<field>_state` column, appended after the others, says
// `notRecorded`, so a spreadsheet can take the `measured` ones alone.
// `prefill_covers_decode` true: the stage emitted one output, so its prefillMs is
// prefill+decode (oneOutputStage.ts), not prefill alone, and its decodeMs is `notRecorded`.
// A stage known only from [OmniTiming] (an INFO-level server prints no stage table) has every
// table value `notMeasured`, as has an edge of such a request; its stage time and the request's total are the `omni_timing_*_s`
// columns, in seconds as printed (10 ms resolution), on every stage row that has them.
// A diffusion stage's own timings come next, in ms whichever unit the build printed (`_s` x 1000
// or `_ms`), each with its `_state`: `diffusion_<timing>_ms` (DIFFUSION_TIMINGS), on diffusion
// rows only. Then the request's `e2e_total_ms` as printed, with its `_state`, on its stage rows.
// Last, `server`: in a log that merges several servers' (kubectl logs --prefix, docker compose
// logs, stern), the tag of the server that printed the request; empty in a log of one server.
import type { AnalyzedRequest, PhaseSplit, RequestStage, RequestTransfer, SplitName } from '../analysis/types';
import { SPLIT_NAMES } from '../analysis/types';
import type { Cell, FieldMap } from '../values';
import { nonFiniteText, toLogPrecision } from '../values';
import { withVisibleControls } from '../textTable';
import { prefillCoversDecode, reportedSplit } from '../analysis/oneOutputStage';
import { ByteChunks, type ChunkSink, type Piece } from './byteChunks';
import { OMNI_TIMING_STAGE_FIELD } from '../analysis/stageBuilder';
import { timingStageOf } from '../analysis/timingSegments';
import { edgeTableNotPrinted } from '../analysis/tablesMissing';
import { unrecordedReason } from '../analysis/unrecordedValues';
import { DIFFUSION_TIMINGS, printedTiming } from './diffusionTable';

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
/** The request's end-to-end time as its RequestE2EStats printed it (the format before February 2026: e2e_time_ms). */
const E2E_COLUMN = 'e2e_total_ms';
const LEGACY_E2E = 'e2e_time_ms';
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
  if (isPlainCsvText(value)) return value;
  const visible = withVisibleControls(value);
  return csvEscape(FORMULA_START.test(value) ? `'${visible}` : visible);
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
  'omni_timing_stage_s',
  'omni_timing_total_s',
  ...[...STAGE_FIELDS, ...LIST_FIELDS, ...TRANSFER_FIELDS].map((f) => `${f}_state`),
  ...DIFFUSION_TIMINGS.flatMap((t) => [diffusionColumn(t), `${diffusionColumn(t)}_state`]),
  E2E_COLUMN,
  `${E2E_COLUMN}_state`,
  'server',
];

/** `diffusion_vae_decode_time_ms`: a diffusion timing's column, in ms (its printed name names the stage already when it starts with `diffusion_`). */
function diffusionColumn(timing: string): string {
  return `${timing.startsWith('diffusion_') ? '' : 'diffusion_'}${timing}_ms`;
}

const COMMA = 0x2c;
const NEWLINE = 0x0a;

// The words a cell can hold besides numbers and text (states, kinds, booleans), encoded once.
const words = new Map<string, Piece>();
function word(out: ByteChunks, text: string): void {
  let piece = words.get(text);
  if (piece === undefined) {
    piece = ByteChunks.constant(text);
    words.set(text, piece);
  }
  out.raw(piece);
}

/** Whether csvText leaves `value` as it is: no control character, quote, comma or formula start (most ids and keys). */
function isPlainCsvText(value: string): boolean {
  const first = value.charCodeAt(0);
  // = + - @ (tab and CR are control characters, below).
  if (first === 0x3d || first === 0x2b || first === 0x2d || first === 0x40) return false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || c === 0x7f || c === 0x22 || c === 0x2c) return false;
  }
  return true;
}

/** A number as a CSV cell: as printed (String(v)); `nan`/`inf` spelled as Python prints them (and the JSON). */
function numberCell(out: ByteChunks, v: number): void {
  const text = nonFiniteText(v);
  if (text !== null) word(out, text);
  else out.number(v);
}

/** A field cell: the number, the state word, or the text. `noTable`: the stage printed no table. */
function fieldCell(out: ByteChunks, fields: FieldMap, name: string, noTable = false): void {
  const cell: Cell | undefined = fields[name];
  if (cell === undefined) word(out, noTable ? 'notMeasured' : 'hidden');
  else if (cell.state === 'notMeasured') word(out, 'notMeasured');
  else if (cell.state === 'measured') numberCell(out, cell.value);
  else if (cell.value === '') word(out, 'blank');
  else out.text(csvText(cell.value));
}

/**
 * A field's state, spelled as the split's: a printed number that is not a measurement
 * (unrecordedReason) is `notRecorded`; a non-numeric text value is `text`.
 */
function fieldStateCell(out: ByteChunks, fields: FieldMap, name: string, noTable: boolean): void {
  const cell: Cell | undefined = fields[name];
  if (cell === undefined) word(out, noTable ? 'notMeasured' : 'hidden');
  else if (cell.state === 'measured')
    word(out, unrecordedReason(name, cell.value) === null ? 'measured' : 'notRecorded');
  else if (cell.state === 'notMeasured') word(out, 'notMeasured');
  else word(out, cell.value === '' ? 'blank' : 'text');
}

function listCountCell(out: ByteChunks, fields: FieldMap, name: string): void {
  const cell = fields[name];
  if (cell !== undefined && cell.state === 'measured' && cell.sampleCount !== undefined) out.number(cell.sampleCount);
}

function splitCell(out: ByteChunks, split: PhaseSplit, name: SplitName): void {
  const value = split.values[name];
  const state = split.states[name];
  if (value !== null) numberCell(out, state === 'inferred' ? toLogPrecision(value) : value);
  else if (state !== 'measured' && state !== 'inferred') word(out, state);
}

/** The empty cells of a stage row's transfer columns, or of a transfer row's stage columns, with their commas. */
const NO_TRANSFER = ByteChunks.constant(','.repeat(3 + TRANSFER_FIELDS.length + 2));
const NO_STAGE = ByteChunks.constant(
  ','.repeat(SPLIT_NAMES.length * 2 + STAGE_FIELDS.length + 2 + LIST_FIELDS.length * 2),
);
/** The same for the field state columns at the end of a row. */
const NO_TRANSFER_STATE = ByteChunks.constant(','.repeat(TRANSFER_FIELDS.length));
const NO_STAGE_STATE = ByteChunks.constant(','.repeat(STAGE_FIELDS.length + LIST_FIELDS.length));
/** The empty end-to-end cells of a transfer row (the request's stage rows carry them). */
const NO_E2E = ByteChunks.constant(',,');
/** The empty diffusion columns of a row that is not a diffusion stage's. */
const NO_DIFFUSION = ByteChunks.constant(','.repeat(DIFFUSION_TIMINGS.length * 2));

/** A diffusion stage's timings in ms with their states, as its fields' (hidden: not printed); empty cells on any other row. */
function diffusionCells(out: ByteChunks, s: RequestStage | null): void {
  if (s === null || s.kind !== 'diffusion') return out.raw(NO_DIFFUSION);
  for (const t of DIFFUSION_TIMINGS) {
    const printed = printedTiming(s.fields, t);
    const cell = printed === null ? undefined : s.fields[printed.field];
    out.byte(COMMA);
    if (printed !== null && cell?.state === 'measured') numberCell(out, toLogPrecision(cell.value * printed.toMs));
    else fieldCell(out, s.fields, printed?.field ?? t);
    out.byte(COMMA);
    fieldStateCell(out, s.fields, printed?.field ?? t, false);
  }
}

/** The cells every row of a request starts with (id, boot, cold, line), and the comma after them. */
function requestCells(out: ByteChunks, r: AnalyzedRequest, id: string): void {
  out.text(id);
  out.byte(COMMA);
  out.number(r.boot);
  out.byte(COMMA);
  word(out, r.cold ? 'true' : 'false');
  out.byte(COMMA);
  out.number(r.line);
  out.byte(COMMA);
}

function stageRow(out: ByteChunks, r: AnalyzedRequest, s: RequestStage, id: string): void {
  requestCells(out, r, id);
  out.text(csvText(s.stageKey));
  out.byte(COMMA);
  if (s.stageId !== null) out.number(s.stageId);
  out.byte(COMMA);
  // `None` printed: no replica id, in the state's word (never 0).
  if (s.replicaId === null) word(out, 'notMeasured');
  else out.number(s.replicaId);
  out.byte(COMMA);
  word(out, s.kind);
  const oneOutput = prefillCoversDecode(r, s);
  const split = reportedSplit(s, oneOutput);
  for (const n of SPLIT_NAMES) {
    out.byte(COMMA);
    splitCell(out, split, n);
  }
  for (const n of SPLIT_NAMES) {
    out.byte(COMMA);
    word(out, split.states[n]);
  }
  const noTable = s.fields[OMNI_TIMING_STAGE_FIELD] !== undefined;
  for (const f of STAGE_FIELDS) {
    out.byte(COMMA);
    fieldCell(out, s.fields, f, noTable);
  }
  out.byte(COMMA);
  const added = r.derived.addedTimeToFirstOutputMs[s.stageKey];
  if (added !== undefined) numberCell(out, toLogPrecision(added));
  out.byte(COMMA);
  word(out, oneOutput ? 'true' : 'false');
  for (const f of LIST_FIELDS) {
    out.byte(COMMA);
    fieldCell(out, s.fields, f, noTable);
    out.byte(COMMA);
    listCountCell(out, s.fields, f);
  }
  out.raw(NO_TRANSFER);
  omniTimingCells(out, r, s);
  for (const f of STAGE_FIELDS) {
    out.byte(COMMA);
    fieldStateCell(out, s.fields, f, noTable);
  }
  for (const f of LIST_FIELDS) {
    out.byte(COMMA);
    fieldStateCell(out, s.fields, f, noTable);
  }
  out.raw(NO_TRANSFER_STATE);
  diffusionCells(out, s);
  e2eCells(out, r);
  serverCell(out, r);
  out.byte(NEWLINE);
}

/**
 * The request's printed end-to-end time and its state, on each of its stage rows: `notMeasured`
 * where no E2E table was printed (an INFO-level log: its total is omni_timing_total_s), `hidden`
 * where the table left the row out, `notRecorded` for a printed number that is no time.
 */
function e2eCells(out: ByteChunks, r: AnalyzedRequest): void {
  const name = r.legacyDict === true ? LEGACY_E2E : E2E_COLUMN;
  const noTable = Object.keys(r.e2e).length === 0;
  out.byte(COMMA);
  fieldCell(out, r.e2e, name, noTable);
  out.byte(COMMA);
  fieldStateCell(out, r.e2e, name, noTable);
}

/** The server of a merged log that printed the request (empty in a log of one server), after its comma. */
function serverCell(out: ByteChunks, r: AnalyzedRequest): void {
  out.byte(COMMA);
  if (r.server !== undefined) out.text(csvText(r.server));
}

/** The stage's time and the request's total from its [OmniTiming] line (empty cells without one). */
function omniTimingCells(out: ByteChunks, r: AnalyzedRequest, s: RequestStage): void {
  out.byte(COMMA);
  const timing = r.timing;
  if (timing === null) {
    out.byte(COMMA);
    return;
  }
  const stage = timingStageOf(timing.stages, s.stageId, s.segment);
  if (stage !== undefined) numberCell(out, stage.seconds);
  out.byte(COMMA);
  if (timing.totalS !== null) numberCell(out, timing.totalS);
}

function transferRow(out: ByteChunks, r: AnalyzedRequest, t: RequestTransfer, id: string): void {
  requestCells(out, r, id);
  out.text(csvText(t.edge));
  out.byte(COMMA);
  out.byte(COMMA);
  out.byte(COMMA);
  word(out, 'transfer');
  out.raw(NO_STAGE);
  out.byte(COMMA);
  if (t.fromStage !== null) out.number(t.fromStage);
  out.byte(COMMA);
  if (t.toStage !== null) out.number(t.toStage);
  out.byte(COMMA);
  word(out, t.tablePrinted ? 'true' : 'false');
  const noTable = edgeTableNotPrinted(r, t);
  for (const f of TRANSFER_FIELDS) {
    out.byte(COMMA);
    fieldCell(out, t.fields, f, noTable);
  }
  out.byte(COMMA);
  if (t.omniTimingTxMs === null) word(out, 'absent');
  else numberCell(out, t.omniTimingTxMs);
  out.byte(COMMA);
  word(out, t.omniTimingTxState);
  out.byte(COMMA);
  out.byte(COMMA);
  out.raw(NO_STAGE_STATE);
  for (const f of TRANSFER_FIELDS) {
    out.byte(COMMA);
    fieldStateCell(out, t.fields, f, noTable);
  }
  diffusionCells(out, null);
  out.raw(NO_E2E);
  serverCell(out, r);
  out.byte(NEWLINE);
}

/** Writes the rows of one request, each ending in a newline: its stages, then its transfer edges. */
function writeCsvRequestRows(out: ByteChunks, r: AnalyzedRequest): void {
  if (r.stages.length === 0 && r.transfers.length === 0) return;
  const id = csvText(r.requestId);
  for (const s of r.stages) stageRow(out, r, s, id);
  for (const t of r.transfers) transferRow(out, r, t, id);
}

/**
 * `analyze --format csv` written as the requests come, as UTF-8 in chunks of about 1 MB: the
 * header with the first row, or at end() (nothing is emitted for an input that fails first).
 * `emit` calls `written` once a chunk's bytes are out; the chunk's memory is then used again.
 */
export class CsvWriter {
  private readonly bytes: ByteChunks;
  private headed = false;
  private rows = false;

  constructor(
    private readonly emit: ChunkSink,
    private readonly chunkBytes = 1 << 20,
  ) {
    this.bytes = new ByteChunks(chunkBytes + (chunkBytes >> 4));
  }

  request(r: AnalyzedRequest): void {
    this.head();
    const before = this.bytes.length;
    writeCsvRequestRows(this.bytes, r);
    if (this.bytes.length > before) this.rows = true;
    if (this.bytes.length >= this.chunkBytes) this.bytes.takeTo(this.emit);
  }

  /** Whether a request gave the CSV a row (a request read from a run's totals gives none). */
  get wroteRows(): boolean {
    return this.rows;
  }

  end(): void {
    this.head();
    if (this.bytes.length > 0) this.bytes.takeTo(this.emit);
  }

  private head(): void {
    if (this.headed) return;
    this.headed = true;
    this.bytes.text(CSV_HEADER.join(',') + '\n');
  }
}
