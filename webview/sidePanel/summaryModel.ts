// The side panel's table as data: one row per stage, one cell per column, each cell a
// ValueView plus the length of its bar. DOM-free, so the views only diff and copy.
import type { Percentile, SplitName, StageSummary, SummaryResult } from '../../server/protocol';
import {
  FIELD_AUDIO_DURATION,
  FIELD_FIRST_OUTPUT,
  FIELD_GEN_TIME,
  SPLIT_LABEL,
  stageLabel,
  stageRole,
} from '../shared/labels';
import {
  rankedPhaseLabel,
  SLOWEST_PHASE_RULE,
  SLOWEST_PHASE_TEXT,
  slowestPhaseCaveats,
  slowestPhaseOf,
  targetLabel,
  TTFT_WAITED_MARK,
  TTFT_WAITED_TEXT,
} from '../../server/shared';
import type { ValueView } from '../shared/valueState';
import { distributionView, EXPLAIN, summaryFieldView, summarySplitView } from '../shared/valueState';
import { formatCompact, formatCount } from '../shared/format';
import { headlineFigure } from '../shared/headlineFigure';

/** Bars are scaled within a group: phases together (so the slow phase of the slow stage is longest), totals together. */
export type ColumnGroup = 'phase' | 'total' | 'audio' | 'token';

export interface SummaryColumn {
  readonly id: string;
  readonly label: string;
  readonly unit: string;
  readonly group: ColumnGroup;
  readonly help: string;
}

export interface SummaryCell extends ValueView {
  /** 0..1 of the largest value in the column's group. */
  readonly ratio: number;
  /** A value of another kind than the rows around it (a time per token among durations): no bar. */
  readonly barless?: boolean;
  /** The slowest phase of the table (slowest.ts), at the percentile shown. */
  readonly hot: boolean;
}

/** Which cell is the slowest phase, in words. */
export interface SlowestPhase {
  readonly stageKey: string;
  readonly column: string;
  readonly value: number;
  /** `slowest phase (p50): stage 1 · code2wav decode 1,293 ms`. */
  readonly text: string;
  /** The rule, for the hover. */
  readonly title: string;
  /** What a reader must know to weigh it (slowestPhaseCaveats): a prefill+decode in one number, a larger unranked upstream wait. */
  readonly caveats: readonly string[];
}

export interface SummaryRow {
  readonly key: string;
  readonly label: string;
  readonly role: string;
  readonly replica: number | null;
  /** Requests (or observations) behind the row; null when unknown. */
  readonly requestCount: number | null;
  /** Where a /metrics row's count comes from (a per-request family); absent for log rows. */
  readonly countSource?: string | null;
  /** What the count counts, for a row that is no stage (end to end, a per-request total): `n` → its tooltip. */
  readonly countTitle?: (formatted: string) => string;
  readonly stageId: number | null;
  readonly cells: Readonly<Record<string, SummaryCell>>;
}

export interface SummaryModel {
  readonly columns: readonly SummaryColumn[];
  readonly rows: readonly SummaryRow[];
  /** The slowest phase, when some stage row ranks one (never a one-output stage's prefill+decode). */
  readonly slowest?: SlowestPhase | null;
  /** Some cell shows a negative +1st output, marked `*`: the table's note says what it means. */
  readonly negativeAdded?: boolean;
  /** Some TTFT cell is marked `†` (it includes a wait for upstream output): the table's note says what it means. */
  readonly ttftWaited?: boolean;
  /** Printed values left out of a row's percentiles, said under the table in the CLI's words; absent: none. */
  readonly leftOut?: readonly string[];
}

const split = (id: SplitName, help: string): SummaryColumn => ({
  id,
  label: SPLIT_LABEL[id],
  unit: 'ms',
  group: 'phase',
  help,
});

const INPUT_WAIT = split('inputWaitMs', 'QUEUED → the step the stage input was ready (vllm_input_wait_ms).');
const READY_QUEUED = split(
  'readyQueuedMs',
  'input ready → first SCHEDULED: waiting for a scheduling slot (vllm_ready_queued_ms).',
);
const BASE_COLUMNS: readonly SummaryColumn[] = [
  split('queuedMs', 'QUEUED → first SCHEDULED (vllm_queued_ms); includes input wait.'),
  split('prefillMs', 'first SCHEDULED → first token (vllm_prefill_ms).'),
  split('decodeMs', 'first token → last token (vllm_decode_ms).'),
  {
    id: 'ttftMs',
    label: 'TTFT',
    unit: 'ms',
    group: 'total',
    help: 'Stage-local TTFT (vllm_ttft_ms); never subtract across stages.',
  },
  {
    id: `field:${FIELD_GEN_TIME}`,
    label: 'gen time',
    unit: 'ms',
    group: 'total',
    help: 'Stage submit → stage finished (stage_gen_time_ms); includes queueing.',
  },
  {
    id: `field:${FIELD_FIRST_OUTPUT}`,
    label: 'first output',
    unit: 'ms',
    group: 'total',
    help: "Client request arrival → this stage's first output (serving_time_to_first_output_ms).",
  },
  {
    id: 'added',
    label: '+ first output',
    unit: 'ms',
    group: 'total',
    help: "Time this stage adds to the time to first output: its first output minus the previous stage's, within each request.",
  },
];
const AUDIO: SummaryColumn = {
  id: `field:${FIELD_AUDIO_DURATION}`,
  label: 'audio',
  unit: 's',
  group: 'audio',
  help: 'Audio duration produced (audio_duration_s).',
};

