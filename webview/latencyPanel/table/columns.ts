// The request table's columns, derived from the session's stages. DOM-free.
import type { AnalyzedRequest, Distribution, RequestSortKey, SplitName, StageSummary } from '../../../server/protocol';
import {
  FIELD_FIRST_OUTPUT,
  FIELD_GEN_TIME,
  FIELD_OMNI_TIMING_STAGE,
  SPLIT_LABEL,
  stageIdOfKey,
  stageLabel,
} from '../../shared/labels';
import type { CellView, NoTableCause, ValueView } from '../../shared/valueState';
import {
  EMPTY_VIEW,
  endToEndCellView,
  endToEndView,
  fieldCellView,
  fieldValueView,
  omniTimingStageView,
  splitCellView,
  splitValueView,
  stageOf,
} from '../../shared/valueState';
import { PREEMPTIONS_FIELD, preemptionCaveat, prefillCoversDecode, sentenceCase } from '../../../server/shared';
import { ttftWaitedCell, ttftWaitedView } from '../../shared/ttftWaited';
import { targetText } from '../../shared/tailModel';
import { formatCount } from '../../shared/format';

export interface TableColumn {
  /** Stable id, also the sort key: `requestId`, `1.prefillMs`, `1.field:stage_gen_time_ms`. */
  readonly id: RequestSortKey;
  readonly label: string;
  /** Header of the group the column belongs to ('' for the request id). */
  readonly group: string;
  readonly stageKey: string | null;
  readonly width: number;
  /** Clicking sorts slowest first for durations, A→Z for ids. */
  readonly defaultDescending: boolean;
  /** Colour family of the cell's slow mark (a phase), or null for none. */
  readonly phase: string | null;
  /** The stage's p90 of this value: a cell above it is marked slow, so outliers stand out. */
  readonly slowAbove: number | null;
  /** The cell with its explanation (hover, selected row). */
  read(request: AnalyzedRequest): ValueView;
  /** The cell without explanation: what scrolling writes. */
  cell(request: AnalyzedRequest): CellView;
}

const ID_WIDTH = 240;
const VALUE_WIDTH = 100;
/** The longest phase label, `ready queued ▲` when sorted by it, whole in the header's bold font. */
const READY_QUEUED_WIDTH = 120;
/** A one-output stage's prefill: `12,345 +decode`, bold when slow (cells are not clipped). */
const COMBINED_WIDTH = 130;
/** One column per stage (an INFO-level log): room for `stage 1 · code2wav` above it. */
const TIMING_WIDTH = 160;

function hasInputSplit(stage: StageSummary): boolean {
  const c = stage.splitStates.inputWaitMs;
  return c.measured + c.inferred > 0;
}

function splitColumn(stage: StageSummary, group: string, name: SplitName): TableColumn {
  // A one-output stage's prefill covers its decode (oneOutputStage.ts): its cells say so per request.
  const coversDecode = stage.oneOutputRequests > 0 && (name === 'prefillMs' || name === 'decodeMs');
  const oneOutput = (r: AnalyzedRequest): boolean => {
    if (!coversDecode) return false;
    const s = stageOf(r, stage.stageKey);
    return s !== undefined && prefillCoversDecode(r, s);
  };
  const p90 = stage.split[name]?.p90 ?? (name === 'prefillMs' ? stage.prefillDecodeMs?.p90 : undefined);
  return {
    id: `${stage.stageKey}.${name}`,
    label: SPLIT_LABEL[name],
    group,
    stageKey: stage.stageKey,
    width:
      coversDecode && name === 'prefillMs'
        ? COMBINED_WIDTH
        : name === 'readyQueuedMs'
          ? READY_QUEUED_WIDTH
          : VALUE_WIDTH,
    defaultDescending: true,
    phase: name,
    slowAbove: p90 ?? null,
    read: (r) => {
      const view = splitValueView(stageOf(r, stage.stageKey), name, oneOutput(r));
      return name === 'ttftMs' ? ttftWaitedView(view, r, stageOf(r, stage.stageKey)) : view;
    },
    cell: (r) => {
      const view = splitCellView(stageOf(r, stage.stageKey), name, oneOutput(r));
      return name === 'ttftMs' ? ttftWaitedCell(view, r, stageOf(r, stage.stageKey)) : view;
    },
  };
}

function fieldColumn(stage: StageSummary, group: string, field: string, label: string, unit = 'ms'): TableColumn {
  return {
    id: `${stage.stageKey}.field:${field}`,
    label,
    group,
    stageKey: stage.stageKey,
    width: VALUE_WIDTH,
    defaultDescending: true,
    phase: 'total',
    slowAbove: stage.fields[field]?.p90 ?? null,
    read: (r) => fieldValueView(stageOf(r, stage.stageKey), field, unit),
    cell: (r) => fieldCellView(stageOf(r, stage.stageKey), field),
  };
}

