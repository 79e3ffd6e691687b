// The metrics a comparison covers, where each value of a request comes from, and how a
// value that is not a number is counted instead (docs/formats.md#values-and-their-states: not measured is
// not zero). One place, so the CLI rules, the tables and the editor view agree.
import type { AnalyzedRequest, RequestStage, RequestTransfer, SplitName, SplitState } from '../analysis/types';
import type { EdgeMetric, MetricId, StageMetric, UnknownReason } from './types';
import { EDGE_METRICS, REQUEST_METRICS, STAGE_METRICS } from './types';
import { prefillCoversDecode, PREFILL_DECODE_LABEL } from '../analysis/oneOutputStage';
import { e2eNotRecorded, endToEndOf } from '../analysis/endToEnd';
import { OMNI_TIMING_STAGE_FIELD } from '../analysis/stageBuilder';
import { FIRST_OUTPUT_FIELD, unrecordedReason } from '../analysis/unrecordedValues';

export interface MetricInfo {
  readonly id: MetricId;
  /** Short label for tables. */
  readonly label: string;
  /** Where the value comes from, for help texts and tooltips. */
  readonly source: string;
}

export const METRIC_INFO: Readonly<Record<MetricId, MetricInfo>> = {
  queued: { id: 'queued', label: 'queued', source: 'vllm_queued_ms' },
  inputWait: {
    id: 'inputWait',
    label: 'input wait',
    source: 'vllm_input_wait_ms (inferred 0 when only its pair was printed)',
  },
  readyQueued: {
    id: 'readyQueued',
    label: 'ready queued',
    source: 'vllm_ready_queued_ms (inferred 0 when only its pair was printed)',
  },
  prefill: { id: 'prefill', label: 'prefill', source: 'vllm_prefill_ms' },
  decode: { id: 'decode', label: 'decode', source: 'vllm_decode_ms' },
  prefillDecode: {
    id: 'prefillDecode',
    label: PREFILL_DECODE_LABEL,
    source:
      'vllm_prefill_ms of a stage that emits one output when it stops (Model Runner V2 + async chunk): it covers the decode steps too',
  },
  ttft: {
    id: 'ttft',
    label: 'TTFT',
    source: 'vllm_ttft_ms (stage-local; "not recorded" under the codec first-audio signature)',
  },
  genTime: {
    id: 'genTime',
    label: 'gen time',
    source: 'stage_gen_time_ms ([OmniTiming] stage seconds when the log has no stage table)',
  },
  firstOutput: {
    id: 'firstOutput',
    label: '1st output',
    source:
      'serving_time_to_first_output_ms (0.0 is its default for "no output": left out; a negative value is not recorded)',
  },
  addedFirstOutput: {
    id: 'addedFirstOutput',
    label: '+1st output',
    source: 'time to first output added by this stage, computed within each request',
  },
  e2e: {
    id: 'e2e',
    label: 'e2e',
    source: "e2e_total_ms of RequestE2EStats, else the [OmniTiming] total=, else an older format's e2e_time_ms",
  },
  edgeTx: { id: 'edgeTx', label: 'send (tx)', source: "tx_time_ms of the edge's TransferEdgeStats column" },
  edgeInFlight: {
    id: 'edgeInFlight',
    label: 'in flight',
    source: "in_flight_time_ms of the edge's TransferEdgeStats column",
  },
  edgeRxDecode: {
    id: 'edgeRxDecode',
    label: 'receive+decode',
    source: "rx_decode_time_ms of the edge's TransferEdgeStats column",
  },
  edgeOmniTimingTx: {
    id: 'edgeOmniTimingTx',
    label: 'send ([OmniTiming])',
    source: '[OmniTiming] transfers=[from->to=N ms]; 0.00 with no payload transfer recorded is "not recorded", never 0',
  },
};

export const ALL_METRICS: readonly MetricId[] = [...STAGE_METRICS, ...EDGE_METRICS, ...REQUEST_METRICS];