function hasSplit(stages: readonly StageSummary[], name: SplitName): boolean {
  return stages.some((s) => s.splitStates[name].measured + s.splitStates[name].inferred > 0);
}

export function summaryColumns(stages: readonly StageSummary[]): SummaryColumn[] {
  const out: SummaryColumn[] = [];
  if (hasSplit(stages, 'inputWaitMs') || hasSplit(stages, 'readyQueuedMs')) out.push(INPUT_WAIT, READY_QUEUED);
  out.push(...BASE_COLUMNS);
  if (stages.some((s) => s.fields[FIELD_AUDIO_DURATION] !== undefined)) out.push(AUDIO);
  return out;
}

/**
 * An upstream stage (a talker) hands codes to the next stage and produces no audio itself:
 * its audio_duration_s is the field's default 0 on every request, not a measured silence.
 * The last stage keeps its zeros: no audio there is worth seeing.
 */
function noAudioOfItsOwn(stage: StageSummary, stages: readonly StageSummary[]): ValueView | null {
  const audio = stage.fields[FIELD_AUDIO_DURATION];
  const id = stage.stageId;
  if (audio === undefined || audio.max !== 0 || id === null) return null;
  if (!stages.some((other) => other.stageId !== null && other.stageId > id)) return null;
  return {
    text: 'no audio',
    state: 'empty',
    title: `audio_duration_s is 0 on all ${audio.count} requests of this stage: it hands its output to the next stage and produces no audio itself (0 is the field's default, not a measured silence).`,
    value: null,
  };
}

function cellView(
  stage: StageSummary,
  column: SummaryColumn,
  pct: Percentile,
  stages: readonly StageSummary[],
  waitedTtft: ReadonlyMap<number, number>,
): ValueView {
  if (column.id === 'added') {
    const view = distributionView(
      stage.addedTimeToFirstOutputMs,
      pct,
      'added time to first output',
      "needs this and the previous stage's first output in the same request (the first stage adds nothing to compare).",
    );
    // Marked and explained, as the CLI's table does: the number is real arithmetic on a first output that is not what it seems.
    return view.value !== null && view.value < 0
      ? { ...view, text: `${view.text}*`, title: `${view.title} ${EXPLAIN.negativeAdded}` }
      : view;
  }
  if (column.id.startsWith('field:')) {
    const field = column.id.slice('field:'.length);
    if (column === AUDIO) {
      const none = noAudioOfItsOwn(stage, stages);
      if (none !== null) return none;
    }
    return summaryFieldView(stage, field, column.unit, pct, column.group === 'audio' ? 'empty' : 'hidden');
  }
  const view = summarySplitView(stage, column.id as SplitName, pct);
  // Marked and explained as the CLI's table marks it: this TTFT is not the stage's own queueing and prefill.
  const waited = column.id === 'ttftMs' && stage.stageId !== null ? waitedTtft.get(stage.stageId) : undefined;
  return waited === undefined || view.value === null
    ? view
    : {
        ...view,
        text: `${view.text}${TTFT_WAITED_MARK}`,
        title: `${view.title} ${TTFT_WAITED_MARK} ${TTFT_WAITED_TEXT}, on ${waited} request${waited === 1 ? '' : 's'}.`,
      };
}

/** Each stage's row, then its replicas' rows (in id order) when it ran on several: as the CLI's table prints them. */
export function withReplicas(
  stages: readonly StageSummary[],
  replicas: readonly StageSummary[],
): readonly StageSummary[] {
  if (replicas.length === 0) return stages;
  const out: StageSummary[] = [];
  for (const stage of stages) {
    out.push(stage);
    if (stage.replicaId !== null) continue;
    const own = replicas.filter((r) => r.stageKey === stage.stageKey && r.replicaId !== null);
    own.sort((a, b) => (a.replicaId ?? 0) - (b.replicaId ?? 0));
    for (const r of own) out.push(r);
  }
  return out;
}