/** A stage's [OmniTiming] time, in ms like every other time, wide enough for its stage's name above it; `noTable` as for noTableView. */
function omniTimingColumn(stage: StageSummary, group: string, noTable: NoTableCause): TableColumn {
  const p90 = stage.fields[FIELD_OMNI_TIMING_STAGE]?.p90;
  return {
    ...fieldColumn(stage, group, FIELD_OMNI_TIMING_STAGE, 'time'),
    width: TIMING_WIDTH,
    slowAbove: p90 === undefined ? null : p90 * 1000,
    read: (r) => omniTimingStageView(stageOf(r, stage.stageKey), noTable),
    cell: (r) => omniTimingStageView(stageOf(r, stage.stageKey), noTable),
  };
}

const REPLICA_WIDTH = 70;

/** The replica a request ran on in a stage that ran on several (`None`: printed without one). */
function replicaColumn(stage: StageSummary, group: string): TableColumn {
  const view = (r: AnalyzedRequest): ValueView => {
    const s = stageOf(r, stage.stageKey);
    if (s === undefined) return EMPTY_VIEW;
    if (s.replicaId === null)
      return {
        text: 'None',
        state: 'notMeasured',
        title: 'The log printed this stage of the request without a replica id (None).',
        value: null,
      };
    return {
      text: String(s.replicaId),
      state: 'text',
      title: `Ran on replica ${s.replicaId} of this stage.`,
      value: null,
    };
  };
  return {
    id: `${stage.stageKey}.replica`,
    label: 'replica',
    group,
    stageKey: stage.stageKey,
    width: REPLICA_WIDTH,
    defaultDescending: false,
    phase: null,
    slowAbove: null,
    read: view,
    cell: view,
  };
}

/** How many times the stage preempted the request: the wait to be scheduled again lies in its prefill or its decode (before or after its first token). */
function preemptionsColumn(stage: StageSummary, group: string): TableColumn {
  const column = fieldColumn(stage, group, PREEMPTIONS_FIELD, 'preempted', '');
  // A count: a whole number, not a duration's decimals; hidden, None and the rest as any field.
  const counted = <V extends CellView>(view: V): V =>
    view.state === 'measured' && view.value !== null ? { ...view, text: formatCount(view.value) } : view;
  return {
    ...column,
    width: REPLICA_WIDTH + 10,
    phase: null,
    slowAbove: null,
    cell: (r) => counted(column.cell(r)),
    read: (r) => {
      const view = counted(column.read(r));
      if (view.state !== 'measured' || view.value === null) return view;
      const s = stageOf(r, stage.stageKey);
      const caveat = s === undefined ? null : preemptionCaveat(r, s);
      const printed = `${PREEMPTIONS_FIELD}: printed ${view.text}.`;
      return { ...view, title: caveat === null ? printed : `${printed} ${sentenceCase(caveat)}.` };
    },
  };
}

export const REQUEST_ID_COLUMN: TableColumn = {
  id: 'requestId',
  label: 'request id',
  group: '',
  stageKey: null,
  width: ID_WIDTH,
  defaultDescending: false,
  phase: null,
  slowAbove: null,
  read: (r) => ({
    text: r.requestId,
    state: 'text',
    title: r.cold ? `${r.requestId} (first request after a server start: cold)` : r.requestId,
    value: null,
  }),
  cell: (r) => ({ text: r.requestId, state: 'text', value: null }),
};

/** Wide enough for a pod's tag (`pod/vllm-omni-0/vllm`); a longer one is cut, whole in its tooltip. */
const SERVER_WIDTH = 190;

/** In a log that merges several servers' (kubectl logs --prefix, docker compose logs, stern): the server that printed the request. */
export const SERVER_COLUMN: TableColumn = {
  id: 'server',
  label: 'server',
  group: 'request',
  stageKey: null,
  width: SERVER_WIDTH,
  defaultDescending: false,
  phase: null,
  slowAbove: null,
  read: (r) =>
    r.server === undefined
      ? { text: '', state: 'text', title: "no server's tag on its lines", value: null }
      : {
          text: r.server,
          state: 'text',
          title: `printed by server ${r.server} (its lines' tag in the merged log)`,
          value: null,
        },
  cell: (r) => ({ text: r.server ?? '', state: 'text', value: null }),
};

/** The request's end to end, sorted by the explain target `e2e` (the same value). */
function endToEndColumn(endToEnd: Distribution | null): TableColumn {
  return {
    id: 'target:e2e',
    label: 'e2e',
    group: 'request',
    stageKey: null,
    width: VALUE_WIDTH,
    defaultDescending: true,
    phase: 'total',
    slowAbove: endToEnd?.p90 ?? null,
    read: endToEndView,
    cell: endToEndCellView,
  };
}

