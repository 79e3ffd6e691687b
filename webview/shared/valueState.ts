// How a value is shown: a number, or one of the states that are not numbers, each with a
// distinct look and an explanation on hover (docs/formats.md#values-and-their-states). DOM-free: the views only copy `text`, `state` and `title` into elements.
import type { RequestStage, SummaryResult } from '../../server/protocol';
import type {
  AnalyzedRequest,
  Distribution,
  Percentile,
  SplitName,
  SplitState,
  StageSummary,
} from '../../server/protocol';
import { formatCompact, formatExact, formatWithUnit } from './format';
import { FIELD_OMNI_TIMING_STAGE, PREFILL_DECODE_LABEL, SPLIT_FIELD, SPLIT_LABEL } from './labels';
import {
  endToEndOf,
  NO_NUMBER_WORD,
  noNumberState,
  nonFiniteText,
  UNRECORDED_TEXT,
  unrecordedReason,
  STATS_LOGGER_FIX,
  STATS_TABLES_CUT_FIX,
  valuesAbovePercentile,
} from '../../server/shared';

/**
 * measured     a number the server printed (a measured 0 stays "0")
 * inferred     a number derived by a documented rule from measured fields
 * notMeasured  printed `None`
 * hidden       the row was absent: zero or not measured
 * notRecorded  a known lie detected (codec TTFT 0 with no prefill, a printed default, a negative interval): unknown, never 0
 * combined     a number that covers two phases: a one-output stage's vllm_prefill_ms (prefill+decode)
 * covered      a phase inside a combined number (that stage's decode: in prefill)
 * text         a non-numeric cell (`audio`)
 * empty        nothing to show (the request did not run on this stage)
 * pending      the row is still being fetched
 */
export type DisplayState =
  | 'measured'
  | 'inferred'
  | 'notMeasured'
  | 'hidden'
  | 'notRecorded'
  | 'combined'
  | 'covered'
  | 'text'
  | 'empty'
  | 'pending';

export interface ValueView {
  readonly text: string;
  readonly state: DisplayState;
  /** Hover explanation. */
  readonly title: string;
  /** The number behind a measured/inferred view (for bars), else null. */
  readonly value: number | null;
  /** A number computed while some values of the same population were not numbers. */
  readonly partial?: boolean;
  /** A p90 / p99 from fewer values than it needs: the largest value or an interpolation towards it. */
  readonly fewValues?: boolean;
}

/**
 * The hover's sentence for a p90 / p99 from fewer values than it needs (n ≥ 1/(1 − q): 10 and
 * 100, compare's rule and the CLI table's note); '' when it has enough, and for p50.
 */
export function fewValuesNote(count: number, pct: Percentile): string {
  const needs = valuesAbovePercentile(pct);
  if (pct === 'p50' || count >= needs) return '';
  return ` From ${count} value${count === 1 ? '' : 's'}, a ${pct} is the largest value or an interpolation towards it, not a tail estimate (a ${pct} needs ${needs}).`;
}

export const STATE_TEXT: Readonly<
  Record<Exclude<DisplayState, 'measured' | 'inferred' | 'combined' | 'text'>, string>
> = {
  ...NO_NUMBER_WORD,
  covered: 'in prefill',
  empty: '—',
  pending: '…',
};

export const EXPLAIN = {
  measuredZero: 'A measured 0: the server printed 0 for this interval. It is a real zero, not a missing value.',
  inferred:
    'Inferred by a documented rule, not printed: input wait and ready queued are measured together, and the log hides a row that is 0 on every stage; one half was printed and the other hidden, so the hidden one is a measured 0.',
  notMeasured:
    "Not measured: the server printed None (this interval was not measured on this stage; it was on another), or the log's format has no such value (vLLM-Omni's format before February 2026 prints no phase split: see the findings). Not counted as 0.",
  hidden:
    'Hidden (zero or not measured): the log table leaves out a row that is 0 or None on every stage, so this value is either 0 or was not measured. It is not counted.',
  notRecorded:
    "Not recorded: the printed number is known not to be a measurement, and it is never averaged in. vllm_ttft_ms 0 with no prefill on a stage that produced output is the codec first-audio signature (the talker's first audio frame ended this stage's prefill state before it produced anything); on a stage that produced no output it is the field's default (no first token). A negative interval is a server clock or accounting bug. The findings say which.",
  oneOutput: `${PREFILL_DECODE_LABEL}: this stage emits one output, when it stops (Model Runner V2 + async chunk, a non-final autoregressive stage such as the Qwen3-TTS talker), so its vllm_prefill_ms runs from first SCHEDULED to that output and covers every decode step; its vllm_decode_ms (0 or hidden) is not a measurement. Shown, and ranked for slowest phase, as one phase (prefill+decode), never as prefill alone.`,
  negativeAdded:
    "Negative: this stage's first output came before its upstream stage's, within the same requests. Under talker first audio the codec forwards the talker's first frame as its own first output, and under Model Runner V2 + async chunk the talker's serving_time_to_first_output_ms is when it stops (its one output), not its first audio. Not a stage that takes negative time: read the upstream stage's first output with that in mind.",
  empty: 'This request did not run on this stage.',
  pending: 'Loading…',
  text: 'A text cell as printed by the server.',
} as const;