export function summaryModel(
  summary: SummaryResult,
  pct: Percentile,
  stageNames: Readonly<Record<string, string>>,
): SummaryModel {
  const columns = summaryColumns(summary.stages);
  // Stage id -> requests whose TTFT waited upstream (finding ttft-includes-upstream-wait).
  const waitedTtft = new Map<number, number>();
  for (const f of summary.findings)
    if (f.code === 'ttft-includes-upstream-wait' && f.stageId !== null) waitedTtft.set(f.stageId, f.requestCount);
  const views = withReplicas(summary.stages, summary.replicas ?? []).map((stage) => ({
    stage,
    views: columns.map((c) => cellView(stage, c, pct, summary.stages, waitedTtft)),
  }));
  // Bars compare stage rows only (replica rows would double count).
  const groupMax = new Map<ColumnGroup, number>();
  for (const { stage, views: vs } of views) {
    if (stage.replicaId !== null) continue;
    vs.forEach((v, i) => {
      const col = columns[i] as SummaryColumn;
      if (v.value !== null && v.value > 0) groupMax.set(col.group, Math.max(groupMax.get(col.group) ?? 0, v.value));
    });
  }
  // The CLI's rule and numbers (slowest.ts). A one-output stage's prefill+decode is shown in its
  // prefill cell ("1,367 +decode"): that cell is the one marked.
  const hit = slowestPhaseOf(summary.stages, pct);
  const slowId = hit === null ? undefined : hit.name === 'prefillDecodeMs' ? 'prefillMs' : hit.name;
  const slowColumn = columns.find((c) => c.id === slowId);
  const slow =
    hit === null || slowColumn === undefined
      ? null
      : { stage: hit.stage, column: slowColumn, label: rankedPhaseLabel(hit.name), value: hit.value };
  const rows = views.map(({ stage, views: vs }): SummaryRow => {
    const cells: Record<string, SummaryCell> = {};
    vs.forEach((v, i) => {
      const col = columns[i] as SummaryColumn;
      const max = groupMax.get(col.group) ?? 0;
      const ratio = v.value === null || max <= 0 ? 0 : Math.max(0, Math.min(1, v.value / max));
      cells[col.id] = { ...v, ratio, hot: slow !== null && stage === slow.stage && col === slow.column };
    });
    return {
      key: stage.replicaId === null ? stage.stageKey : `${stage.stageKey}/${stage.replicaId}`,
      label: stage.replicaId === null ? `stage ${stage.stageKey}` : `replica ${stage.replicaId}`,
      // A replica row sits under its stage's, which names the role.
      role: stage.replicaId === null ? stageRole(stage.stageKey, stageNames) : '',
      replica: stage.replicaId,
      requestCount: stage.requestCount,
      stageId: stage.stageId,
      cells,
    };
  });
  const slowest: SlowestPhase | null =
    slow === null
      ? null
      : {
          stageKey: slow.stage.stageKey,
          column: slow.column.id,
          value: slow.value,
          text: `${SLOWEST_PHASE_TEXT} (${pct}): ${stageLabel(slow.stage.stageKey, stageNames)} ${slow.label} ${formatCompact(slow.value)} ms`,
          title: `${SLOWEST_PHASE_TEXT}: ${SLOWEST_PHASE_RULE}; over the stage rows at ${pct}.`,
          caveats: hit === null ? [] : slowestPhaseCaveats(summary.stages, hit, pct, formatCompact, stageNames),
        };
  const negativeAdded = views.some(({ views: vs }) =>
    vs.some((v, i) => columns[i]?.id === 'added' && v.value !== null && v.value < 0),
  );
  const ttftWaited = views.some(({ views: vs }) =>
    vs.some((v, i) => columns[i]?.id === 'ttftMs' && v.text.endsWith(TTFT_WAITED_MARK)),
  );
  return { columns, rows, slowest, negativeAdded, ttftWaited };
}

export interface Headline {
  readonly label: string;
  /** false: one value (one [Overall Summary] table), the same at every percentile and not one. */
  readonly percentiles: boolean;
  readonly p50: number | null;
  readonly p90: number | null;
  readonly p99: number | null;
}

/**
 * The trend's headline: the status bar's figure (headlineFigure.ts: the time to first output of
 * the last stage that measured one, else end to end, ...). Named as explain and the tail name the
 * target (`time to first audio (stage 2 · code2wav)` where the stage's role outputs audio), so one
 * number has one name.
 */
export function headline(summary: SummaryResult, stageNames: Readonly<Record<string, string>> = {}): Headline | null {
  const figure = headlineFigure(summary);
  if (figure === null) return null;
  const d = figure.ms;
  const percentiles = { percentiles: true, p50: d.p50, p90: d.p90, p99: d.p99 };
  switch (figure.kind) {
    case 'firstOutput':
      return { label: targetLabel(`stage${figure.stageKey}.firstOutput`, stageNames), ...percentiles };
    case 'e2e':
      return { label: 'end to end', ...percentiles };
    case 'genTime': {
      const role = stageRole(figure.stageKey, stageNames);
      return { label: `stage ${figure.stageKey} gen time${role === '' ? '' : ` (${role})`}`, ...percentiles };
    }
    case 'overallWall':
      return d.count === 1
        ? {
            label: 'e2e wall time of the [Overall Summary] table',
            percentiles: false,
            p50: d.max,
            p90: d.max,
            p99: d.max,
          }
        : { label: `e2e wall time over ${formatCount(d.count)} [Overall Summary] tables`, ...percentiles };
  }
}

/** The trend's words: `p90 time to first audio (stage 2 · code2wav)`; one value is not named a percentile. */
export function trendLabel(head: Pick<Headline, 'label' | 'percentiles'> | null, pct: Percentile): string {
  if (head === null) return '';
  return head.percentiles ? `${pct} ${head.label}` : head.label;
}