/**
 * Request id, the server in a merged log (`servers`), end to end, then per stage: input wait + ready queued when the stage measures
 * the input split (else queued), prefill, decode, TTFT, gen time, and its time to first
 * output where the stage prints one. `noTable`: why a missing stage table is missing (noTableCauseOf).
 */
export function tableColumns(
  stages: readonly StageSummary[],
  stageNames: Readonly<Record<string, string>>,
  timingOnly = false,
  endToEnd: Distribution | null = null,
  replicaStages: ReadonlySet<string> = new Set(),
  noTable: NoTableCause = 'info',
  servers = false,
): TableColumn[] {
  const out: TableColumn[] = [REQUEST_ID_COLUMN, ...(servers ? [SERVER_COLUMN] : []), endToEndColumn(endToEnd)];
  const preempted = stages.some((s) => (s.fields[PREEMPTIONS_FIELD]?.max ?? 0) > 0);
  for (const stage of stages) {
    if (stage.replicaId !== null) continue;
    const group = stageLabel(stage.stageKey, stageNames);
    // A stage on several replicas (SummaryResult.replicas): which one each request ran on.
    if (replicaStages.has(stage.stageKey)) out.push(replicaColumn(stage, group));
    // Only [OmniTiming] lines (no stats tables): the stage's time is all there is.
    if (timingOnly) {
      out.push(omniTimingColumn(stage, group, noTable));
      continue;
    }
    const queued: SplitName[] = hasInputSplit(stage) ? ['inputWaitMs', 'readyQueuedMs'] : ['queuedMs'];
    for (const name of [...queued, 'prefillMs', 'decodeMs', 'ttftMs'] as SplitName[])
      out.push(splitColumn(stage, group, name));
    out.push(fieldColumn(stage, group, FIELD_GEN_TIME, 'gen time'));
    if ((stage.fields[FIELD_FIRST_OUTPUT]?.count ?? 0) > 0)
      out.push(fieldColumn(stage, group, FIELD_FIRST_OUTPUT, '1st output'));
    // Only when some request was preempted (a log that never was has nothing to show), on the stages that printed the row.
    if (preempted && (stage.fields[PREEMPTIONS_FIELD]?.count ?? 0) > 0) out.push(preemptionsColumn(stage, group));
  }
  return out;
}

/** A number above its stage's p90 (only numbers can be slow; unknown is not slow). */
export function isSlow(value: number | null, slowAbove: number | null): boolean {
  return value !== null && slowAbove !== null && slowAbove > 0 && value > slowAbove;
}

/** Same ids in the same order: the header and row cells can be kept. */
export function sameColumns(a: readonly TableColumn[], b: readonly TableColumn[]): boolean {
  return a.length === b.length && a.every((c, i) => c.id === b[i]?.id && c.group === b[i]?.group);
}

export function totalWidth(columns: readonly TableColumn[]): number {
  return columns.reduce((sum, c) => sum + c.width, 0);
}

/** A cell's padding on each side (`.cell` in style.css): a column covered by no more has all its text in view. */
export const CELL_PADDING = 6;

/**
 * The value column partly under the sticky id column at `scrollLeft`, beyond its padding (so
 * its right-aligned text may be cut there: "8,626" would read "26"), or -1. Its text is
 * hidden until it is scrolled clear, so a cut number is never read as a whole one.
 */
export function columnUnderIdColumn(columns: readonly TableColumn[], scrollLeft: number): number {
  const idWidth = columns[0]?.width ?? 0;
  let x = idWidth;
  for (let i = 1; i < columns.length; i++) {
    const w = (columns[i] as TableColumn).width;
    const covered = scrollLeft - (x - idWidth);
    if (covered <= CELL_PADDING) return -1;
    if (covered < w) return i;
    x += w;
  }
  return -1;
}

/**
 * Value columns in horizontal view, [from, to) as column indices (the request id column,
 * index 0, is sticky and always shown). Off-screen cells are not written while scrolling.
 */
export function columnsInView(
  columns: readonly TableColumn[],
  scrollLeft: number,
  viewportWidth: number,
  slack = 1,
): { from: number; to: number } {
  const idWidth = columns[0]?.width ?? 0;
  const left = scrollLeft + idWidth;
  const right = scrollLeft + viewportWidth;
  let x = idWidth;
  let from = columns.length;
  let to = 1;
  for (let i = 1; i < columns.length; i++) {
    const w = (columns[i] as TableColumn).width;
    if (x + w > left && x < right) {
      from = Math.min(from, i);
      to = i + 1;
    }
    x += w;
  }
  if (from >= to) return { from: 1, to: 1 };
  return { from: Math.max(1, from - slack), to: Math.min(columns.length, to + slack) };
}