function explainState(state: SplitState | 'text'): string {
  switch (state) {
    case 'notMeasured':
      return EXPLAIN.notMeasured;
    case 'hidden':
      return EXPLAIN.hidden;
    case 'notRecorded':
      return EXPLAIN.notRecorded;
    case 'inferred':
      return EXPLAIN.inferred;
    case 'text':
      return EXPLAIN.text;
    case 'measured':
      return '';
  }
}

export const PENDING_VIEW: ValueView = Object.freeze({
  text: STATE_TEXT.pending,
  state: 'pending',
  title: EXPLAIN.pending,
  value: null,
});
export const EMPTY_VIEW: ValueView = Object.freeze({
  text: STATE_TEXT.empty,
  state: 'empty',
  title: EXPLAIN.empty,
  value: null,
});

/** What a table cell shows, without the hover text (cheap enough for every cell of every frame). */
export type CellView = Pick<ValueView, 'text' | 'state' | 'value'>;

const NOT_MEASURED_CELL: CellView = Object.freeze({ text: STATE_TEXT.notMeasured, state: 'notMeasured', value: null });
const HIDDEN_CELL: CellView = Object.freeze({ text: STATE_TEXT.hidden, state: 'hidden', value: null });
const NOT_RECORDED_CELL: CellView = Object.freeze({ text: STATE_TEXT.notRecorded, state: 'notRecorded', value: null });

/** The text of a combined prefill+decode number: it reads "prefill: 1,358 +decode". */
export function combinedText(value: number): string {
  return `${formatCompact(value)} +decode`;
}

const COVERED_CELL: CellView = Object.freeze({ text: STATE_TEXT.covered, state: 'covered', value: null });

/** Prefill and decode of a one-output stage (oneOutputStage.ts), or null for any other value. */
function oneOutputCell(stage: RequestStage, name: SplitName): CellView | null {
  if (name === 'decodeMs') return COVERED_CELL;
  const value = stage.split.values.prefillMs;
  return name === 'prefillMs' && value !== null ? { text: combinedText(value), state: 'combined', value } : null;
}

/** splitValueView without the title. `oneOutput`: the stage's prefill covers its decode (prefillCoversDecode). */
export function splitCellView(stage: RequestStage | undefined, name: SplitName, oneOutput = false): CellView {
  if (stage === undefined) return EMPTY_VIEW;
  const combined = oneOutput ? oneOutputCell(stage, name) : null;
  if (combined !== null) return combined;
  const state = stage.split.states[name];
  const value = stage.split.values[name];
  if (value !== null && state === 'measured') return { text: formatCompact(value), state, value };
  if (value !== null && state === 'inferred') return { text: `≈${formatCompact(value)}`, state, value };
  return state === 'notMeasured' ? NOT_MEASURED_CELL : state === 'notRecorded' ? NOT_RECORDED_CELL : HIDDEN_CELL;
}

/** fieldValueView without the title. */
export function fieldCellView(stage: RequestStage | undefined, field: string): CellView {
  if (stage === undefined) return EMPTY_VIEW;
  const cell = stage.fields[field];
  if (cell === undefined) return HIDDEN_CELL;
  if (cell.state === 'measured')
    return unrecordedReason(field, cell.value) === null
      ? { text: formatCompact(cell.value), state: 'measured', value: cell.value }
      : NOT_RECORDED_CELL;
  if (cell.state === 'notMeasured') return NOT_MEASURED_CELL;
  return { text: cell.value, state: 'text', value: null };
}

