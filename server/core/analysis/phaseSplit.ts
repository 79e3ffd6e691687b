// The per-request, per-stage phase split (docs/formats.md#stage-fields): queued = input wait +
// ready queued, prefill, decode, TTFT. Values are taken from the stage's fields; absent
// rows stay null ("hidden"), `None` stays null ("notMeasured"), and documented rules fill in
// or blank out values:
//  - inferred 0: the table hides a row that is 0/None on every stage, and the two input
//    split fields are set together; so when one of them is measured and the other is
//    hidden, the hidden one is a measured 0 (seed 001: "a measured vllm_ready_queued_ms
//    of 0 appears only in the summary").
//  - notRecorded: a row a cut-off table never reached (it sorts its rows by name, so every
//    absent row named after the last one read) is unknown, not hidden.
//  - notRecorded: a stage that produced output but has vllm_ttft_ms 0 (or hidden) and no
//    vllm_prefill_ms is the codec first-audio signature of builds without the stats fix
//    (seed 000); its TTFT is unknown, not 0 ms. A stage that produced no output and has
//    vllm_ttft_ms 0 with no vllm_prefill_ms never had a first token: the 0 is the field's
//    default. A diffusion stage's vllm_ttft_ms of 0 is the field's default too: a diffusion
//    engine has no vLLM first-token time to set it from.
//  - notRecorded: a negative interval (a server clock or accounting bug), nan or inf is not a time;
//    nor is a printed text that is no number (`NaN`, `n/a`).
//  - a fork's spelling (docs/formats.md#stage-fields): Timez-zx/vllm-omni prints `vllm_queue_ms`,
//    the same QUEUED -> first SCHEDULED interval as vllm_queued_ms, and no decode row at all, so
//    there decode is not measured, never a hidden 0.
import type { UnreadRows } from '../records';
import type { Cell, FieldMap } from '../values';
import { producedOutput } from './stageKind';
import { mayBeUnrecorded, unrecordedReason } from './unrecordedValues';
import type { PhaseSplit, SplitName, SplitState, StageKind } from './types';
import { SPLIT_FIELD, SPLIT_NAMES } from './types';

function valueOf(cell: Cell | undefined): number | null {
  return cell !== undefined && cell.state === 'measured' ? cell.value : null;
}

/** A blank cell is a key the stage's row lacks (a None left out): not measured; other text (`NaN`, `n/a`) was printed and is no time: not recorded, never None. */
function stateOf(cell: Cell | undefined): SplitState {
  if (cell === undefined) return 'hidden';
  if (cell.state === 'measured') return 'measured';
  return cell.state === 'text' && cell.value !== '' ? 'notRecorded' : 'notMeasured';
}

/**
 * The layout every split's values are copied from. V8 tracks what each field of an object
 * layout has held: a field that has held only null and fractions (heap objects, to V8) takes
 * a small integer only after V8 has thrown away the optimized code that reads splits (a dozen
 * functions of the analysis) and compiled it again, and on a long log the first whole
 * number comes after that code was compiled. This template's fields have held both.
 */
const VALUES_LAYOUT: Record<SplitName, number | null> = {
  queuedMs: null,
  inputWaitMs: null,
  readyQueuedMs: null,
  prefillMs: null,
  decodeMs: null,
  ttftMs: null,
};
for (const name of SPLIT_NAMES) VALUES_LAYOUT[name] = 0;

export interface SplitContext {
  readonly kind: StageKind;
  /** The table this stage came from prints vLLM-native stats (some `vllm_*` value measured on some stage). */
  readonly tableHasNativeStats: boolean;
  /** Rows the table did not read (cut off, or a line lost): an absent row among them is unknown, not hidden. */
  readonly unreadRows?: readonly UnreadRows[] | null;
}

/** Whether `name` is among the rows a table did not read. */
export function inUnreadRows(name: string, rows: readonly UnreadRows[]): boolean {
  for (const r of rows) if (name > r.after && (r.before === null || name < r.before)) return true;
  return false;
}

/** An absent row the table never read. */
function unread(name: string, ctx: SplitContext): boolean {
  return ctx.unreadRows !== undefined && ctx.unreadRows !== null && inUnreadRows(name, ctx.unreadRows);
}

/** True when this stage shows the codec first-audio TTFT signature (seed 000). */
export function isTtftNotRecorded(fields: FieldMap, ctx: SplitContext): boolean {
  if (ctx.kind !== 'llm' || !ctx.tableHasNativeStats || !producedOutput(fields)) return false;
  const ttft = fields[SPLIT_FIELD.ttftMs];
  // A row the cut-off table never reached says nothing: no signature is claimed from it.
  if ((ttft === undefined && unread(SPLIT_FIELD.ttftMs, ctx)) || unread(SPLIT_FIELD.prefillMs, ctx)) return false;
  // Hidden: the build prints native stats (checked above), so the row was 0/None everywhere.
  const ttftZeroOrHidden = ttft === undefined || (ttft.state === 'measured' && ttft.value === 0);
  const prefill = fields[SPLIT_FIELD.prefillMs];
  const noPrefill = prefill === undefined || prefill.state !== 'measured';
  return ttftZeroOrHidden && noPrefill;
}