/** The TransferEdgeStats field of each edge metric. */
const EDGE_FIELD: Readonly<Record<Exclude<EdgeMetric, 'edgeOmniTimingTx'>, string>> = {
  edgeTx: 'tx_time_ms',
  edgeInFlight: 'in_flight_time_ms',
  edgeRxDecode: 'rx_decode_time_ms',
};

/**
 * The value of an edge metric for one transfer edge of a request. `tableNotPrinted`: the edge's
 * TransferEdgeStats column was not printed at all (edgeTableNotPrinted), not hidden.
 */
export function edgeMetricValue(transfer: RequestTransfer, metric: EdgeMetric, tableNotPrinted = false): MetricValue {
  if (metric === 'edgeOmniTimingTx') {
    if (
      transfer.omniTimingTxState === 'measured' &&
      transfer.omniTimingTxMs !== null &&
      Number.isFinite(transfer.omniTimingTxMs)
    )
      return { value: transfer.omniTimingTxMs, inferred: false };
    return transfer.omniTimingTxState === 'notRecorded' ? UNKNOWN.notRecorded : UNKNOWN.hidden;
  }
  if (tableNotPrinted) return UNKNOWN.noStageTable;
  const cell = transfer.fields[EDGE_FIELD[metric]];
  if (cell === undefined) return UNKNOWN.hidden;
  if (cell.state === 'measured')
    return unrecordedReason(EDGE_FIELD[metric], cell.value) === null
      ? { value: cell.value, inferred: false }
      : UNKNOWN.notRecorded;
  return UNKNOWN.notMeasured;
}

export function isEdgeScope(scope: string): boolean {
  return scope.includes('->');
}

const SPLIT_OF: Partial<Record<StageMetric, SplitName>> = {
  queued: 'queuedMs',
  inputWait: 'inputWaitMs',
  readyQueued: 'readyQueuedMs',
  prefill: 'prefillMs',
  decode: 'decodeMs',
  ttft: 'ttftMs',
};

/** [OmniTiming] prints seconds with 2 decimals: its figures step by 10 ms, the stats tables' by 0.001 ms. */
export const OMNI_TIMING_STEP_MS = 10;

/**
 * One value of a request: a number (whether it was inferred; `coarse` when it is an [OmniTiming]
 * figure, to OMNI_TIMING_STEP_MS), or why there is none.
 */
export type MetricValue =
  { readonly value: number; readonly inferred: boolean; readonly coarse?: true } | { readonly unknown: UnknownReason };

/** One shared value per reason: a 100k-request run reports millions of them. */
const UNKNOWN: Readonly<Record<UnknownReason, MetricValue>> = {
  notMeasured: Object.freeze({ unknown: 'notMeasured' }),
  hidden: Object.freeze({ unknown: 'hidden' }),
  notRecorded: Object.freeze({ unknown: 'notRecorded' }),
  noOutput: Object.freeze({ unknown: 'noOutput' }),
  notComputable: Object.freeze({ unknown: 'notComputable' }),
  oneOutput: Object.freeze({ unknown: 'oneOutput' }),
  noStageTable: Object.freeze({ unknown: 'noStageTable' }),
  noTransferTable: Object.freeze({ unknown: 'noTransferTable' }),
};

const UNKNOWN_OF_SPLIT: Readonly<Record<Exclude<SplitState, 'measured' | 'inferred'>, UnknownReason>> = {
  notMeasured: 'notMeasured',
  hidden: 'hidden',
  notRecorded: 'notRecorded',
};

function fieldValue(stage: RequestStage, name: string): MetricValue {
  const cell = stage.fields[name];
  if (cell === undefined) return UNKNOWN.hidden;
  if (cell.state === 'measured') {
    // A printed number that is not a measurement (unrecordedValues.ts): its reason, never a value.
    const reason = unrecordedReason(name, cell.value);
    if (reason === null) return { value: cell.value, inferred: false };
    return reason === 'noOutput' ? UNKNOWN.noOutput : UNKNOWN.notRecorded;
  }
  return UNKNOWN.notMeasured;
}