function numberView(value: number, unit: string, source: string): ValueView {
  const title =
    value === 0 ? `${source}: ${EXPLAIN.measuredZero}` : `${source}: ${formatWithUnit(value, unit)}, measured.`;
  return { text: formatCompact(value), state: 'measured', title, value };
}

/** One split value of one request stage. `oneOutput`: the stage's prefill covers its decode (prefillCoversDecode). */
export function splitValueView(stage: RequestStage | undefined, name: SplitName, oneOutput = false): ValueView {
  if (stage === undefined) return EMPTY_VIEW;
  const state = stage.split.states[name];
  const value = stage.split.values[name];
  const source = `${SPLIT_LABEL[name]} (${SPLIT_FIELD[name]})`;
  const combined = oneOutput ? oneOutputCell(stage, name) : null;
  if (combined !== null) {
    const printed = value === null ? '' : ` Printed: ${formatWithUnit(value, 'ms')}.`;
    return { ...combined, title: `${source}: ${EXPLAIN.oneOutput}${printed}` };
  }
  if (state === 'measured' && value !== null) return numberView(value, 'ms', source);
  if (state === 'inferred' && value !== null) {
    return {
      text: `≈${formatCompact(value)}`,
      state: 'inferred',
      title: `${source}: ${formatWithUnit(value, 'ms')}. ${EXPLAIN.inferred}`,
      value,
    };
  }
  const shown: SplitState = state === 'measured' || state === 'inferred' ? 'hidden' : state;
  return {
    text: STATE_TEXT[shown as 'notMeasured' | 'hidden' | 'notRecorded'],
    state: shown as DisplayState,
    title: `${source}: ${shown === 'notRecorded' ? notRecordedSplitText(stage, name) : explainState(shown)}`,
    value: null,
  };
}

/** A printed number as the server printed it: nan, inf and -inf in its spelling, others with their unit. */
function printedText(value: number, unit: string): string {
  return nonFiniteText(value) ?? formatWithUnit(value, unit);
}

/** Why a split value is not recorded, with the number the server printed for it (kept visible, never averaged). */
function notRecordedSplitText(stage: RequestStage, name: SplitName): string {
  const cell = stage.fields[SPLIT_FIELD[name]];
  if (cell === undefined || cell.state !== 'measured') return EXPLAIN.notRecorded;
  const reason = unrecordedReason(SPLIT_FIELD[name], cell.value);
  const printed = `Printed: ${printedText(cell.value, 'ms')}.`;
  return reason === null
    ? `${EXPLAIN.notRecorded} ${printed}`
    : `${printed} Not recorded: ${UNRECORDED_TEXT[reason]}, not a measurement. Left out of percentiles and means.`;
}

/** One log field of one request stage. */
export function fieldValueView(stage: RequestStage | undefined, field: string, unit: string): ValueView {
  if (stage === undefined) return EMPTY_VIEW;
  const cell = stage.fields[field];
  if (cell === undefined)
    return { text: STATE_TEXT.hidden, state: 'hidden', title: `${field}: ${EXPLAIN.hidden}`, value: null };
  switch (cell.state) {
    case 'measured': {
      const reason = unrecordedReason(field, cell.value);
      if (reason !== null)
        return {
          text: STATE_TEXT.notRecorded,
          state: 'notRecorded',
          title: `${field}: printed ${printedText(cell.value, unit)}, not recorded: ${UNRECORDED_TEXT[reason]}, not a measurement. Left out of percentiles and means.`,
          value: null,
        };
      const view = numberView(cell.value, unit, field);
      return cell.sampleCount === undefined
        ? view
        : { ...view, title: `${view.title} Mean of ${cell.sampleCount} samples.` };
    }
    case 'notMeasured':
      return {
        text: STATE_TEXT.notMeasured,
        state: 'notMeasured',
        title: `${field}: ${EXPLAIN.notMeasured}`,
        value: null,
      };
    case 'text':
      return { text: cell.value, state: 'text', title: `${field}: ${EXPLAIN.text}`, value: null };
    default:
      return { text: STATE_TEXT.hidden, state: 'hidden', title: `${field}: ${EXPLAIN.hidden}`, value: null };
  }
}

/** A cell of a stage table that was never printed (an INFO-level request: [OmniTiming] only): noTableView. */
export const NO_TABLE_VIEW: ValueView = Object.freeze({
  text: 'no table',
  state: 'notMeasured',
  title:
    'This request printed no [StageRequestStats] table, only its [OmniTiming] line: vLLM-Omni logs its per-request stage tables at DEBUG (VLLM_LOGGING_LEVEL=DEBUG).',
  value: null,
});

