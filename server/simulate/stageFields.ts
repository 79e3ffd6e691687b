// Derives every printed value of a request from its event times, per stats build:
// the StageRequestStats rows, the E2E and Overall Summary fields, the transfer
// columns and the [OmniTiming] line. The relations of the stage fields (docs/formats.md#stage-fields) follow from
// the derivations (queued = input wait + ready queued, TTFT >= queued + prefill,
// stage_gen_time >= queued + prefill + decode, e2e >= every stage's gen time).
import { pyFixed } from './pyFormat';
import { int, type PyValue } from './render';
import { ms, sec, type EngineOutput, type Micros, type RequestRun, type StageRun } from './timeline';

/** Which server build's stats code the simulator imitates. */
export interface StatsBuild {
  /** The codec first-audio fix (seed 000). Without it the codec's TTFT and split are lost. */
  readonly codecFirstAudioFix: boolean;
  /** `vllm_input_wait_ms` / `vllm_ready_queued_ms` (seed 001). */
  readonly inputSplit: boolean;
  /** Diffusion `_s` keys with the missing-value rule (seed 004); else `_ms` ints and 0 for "not measured". */
  readonly diffusionMissingValueRule: boolean;
}

export const FIXED_BUILD: StatsBuild = { codecFirstAudioFix: true, inputSplit: true, diffusionMissingValueRule: true };

export type Row = Record<string, PyValue>;

const diffs = (xs: readonly Micros[]): number[] => xs.slice(1).map((x, i) => ms(x - xs[i]!));
const mean = (xs: readonly number[]): number => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);

/** The phase values of an LLM stage as its stats code records them; null = not recorded. */
export interface LlmPhases {
  readonly queuedMs: number;
  readonly inputWaitMs: number | null;
  readonly readyQueuedMs: number | null;
  readonly prefillMs: number | null;
  readonly decodeMs: number | null;
  /** 0.0 when the first-token time was never set (the pre-fix codec). */
  readonly ttftMs: number;
  readonly itlsMs: number[];
  readonly tpotMs: number;
  readonly numPreemptions: number;
  /** Whether this stage shows the pre-fix codec signature (seed 000). */
  readonly codecSignature: boolean;
}

/**
 * The timestamp the stats code sees for an output. Before the fix, outputs held for
 * the first-audio frame were replayed in a wrapper stamped at replay time.
 */
export function statsTimestamp(o: EngineOutput, build: StatsBuild): Micros {
  return !build.codecFirstAudioFix && o.heldForFirstAudio ? o.handledTs : o.engineTs;
}

export function llmPhases(stage: StageRun, build: StatsBuild): LlmPhases | null {
  const llm = stage.llm;
  if (llm === null) return null;
  const outs = llm.outputs;
  const ts = outs.map((o) => statsTimestamp(o, build));
  const first = ts[0]!;
  const last = ts[ts.length - 1]!;
  const codecSignature = stage.firstAudioTs !== null && !build.codecFirstAudioFix;
  const gated = llm.inputReadyTs !== null;
  const itlsMs = diffs(ts);
  const decodeMs = ms(last - first);
  return {
    queuedMs: ms(llm.scheduledTs - llm.queuedTs),
    inputWaitMs: gated ? ms(llm.inputReadyTs! - llm.queuedTs) : null,
    readyQueuedMs: gated ? ms(llm.scheduledTs - llm.inputReadyTs!) : null,
    // The stage request's arrival_time is its submit; TTFT ends when the output
    // processor handles the first output with stats (after replay, for held outputs).
    ttftMs: codecSignature ? 0 : ms(outs[0]!.handledTs - stage.submitTs),
    prefillMs: codecSignature ? null : ms(first - llm.scheduledTs),
    decodeMs: codecSignature ? null : decodeMs,
    itlsMs,
    tpotMs: codecSignature ? mean(itlsMs) : llm.generationTokens > 1 ? decodeMs / (llm.generationTokens - 1) : 0,
    numPreemptions: llm.numPreemptions,
    codecSignature,
  };
}