/** The phase a finding is about, in its stage: the table filtered to the finding shows that column. */
const FINDING_SPLIT: Readonly<Record<string, SplitName>> = {
  'ttft-not-recorded': 'ttftMs',
  'diffusion-ttft-default': 'ttftMs',
  'ttft-no-output': 'ttftMs',
  'prefill-covers-decode': 'prefillMs',
  'queued-includes-input-wait': 'queuedMs',
};

/** Findings about a field rather than one phase: a preemption's wait lies in the prefill or the decode. */
const FINDING_FIELD: Readonly<Record<string, string>> = {
  'preempted-requests': PREEMPTIONS_FIELD,
};

/**
 * The column a finding on `stageId` is about: its phase's (`1.ttftMs`), or its field's
 * (`0.field:vllm_num_preemptions`); null when it names neither.
 */
export function findingColumnId(code: string, stageId: number | null): RequestSortKey | null {
  if (stageId === null) return null;
  const field = FINDING_FIELD[code];
  if (field !== undefined) return `${stageId}.field:${field}`;
  const split = FINDING_SPLIT[code];
  return split === undefined ? null : `${stageId}.${split}`;
}

/** The column holding an explain target's value: `stage1.firstOutput` is stage 1's 1st output, `stage1.ttft` its TTFT. */
export function targetColumnId(target: string): RequestSortKey | null {
  if (target === 'e2e') return 'target:e2e';
  const m = /^stage([\d_]+)\.(firstOutput|ttft)$/.exec(target);
  if (m === null) return null;
  return m[2] === 'ttft' ? `${m[1]}.ttftMs` : `${m[1]}.field:${FIELD_FIRST_OUTPUT}`;
}

/**
 * scrollLeft that brings column `id` whole into view beside the sticky id column, moving as
 * little as it can from `scrollLeft` (so that a stage just brought into view stays as much in
 * view as the column allows). null when the table has no such column.
 */
export function scrollLeftToShowColumn(
  columns: readonly TableColumn[],
  id: RequestSortKey,
  scrollLeft: number,
  viewportWidth: number,
): number | null {
  const idWidth = columns[0]?.width ?? 0;
  let x = idWidth;
  let start = -1;
  for (let i = 1; i < columns.length; i++) {
    const c = columns[i] as TableColumn;
    if (c.id === id) start = x;
    x += c.width;
  }
  if (start < 0) return null;
  const end = start + (columns.find((c) => c.id === id) as TableColumn).width;
  let left = scrollLeft;
  if (end > left + viewportWidth) left = snapToColumn(columns, end - viewportWidth);
  if (start < left + idWidth) left = start - idWidth;
  return Math.min(Math.max(0, x - viewportWidth), Math.max(0, left));
}

/**
 * The smallest scrollLeft from `left` on at which a column starts right after the sticky id
 * column: no column is half under it (its header would read "out wait" for "input wait").
 */
function snapToColumn(columns: readonly TableColumn[], left: number): number {
  const idWidth = columns[0]?.width ?? 0;
  let x = idWidth;
  for (let i = 1; i < columns.length; i++) {
    if (x - idWidth >= left) return x - idWidth;
    x += (columns[i] as TableColumn).width;
  }
  return left;
}

/**
 * scrollLeft that brings the columns of stage `stageId` into view beside the sticky id
 * column: unchanged when they are all visible already, else the stage's first column right
 * after the id column (as many of its columns as fit). null when the table has no column of
 * that stage (yet).
 */
export function scrollLeftToShowStage(
  columns: readonly TableColumn[],
  stageId: number,
  scrollLeft: number,
  viewportWidth: number,
): number | null {
  const idWidth = columns[0]?.width ?? 0;
  let x = idWidth;
  let start = -1;
  let end = -1;
  for (let i = 1; i < columns.length; i++) {
    const c = columns[i] as TableColumn;
    if (c.stageKey !== null && stageIdOfKey(c.stageKey) === String(stageId)) {
      if (start < 0) start = x;
      end = x + c.width;
    }
    x += c.width;
  }
  if (start < 0) return null;
  const visibleLeft = scrollLeft + idWidth;
  const visibleRight = scrollLeft + viewportWidth;
  if (start >= visibleLeft && end <= visibleRight) return scrollLeft;
  const max = Math.max(0, x - viewportWidth);
  return Math.min(max, Math.max(0, start - idWidth));
}

/** The footer's name of a sort: the column's header words, or a target's words ("time to first audio (stage 1 · code2wav)"). */
export function sortKeyLabel(
  key: RequestSortKey,
  columns: readonly TableColumn[],
  stageNames: Readonly<Record<string, string>>,
): string {
  const col = columns.find((c) => c.id === key);
  if (col !== undefined) return col.group === '' ? col.label : `${col.group} ${col.label}`;
  return key.startsWith('target:') ? targetText(key.slice('target:'.length), stageNames) : key;
}