/**
 * NO_TABLE_VIEW of a log with DEBUG lines (SummaryResult.debugLines): its server did not run at
 * INFO, so the level is no fix; the stats logger's is (tablesMissing.ts words it so too).
 */
const NO_TABLE_AT_DEBUG_VIEW: ValueView = Object.freeze({
  text: NO_TABLE_VIEW.text,
  state: NO_TABLE_VIEW.state,
  title: `This request printed no [StageRequestStats] table, only its [OmniTiming] line, though the log has DEBUG lines: vLLM-Omni logs its stats tables only when its stats logger (vllm_omni.metrics.stats) is enabled for DEBUG. Fix: ${STATS_LOGGER_FIX}.`,
  value: null,
});

/**
 * NO_TABLE_VIEW of a log whose stats tables were printed at DEBUG and no request has its stage
 * table (SummaryResult.statsTablesAtDebug): upstream prints them all in one call, so the stage
 * tables were cut out of the log read (tablesMissing.ts words it so too).
 */
const NO_TABLE_CUT_VIEW: ValueView = Object.freeze({
  text: NO_TABLE_VIEW.text,
  state: NO_TABLE_VIEW.state,
  title: `This request printed no [StageRequestStats] table, only its [OmniTiming] line, though the log has stats tables printed at DEBUG: vLLM-Omni prints them all in one call, at DEBUG, so its stage tables were cut out of the log read. Fix: ${STATS_TABLES_CUT_FIX}.`,
  value: null,
});

/** Why a request's stage table is missing, as the session's log tells: an INFO server, the stats logger's level, or a cut log. */
export type NoTableCause = 'info' | 'debugLines' | 'cut';

/** The cause the session's summary tells (TablesMissing.cutOut, SummaryResult.debugLines). */
export function noTableCauseOf(summary: Pick<SummaryResult, 'debugLines' | 'tablesMissing'>): NoTableCause {
  if (summary.tablesMissing?.cutOut === true) return 'cut';
  return summary.debugLines === true ? 'debugLines' : 'info';
}

/** A cell of a stage table that was never printed, said for its `cause` (noTableCauseOf). */
export function noTableView(cause: NoTableCause): ValueView {
  return cause === 'cut' ? NO_TABLE_CUT_VIEW : cause === 'debugLines' ? NO_TABLE_AT_DEBUG_VIEW : NO_TABLE_VIEW;
}

/** A stage's time from its [OmniTiming] line (seconds, 10 ms steps), in ms as every other time; `cause` as for noTableView. */
export function omniTimingStageView(stage: RequestStage | undefined, cause: NoTableCause = 'info'): ValueView {
  if (stage === undefined) return EMPTY_VIEW;
  const cell = stage.fields[FIELD_OMNI_TIMING_STAGE];
  if (cell?.state !== 'measured') return noTableView(cause);
  const ms = cell.value * 1000;
  return {
    text: formatCompact(ms),
    state: 'measured',
    title: `stage time from [OmniTiming]: ${formatWithUnit(ms, 'ms')}, printed in 10 ms steps (its stage_gen_time_ms).`,
    value: ms,
  };
}

/** Neither an E2E table nor an [OmniTiming] line for this request: its end to end is not known. */
const NO_END_TO_END: ValueView = Object.freeze({
  text: 'not printed',
  state: 'notMeasured',
  title:
    'end to end: this request printed neither a RequestE2EStats table (e2e_total_ms) nor an [OmniTiming] line (total=). Not counted as 0.',
  value: null,
});

const NO_END_TO_END_CELL: CellView = Object.freeze({
  text: NO_END_TO_END.text,
  state: NO_END_TO_END.state,
  value: null,
});