/** Diffusion dict keys as flattened into the stage row (docs/formats.md#diffusion-keys). */
function diffusionKeys(stage: StageRun, build: StatsBuild): Row {
  const d = stage.diffusion;
  if (d === null) return {};
  if (!build.diffusionMissingValueRule) {
    // [M]-era build: `_ms` names, truncated ints, 0.0 written for "not measured".
    const i = (us: Micros): PyValue => int(Math.trunc(ms(us)));
    const row: Row = {
      preprocess_time_ms: i(d.preprocessUs ?? 0),
      diffusion_engine_exec_time_ms: i(d.execUs),
      output_ready_wait_time_ms: i(d.outputReadyWaitUs ?? 0),
      postprocess_time_ms: i(d.postprocessUs),
      scheduler_num_waiting_reqs: int(d.schedulerWaitingReqs),
      scheduler_queue_wait_ms: i(d.schedulerQueueWaitUs),
    };
    if (d.vaeDecodeUs !== null) row['vae_decode_time_ms'] = i(d.vaeDecodeUs);
    if (d.forwardUs !== null) row['forward_time_ms'] = i(d.forwardUs);
    if (d.kvRecvUs !== null && d.kvRecvUs > 0) row['kv_recv_time_ms'] = i(d.kvRecvUs);
    return row;
  }
  // Missing-value rule: a key exists only when its interval was measured; a measured 0 stays.
  // The accumulator adds every value as a float, so counts print as floats too (`1.000`).
  const row: Row = {
    diffusion_engine_exec_time_s: sec(d.execUs),
    postprocess_time_s: sec(d.postprocessUs),
    scheduler_num_waiting_reqs: d.schedulerWaitingReqs,
    scheduler_queue_wait_s: sec(d.schedulerQueueWaitUs),
  };
  if (d.preprocessUs !== null) row['preprocess_time_s'] = sec(d.preprocessUs);
  if (d.outputReadyWaitUs !== null) row['output_ready_wait_time_s'] = sec(d.outputReadyWaitUs);
  if (d.vaeDecodeUs !== null) row['vae_decode_time_s'] = sec(d.vaeDecodeUs);
  if (d.forwardUs !== null) row['forward_time_s'] = sec(d.forwardUs);
  if (d.kvRecvUs !== null && d.kvRecvUs > 0) row['kv_recv_time_s'] = sec(d.kvRecvUs);
  return row;
}

/** One stage's column of the [StageRequestStats] table (keys as the dataclass has them). */
export function stageRow(req: RequestRun, stage: StageRun, batchId: number, build: StatsBuild): Row {
  const handled = stage.outputHandledTs;
  const outputLatencies = diffs(handled);
  const count = handled.length;
  const firstOutput = handled[0];
  const genMs = ms(stage.finishTs - stage.submitTs);
  const d = stage.diffusion;
  const row: Row = {
    batch_id: int(batchId),
    batch_size: int(1),
    num_tokens_in: int(stage.numTokensIn),
    num_tokens_out: int(stage.numTokensOut),
    stage_gen_time_ms: genMs,
    replica_id: int(stage.replicaId),
    postprocess_time_ms: ms(stage.postprocessUs),
    audio_generated_frames: int(stage.audioSamples),
    audio_sample_rate: int(stage.sampleRate),
    audio_duration_s: stage.audioSamples > 0 && stage.sampleRate > 0 ? stage.audioSamples / stage.sampleRate : 0,
    image_pixels: int(d?.imagePixels ?? 0),
    num_inference_steps: int(d?.steps ?? 0),
    denoise_step_latency_ms: d === null ? 0 : d.forwardUs !== null ? ms(d.forwardUs) / d.steps : genMs / d.steps,
    output_unit_type: stage.outputUnitType,
    output_unit_count: int(count),
    serving_time_to_first_output_ms: firstOutput === undefined ? 0 : ms(firstOutput - req.arrivalTs),
    image_time_to_first_output_ms: d === null ? 0 : ms(d.imageReadyTs - stage.submitTs),
    time_per_output_unit_ms:
      stage.outputUnitType !== 'image' && count > 1 ? ms(stage.finishTs - firstOutput!) / (count - 1) : 0,
    inter_output_latency_ms: mean(outputLatencies),
    inter_output_latencies_ms: outputLatencies,
    vllm_ttft_ms: 0,
    vllm_tpot_ms: 0,
    vllm_itl_ms: 0,
    vllm_itls_ms: [],
    vllm_queued_ms: null,
    vllm_prefill_ms: null,
    vllm_decode_ms: null,
    vllm_num_preemptions: null,
  };
  if (build.inputSplit) {
    row['vllm_input_wait_ms'] = null;
    row['vllm_ready_queued_ms'] = null;
  }
  const p = llmPhases(stage, build);
  if (p !== null) {
    row['vllm_ttft_ms'] = p.ttftMs;
    row['vllm_tpot_ms'] = p.tpotMs;
    row['vllm_itl_ms'] = mean(p.itlsMs);
    row['vllm_itls_ms'] = p.itlsMs;
    row['vllm_queued_ms'] = p.queuedMs;
    row['vllm_prefill_ms'] = p.prefillMs;
    row['vllm_decode_ms'] = p.decodeMs;
    row['vllm_num_preemptions'] = int(p.numPreemptions);
    if (build.inputSplit) {
      row['vllm_input_wait_ms'] = p.inputWaitMs;
      row['vllm_ready_queued_ms'] = p.readyQueuedMs;
    }
  }
  return row;
}

/** All stage columns; `postprocess_time_ms` leaves the table when any stage has diffusion metrics. */
export function stageColumns(
  req: RequestRun,
  batchIds: readonly number[],
  build: StatsBuild,
): { header: string; values: Row }[] {
  const anyDiffusion = req.stages.some((s) => s.diffusion !== null);
  return req.stages.map((s, i) => {
    const row = stageRow(req, s, batchIds[i]!, build);
    if (anyDiffusion) delete row['postprocess_time_ms'];
    return { header: String(s.stageId), values: { ...row, ...diffusionKeys(s, build) } };
  });
}