/**
 * The value of a stage metric for one stage of one request; null when the metric does not
 * apply (prefillDecode on a stage whose prefill is prefill alone).
 */
export function stageMetricValue(
  request: AnalyzedRequest,
  stage: RequestStage,
  metric: StageMetric,
  oneOutput = prefillCoversDecode(request, stage),
): MetricValue | null {
  // A stage known only from [OmniTiming] has its time and nothing else: no table was printed.
  if (stage.fields[OMNI_TIMING_STAGE_FIELD] !== undefined && metric !== 'genTime') return UNKNOWN.noStageTable;
  // A one-output stage's vllm_prefill_ms is prefill+decode: compared as that, never as prefill.
  if (metric === 'prefillDecode')
    return oneOutput ? { value: stage.split.values.prefillMs as number, inferred: false } : null;
  if (oneOutput && (metric === 'prefill' || metric === 'decode')) return UNKNOWN.oneOutput;
  const split = SPLIT_OF[metric];
  if (split !== undefined) {
    const state = stage.split.states[split];
    const value = stage.split.values[split];
    if ((state === 'measured' || state === 'inferred') && value !== null)
      return { value, inferred: state === 'inferred' };
    return UNKNOWN[state === 'measured' || state === 'inferred' ? 'hidden' : UNKNOWN_OF_SPLIT[state]];
  }
  switch (metric) {
    case 'genTime': {
      const gen = fieldValue(stage, 'stage_gen_time_ms');
      if ('value' in gen) return gen;
      const timing = stage.fields[OMNI_TIMING_STAGE_FIELD];
      if (timing !== undefined && timing.state === 'measured')
        return { value: timing.value * 1000, inferred: false, coarse: true };
      return gen;
    }
    case 'firstOutput':
      return fieldValue(stage, FIRST_OUTPUT_FIELD);
    case 'addedFirstOutput': {
      const added = request.derived.addedTimeToFirstOutputMs[stage.stageKey];
      return added === undefined ? UNKNOWN.notComputable : { value: added, inferred: false };
    }
    default:
      return UNKNOWN.hidden;
  }
}

/**
 * The end-to-end time of a request, as analyze and explain take it: e2e_total_ms of its
 * RequestE2EStats, else its [OmniTiming] total= (an INFO-level log prints only that line), else
 * an older format's e2e_time_ms (endToEndOf).
 * Hidden only where an E2E table was printed without the row.
 */
export function e2eValue(request: AnalyzedRequest): MetricValue {
  const e2e = endToEndOf(request);
  if (e2e !== null && Number.isFinite(e2e.ms))
    return e2e.from === 'omniTiming'
      ? { value: e2e.ms, inferred: false, coarse: true }
      : { value: e2e.ms, inferred: false };
  if (e2eNotRecorded(request)) return UNKNOWN.notRecorded;
  const tablePrinted = Object.keys(request.e2e).length > 0;
  return tablePrinted && request.e2e['e2e_total_ms'] === undefined ? UNKNOWN.hidden : UNKNOWN.notMeasured;
}

/** `inputWait`, `input_wait`, `INPUT-WAIT` -> `inputWait`; undefined when unknown. */
export function metricByName(name: string): MetricId | undefined {
  const key = name.replace(/[-_]/g, '').toLowerCase();
  return ALL_METRICS.find((m) => m.toLowerCase() === key);
}

export function isRequestMetric(metric: MetricId): boolean {
  return (REQUEST_METRICS as readonly string[]).includes(metric);
}

export function isEdgeMetric(metric: MetricId): metric is EdgeMetric {
  return (EDGE_METRICS as readonly string[]).includes(metric);
}