/** A request's end to end: e2e_total_ms, else [OmniTiming]'s total= (the rule of every other view and the CLI). */
export function endToEndView(request: AnalyzedRequest): ValueView {
  const e2e = endToEndOf(request);
  if (e2e === null) {
    const cell = request.e2e['e2e_total_ms'];
    if (cell?.state === 'measured')
      return {
        text: STATE_TEXT.notRecorded,
        state: 'notRecorded',
        title: `e2e_total_ms: printed ${printedText(cell.value, 'ms')}, not recorded: ${UNRECORDED_TEXT[unrecordedReason('e2e_total_ms', cell.value) ?? 'negative']}, not a measurement. Left out of percentiles and means.`,
        value: null,
      };
    return cell?.state === 'notMeasured'
      ? { ...NO_END_TO_END, text: STATE_TEXT.notMeasured, title: `e2e_total_ms: ${EXPLAIN.notMeasured}` }
      : NO_END_TO_END;
  }
  if (e2e.from === 'e2eTable') return numberView(e2e.ms, 'ms', 'end to end (e2e_total_ms)');
  if (e2e.from === 'legacyDict')
    return numberView(
      e2e.ms,
      'ms',
      "end to end (e2e_time_ms of the request_level_metrics dict, vLLM-Omni's format before February 2026)",
    );
  return {
    text: formatCompact(e2e.ms),
    state: 'measured',
    title: `end to end from [OmniTiming] total=: ${formatWithUnit(e2e.ms, 'ms')}, printed in 10 ms steps (no RequestE2EStats table).`,
    value: e2e.ms,
  };
}

/** The same without its hover text: what scrolling writes, cell after cell. */
export function endToEndCellView(request: AnalyzedRequest): CellView {
  const e2e = endToEndOf(request);
  if (e2e !== null) return { text: formatCompact(e2e.ms), state: 'measured', value: e2e.ms };
  const state = request.e2e['e2e_total_ms']?.state;
  // A printed number endToEndOf does not take is a negative one: not recorded.
  return state === 'measured' ? NOT_RECORDED_CELL : state === 'notMeasured' ? NOT_MEASURED_CELL : NO_END_TO_END_CELL;
}

export function stageOf(request: AnalyzedRequest, stageKey: string): RequestStage | undefined {
  return request.stages.find((s) => s.stageKey === stageKey);
}

function countsLine(counts: Readonly<Record<SplitState, number>>): string {
  const parts: string[] = [];
  if (counts.notRecorded > 0) parts.push(`${counts.notRecorded} not recorded`);
  if (counts.notMeasured > 0) parts.push(`${counts.notMeasured} not measured`);
  if (counts.hidden > 0) parts.push(`${counts.hidden} hidden`);
  return parts.length === 0 ? '' : ` Left out (never counted as 0): ${parts.join(', ')}.`;
}

/** What a stage summary's prefill or decode cell says about its one-output requests. */
function oneOutputNote(stage: StageSummary, pct: Percentile): string {
  const n = stage.oneOutputRequests;
  const d = stage.prefillDecodeMs;
  const figure = d === null ? '' : ` (${PREFILL_DECODE_LABEL} ${pct} ${formatWithUnit(d[pct], 'ms')})`;
  return ` ${n} request${n === 1 ? '' : 's'} of this stage emit one output: their vllm_prefill_ms covers decode too and is left out here${figure}.`;
}

/** Prefill or decode of a stage whose every counted request emits one output. */
function summaryOneOutputView(stage: StageSummary, name: SplitName, pct: Percentile): ValueView | null {
  const source = `${SPLIT_LABEL[name]} (${SPLIT_FIELD[name]})`;
  const d = stage.prefillDecodeMs;
  const over = `over ${stage.oneOutputRequests} request${stage.oneOutputRequests === 1 ? '' : 's'}`;
  if (name === 'decodeMs')
    return {
      text: STATE_TEXT.covered,
      state: 'covered',
      title: `${source}: ${EXPLAIN.oneOutput} (${over}.)`,
      value: null,
    };
  if (name !== 'prefillMs' || d === null) return null;
  const value = d[pct];
  const few = fewValuesNote(d.count, pct);
  return {
    text: combinedText(value),
    state: 'combined',
    title: `${PREFILL_DECODE_LABEL} (vllm_prefill_ms) ${pct}: ${formatWithUnit(value, 'ms')} ${over}.${few} ${EXPLAIN.oneOutput}`,
    value,
    fewValues: few !== '',
  };
}