export function transferColumns(req: RequestRun): { header: string; values: Row }[] {
  return [...req.transfers]
    .sort((a, b) => a.fromStage - b.fromStage || a.toStage - b.toStage)
    .map((t) => ({
      header: `${t.fromStage}->${t.toStage}`,
      values: {
        in_flight_time_ms: ms(t.inFlightUs),
        rx_decode_time_ms: ms(t.rxDecodeUs),
        size_kbytes: t.sizeBytes / 1024,
        tx_time_ms: ms(t.txUs),
      },
    }));
}

const transferTotalUs = (req: RequestRun): Micros =>
  req.transfers.reduce((a, t) => a + t.txUs + t.rxDecodeUs + t.inFlightUs, 0);
const transferBytes = (req: RequestRun): number => req.transfers.reduce((a, t) => a + t.sizeBytes, 0);

export function e2eTotalTokens(req: RequestRun): number {
  return (req.stages[0]?.numTokensIn ?? 0) + req.stages.reduce((a, s) => a + s.numTokensOut, 0);
}

/** [RequestE2EStats] fields, sorted alphabetically as the server prints them. */
export function e2eFields(req: RequestRun): [string, PyValue][] {
  const fields: [string, PyValue][] = [
    ['e2e_total_ms', ms(req.finalizeTs - req.arrivalTs)],
    ['e2e_total_tokens', int(e2eTotalTokens(req))],
    ['transfers_total_kbytes', transferBytes(req) / 1024],
    ['transfers_total_time_ms', ms(transferTotalUs(req))],
  ];
  return fields.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** [Overall Summary] of the request's own aggregator (online: one request each). */
export function overallFields(req: RequestRun): [string, PyValue][] {
  const wallMs = ms(req.statsLoggedTs - req.arrivalTs);
  const tokens = e2eTotalTokens(req);
  return [
    ['e2e_requests', int(1)],
    ['e2e_wall_time_ms', wallMs],
    ['e2e_total_tokens', int(tokens)],
    ['e2e_avg_time_per_request_ms', wallMs],
    ['e2e_avg_tokens_per_s', wallMs > 0 ? (tokens * 1000) / wallMs : 0],
    ['input_preprocess_time_ms', ms(req.preprocessUs)],
    ...req.stages.map((s): [string, PyValue] => [`e2e_stage_${s.stageId}_wall_time_ms`, ms(s.finishTs - s.submitTs)]),
  ];
}

/**
 * The edges `[OmniTiming]` prints: upstream creates an edge when a stage forwards its
 * output (tx) and, for every stage with id > 0, when that stage's stats arrive (rx, from
 * stage id - 1), and prints each with its accumulated tx time, zeros included, in the order
 * the edges were created. So a downstream stage always has `N-1->N`, even under async
 * chunk, where nothing is forwarded as a whole and the tx time is 0.00 ms.
 */
function omniTimingEdges(req: RequestRun): { fromStage: number; toStage: number; txUs: Micros }[] {
  const edges: { fromStage: number; toStage: number; txUs: Micros }[] = req.transfers.map((t) => ({
    fromStage: t.fromStage,
    toStage: t.toStage,
    txUs: t.txUs,
  }));
  for (const s of req.stages) {
    if (s.stageId <= 0 || edges.some((e) => e.fromStage === s.stageId - 1 && e.toStage === s.stageId)) continue;
    edges.push({ fromStage: s.stageId - 1, toStage: s.stageId, txUs: 0 });
  }
  return edges;
}

/** The `[OmniTiming] ...` message (docs/formats.md#the-omnitiming-line). */
export function omniTimingMessage(req: RequestRun): string {
  const totalS = sec(req.finalizeTs - req.arrivalTs);
  const preS = sec(req.preprocessUs);
  const parts = [
    `req=${req.requestId}`,
    `total=${pyFixed(totalS, 2)}s`,
    `preprocess=${pyFixed(preS, 2)}s`,
    `engine=${pyFixed(totalS - preS, 2)}s`,
    `stages=[${req.stages.map((s) => `${s.stageId}:${pyFixed(sec(s.finishTs - s.submitTs), 2)}s`).join(',')}]`,
  ];
  const edges = omniTimingEdges(req);
  if (edges.length > 0)
    parts.push(`transfers=[${edges.map((t) => `${t.fromStage}->${t.toStage}=${pyFixed(ms(t.txUs), 2)}ms`).join(',')}]`);
  if (req.ar2diffusionUs !== null) parts.push(`ar2diffusion=${pyFixed(ms(req.ar2diffusionUs), 2)}ms`);
  return `[OmniTiming] ${parts.join(' ')}`;
}