/**
 * True when an LLM stage printed vllm_ttft_ms 0 with no vllm_prefill_ms and no output: no first
 * token was ever seen, so the 0 is the field's default, not a time.
 */
export function isTtftDefaultNoOutput(fields: FieldMap, ctx: SplitContext): boolean {
  // The cheap tests first: nearly every stage has a TTFT other than 0.
  if (ctx.kind !== 'llm') return false;
  const ttft = fields[SPLIT_FIELD.ttftMs];
  if (ttft === undefined || ttft.state !== 'measured' || ttft.value !== 0) return false;
  const prefill = fields[SPLIT_FIELD.prefillMs];
  return (prefill === undefined || prefill.state !== 'measured') && !producedOutput(fields);
}

/**
 * The split of a stage whose log printed none: a format before February 2026, or an
 * INFO-level server's [OmniTiming] line (the stage table is DEBUG). Not measured, not hidden:
 * no row was left out, no table was printed.
 */
export function notMeasuredSplit(): PhaseSplit {
  return {
    values: { queuedMs: null, inputWaitMs: null, readyQueuedMs: null, prefillMs: null, decodeMs: null, ttftMs: null },
    states: {
      queuedMs: 'notMeasured',
      inputWaitMs: 'notMeasured',
      readyQueuedMs: 'notMeasured',
      prefillMs: 'notMeasured',
      decodeMs: 'notMeasured',
      ttftMs: 'notMeasured',
    },
  };
}

/** The fork's name of vllm_queued_ms; a table with this row has no vllm_decode_ms row to hide. */
const FORK_QUEUED_FIELD = 'vllm_queue_ms';

export function phaseSplitOf(fields: FieldMap, ctx: SplitContext): PhaseSplit {
  // Object literals in SPLIT_NAMES order (one shape for every stage; this runs per stage of every request).
  const forkQueued = fields[FORK_QUEUED_FIELD];
  const queued = fields[SPLIT_FIELD.queuedMs] ?? forkQueued;
  const inputWait = fields[SPLIT_FIELD.inputWaitMs];
  const readyQueued = fields[SPLIT_FIELD.readyQueuedMs];
  const prefill = fields[SPLIT_FIELD.prefillMs];
  const decode = fields[SPLIT_FIELD.decodeMs];
  const ttft = fields[SPLIT_FIELD.ttftMs];
  const values = { ...VALUES_LAYOUT };
  values.queuedMs = valueOf(queued);
  values.inputWaitMs = valueOf(inputWait);
  values.readyQueuedMs = valueOf(readyQueued);
  values.prefillMs = valueOf(prefill);
  values.decodeMs = valueOf(decode);
  values.ttftMs = valueOf(ttft);
  const states: Record<SplitName, SplitState> = {
    queuedMs: stateOf(queued),
    inputWaitMs: stateOf(inputWait),
    readyQueuedMs: stateOf(readyQueued),
    prefillMs: stateOf(prefill),
    decodeMs: decode === undefined && forkQueued !== undefined ? 'notMeasured' : stateOf(decode),
    ttftMs: stateOf(ttft),
  };
  const unreadRows = ctx.unreadRows;
  if (unreadRows !== undefined && unreadRows !== null) {
    for (const name of SPLIT_NAMES)
      if (states[name] === 'hidden' && inUnreadRows(SPLIT_FIELD[name], unreadRows)) states[name] = 'notRecorded';
  }
  // A negative interval, nan or inf is not a time (unrecordedValues.ts): kept as printed in the
  // fields only. Rare: one compare of plain reads first, the loop by name only when one is odd.
  if (
    mayBeUnrecorded(values.queuedMs) ||
    mayBeUnrecorded(values.inputWaitMs) ||
    mayBeUnrecorded(values.readyQueuedMs) ||
    mayBeUnrecorded(values.prefillMs) ||
    mayBeUnrecorded(values.decodeMs) ||
    mayBeUnrecorded(values.ttftMs)
  ) {
    for (const name of SPLIT_NAMES) {
      const v = values[name];
      if (v !== null && unrecordedReason(SPLIT_FIELD[name], v) !== null) {
        values[name] = null;
        states[name] = 'notRecorded';
      }
    }
  }
  if (ctx.kind === 'diffusion') {
    if (states.ttftMs === 'measured' && values.ttftMs === 0) {
      values.ttftMs = null;
      states.ttftMs = 'notRecorded';
    }
    return { values, states };
  }

  // One of the pair measured, the other hidden -> the hidden one is a measured 0.
  if (states.inputWaitMs === 'measured' && states.readyQueuedMs === 'hidden') {
    values.readyQueuedMs = 0;
    states.readyQueuedMs = 'inferred';
  } else if (states.readyQueuedMs === 'measured' && states.inputWaitMs === 'hidden') {
    values.inputWaitMs = 0;
    states.inputWaitMs = 'inferred';
  }

  if (isTtftNotRecorded(fields, ctx) || isTtftDefaultNoOutput(fields, ctx)) {
    values.ttftMs = null;
    states.ttftMs = 'notRecorded';
  }
  return { values, states };
}