/** A split value of a stage summary at a percentile. */
export function summarySplitView(stage: StageSummary, name: SplitName, pct: Percentile): ValueView {
  const dist: Distribution | undefined = stage.split[name];
  const counts = stage.splitStates[name];
  const source = `${SPLIT_LABEL[name]} (${SPLIT_FIELD[name]})`;
  const coversDecode = stage.oneOutputRequests > 0 && (name === 'prefillMs' || name === 'decodeMs');
  if (coversDecode && (dist === undefined || dist.count === 0)) {
    const view = summaryOneOutputView(stage, name, pct);
    if (view !== null) return view;
  }
  if (dist !== undefined && dist.count > 0) {
    const value = dist[pct];
    const onlyInferred = counts.measured === 0 && counts.inferred > 0;
    const partial = counts.notRecorded + counts.notMeasured + counts.hidden > 0;
    const how =
      counts.inferred > 0 ? `${counts.measured} measured, ${counts.inferred} inferred` : `${counts.measured} measured`;
    const few = fewValuesNote(dist.count, pct);
    const title = `${source} ${pct}: ${formatWithUnit(value, 'ms')} over ${dist.count} values (${how}).${few}${countsLine(counts)}${coversDecode ? oneOutputNote(stage, pct) : ''}`;
    return {
      text: onlyInferred ? `≈${formatCompact(value)}` : formatCompact(value),
      state: onlyInferred ? 'inferred' : 'measured',
      title,
      value,
      partial: partial || coversDecode,
      fewValues: few !== '',
    };
  }
  if (stage.requestCount === 0) return EMPTY_VIEW;
  // No number at all: show the state that explains most (a detected lie first), as the CLI's table does.
  const state = noNumberState(counts);
  return {
    text: STATE_TEXT[state],
    state,
    title: `${source}: ${explainState(state)}${countsLine(counts)}`,
    value: null,
  };
}

/** Why some requests of a stage have no number in a field's summary: not printed, or printed but not a measurement. */
function leftOutText(stage: StageSummary, field: string, count: number): string {
  const total = stage.requestCount;
  let text = '';
  let unrecorded = 0;
  for (const [reason, n] of Object.entries(stage.fieldsNotRecorded[field] ?? {}) as [
    keyof typeof UNRECORDED_TEXT,
    number,
  ][]) {
    unrecorded += n;
    text += ` ${n} of ${total} requests are not recorded and left out: ${UNRECORDED_TEXT[reason]}.`;
  }
  const noNumber = total - count - unrecorded;
  const hidden =
    noNumber > 0 ? ` ${noNumber} of ${total} requests printed no number (hidden or None) and are left out.` : '';
  return hidden + text;
}

/** A numeric field of a stage summary at a percentile; `absent` says how to show a field no request printed. */
export function summaryFieldView(
  stage: StageSummary,
  field: string,
  unit: string,
  pct: Percentile,
  absent: 'hidden' | 'empty',
): ValueView {
  const dist = stage.fields[field];
  if (dist !== undefined && dist.count > 0) {
    const value = dist[pct];
    const partial = dist.count < stage.requestCount;
    const left = partial ? leftOutText(stage, field, dist.count) : '';
    const few = fewValuesNote(dist.count, pct);
    return {
      text: formatCompact(value),
      state: 'measured',
      title: `${field} ${pct}: ${formatWithUnit(value, unit)} over ${dist.count} values.${few}${left}`,
      value,
      partial,
      fewValues: few !== '',
    };
  }
  if (absent === 'empty' || stage.requestCount === 0)
    return { ...EMPTY_VIEW, title: `${field}: not printed for this stage.` };
  return {
    text: STATE_TEXT.hidden,
    state: 'hidden',
    title: `${field}: no request printed a number for this stage. ${EXPLAIN.hidden}`,
    value: null,
  };
}

/** A distribution that is not a split or a field (added time to first output). */
export function distributionView(
  dist: Distribution | null,
  pct: Percentile,
  what: string,
  whyMissing: string,
): ValueView {
  if (dist === null || dist.count === 0) return { ...EMPTY_VIEW, title: `${what}: ${whyMissing}` };
  const value = dist[pct];
  const few = fewValuesNote(dist.count, pct);
  return {
    text: formatCompact(value),
    state: 'measured',
    title: `${what} ${pct}: ${formatExact(value)} ms over ${dist.count} requests.${few}`,
    value,
    fewValues: few !== '',
  };
}

/**
 * What a stage's metric (`split:<name>` or `field:<name>`, the histogram's picker values) is
 * when it has no number: its state in the words the summary cells use ("not recorded", "not
 * measured", "hidden"), never a word of its own.
 */
export function noNumberText(stage: StageSummary, metric: string): string {
  if (metric.startsWith('split:'))
    return summarySplitView(stage, metric.slice('split:'.length) as SplitName, 'p50').text;
  return summaryFieldView(stage, metric.slice('field:'.length), '', 'p50', 'hidden').text;
}
