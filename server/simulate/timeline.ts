// The event times of one simulated request, stage by stage. Every printed field and
// every Prometheus observation is derived from these, so the relations of
// docs/formats.md#stage-fields hold by construction. Times are integer microseconds of
// simulated time since the server booted: ms values then print exactly at 3 decimals,
// so `vllm_input_wait_ms + vllm_ready_queued_ms` equals `vllm_queued_ms` to the digit.
import type { OutputUnitType, StageKind } from './topology';

export type Micros = number;

export interface EngineOutput {
  /** The engine-core batch timestamp (vLLM's monotonic clock). */
  readonly engineTs: Micros;
  /** When the output processor handled it; later than engineTs for outputs held back for the first-audio frame. */
  readonly handledTs: Micros;
  /** Arrived before the talker's first-audio frame and was replayed after it (seed 000). */
  readonly heldForFirstAudio: boolean;
}

/** Engine-core events of an LLM stage (AR or generation). */
export interface LlmEvents {
  readonly queuedTs: Micros;
  /** The scheduler step in which the stage's input gate first saw its input; null on stages without a gate. */
  readonly inputReadyTs: Micros | null;
  /** First SCHEDULED; a re-SCHEDULED after a preemption does not move it. */
  readonly scheduledTs: Micros;
  readonly numPreemptions: number;
  /** Outputs that carry iteration stats, in engine order. */
  readonly outputs: readonly EngineOutput[];
  readonly promptTokens: number;
  readonly generationTokens: number;
}

/** Diffusion timings; null means not measured (the key is absent), a number is a measurement. */
export interface DiffusionEvents {
  readonly schedulerQueueWaitUs: Micros;
  readonly preprocessUs: Micros | null;
  readonly execUs: Micros;
  readonly forwardUs: Micros | null;
  readonly vaeDecodeUs: Micros | null;
  readonly postprocessUs: Micros;
  readonly outputReadyWaitUs: Micros | null;
  readonly kvRecvUs: Micros | null;
  readonly steps: number;
  readonly imagePixels: number;
  readonly schedulerWaitingReqs: number;
  readonly imageReadyTs: Micros;
}

export interface StageRun {
  readonly stageId: number;
  readonly replicaId: number;
  readonly kind: StageKind;
  readonly role: string;
  readonly outputUnitType: OutputUnitType;
  /** Orchestrator submit: stage_gen_time_ms starts here, and it is the stage request's arrival_time. */
  readonly submitTs: Micros;
  readonly finishTs: Micros;
  /** `num_tokens_in` as the log counts it: stage 0 only. */
  readonly numTokensIn: number;
  readonly numTokensOut: number;
  readonly llm: LlmEvents | null;
  readonly diffusion: DiffusionEvents | null;
  /** Every non-empty output the orchestrator saw for this stage, handled order (the first-audio frame included). */
  readonly outputHandledTs: readonly Micros[];
  /** The talker's first-audio frame routed through this (codec) stage, when talker first audio is active. */
  readonly firstAudioTs: Micros | null;
  /** Time to build the next stage's inputs. */
  readonly postprocessUs: Micros;
  readonly audioSamples: number;
  readonly sampleRate: number;
}

export interface TransferRun {
  readonly fromStage: number;
  readonly toStage: number;
  readonly fromReplica: number;
  readonly toReplica: number;
  readonly sizeBytes: number;
  readonly txUs: Micros;
  readonly rxDecodeUs: Micros;
  readonly inFlightUs: Micros;
}

export interface RequestRun {
  /** 0-based arrival order. */
  readonly index: number;
  readonly requestId: string;
  readonly arrivalTs: Micros;
  readonly preprocessUs: Micros;
  /** pipeline_timings queue_wait_ms: submit arrival to stage-0 submit. */
  readonly queueWaitUs: Micros;
  readonly stages: readonly StageRun[];
  readonly transfers: readonly TransferRun[];
  /** AR finish to diffusion submit, when the pipeline has a diffusion stage. */
  readonly ar2diffusionUs: Micros | null;
  readonly finalizeTs: Micros;
  /** When the aggregator logs the request's tables (the summary's last-finish timestamp). */
  readonly statsLoggedTs: Micros;
  /** First request after boot in the cold-start scenario. */
  readonly cold: boolean;
}

export const ms = (us: Micros): number => us / 1000;
export const sec = (us: Micros): number => us / 1e6;
