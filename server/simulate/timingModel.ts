// The timing model: generates requests in arrival order and, for each stage, the
// engine-core events (QUEUED, input ready, SCHEDULED, tokens, outputs, finish) that a
// vLLM-Omni server would record. Stage replicas have `max_num_seqs` slots, so load
// shows up as queueing and slower steps. Nothing here formats anything: see
// stageFields.ts for how the printed values are derived from these times.
import { Random } from './seededRandom';
import type { DiffusionEvents, EngineOutput, LlmEvents, Micros, RequestRun, StageRun, TransferRun } from './timeline';
import { chunkFrames, talkerFirstAudioCodec, type StageSpec, type Topology } from './topology';

export interface TimingOptions {
  readonly seed: number;
  /** Mean client requests per second. */
  readonly rps: number;
  /** The stage-0 one-time JIT build on the first request after boot (cold-start scenario). */
  readonly coldStartMs: number;
  /** Simulated time of the first arrival. */
  readonly firstArrivalUs: Micros;
}

/** Qwen3-TTS 12 Hz codec: one frame is 80 ms of 24 kHz audio. */
const SAMPLE_RATE = 24_000;
const SAMPLES_PER_FRAME = 1_920;
const CODE_GROUPS = 16;

/** One engine (stage replica): its `max_num_seqs` slots, each free from a time on. */
class ReplicaSlots {
  private readonly freeAt: Micros[];
  constructor(slots: number) {
    this.freeAt = new Array<Micros>(slots).fill(0);
  }
  active(t: Micros): number {
    let n = 0;
    for (const f of this.freeAt) if (f > t) n++;
    return n;
  }
  earliest(): { index: number; free: Micros } {
    let index = 0;
    for (let i = 1; i < this.freeAt.length; i++) if (this.freeAt[i]! < this.freeAt[index]!) index = i;
    return { index, free: this.freeAt[index]! };
  }
  occupy(index: number, until: Micros): void {
    this.freeAt[index] = until;
  }
  waiting(t: Micros): number {
    return this.freeAt.every((f) => f > t) ? 1 : 0;
  }
}

type Gate = { readonly readyTs: Micros; readonly scheduler: 'ar' | 'generation' } | null;

interface Scheduled {
  readonly queuedTs: Micros;
  readonly inputReadyTs: Micros | null;
  readonly scheduledTs: Micros;
  readonly slot: number;
  readonly active: number;
}

interface ArResult {
  readonly llm: LlmEvents;
  readonly tokenTimes: Micros[];
  readonly finishTs: Micros;
  readonly handled: Micros[];
}

export class TimingModel {
  private readonly rng: Random;
  private readonly replicas: ReplicaSlots[][];
  private readonly roundRobin: number[];
  private readonly firstAudioCodec: number | null;
  private nextArrival: Micros;
  private count = 0;

  constructor(
    private readonly topology: Topology,
    private readonly options: TimingOptions,
  ) {
    this.rng = new Random(options.seed);
    this.replicas = topology.stages.map((s) =>
      Array.from({ length: s.replicas }, () => new ReplicaSlots(s.maxNumSeqs)),
    );
    this.roundRobin = topology.stages.map(() => 0);
    this.firstAudioCodec = talkerFirstAudioCodec(topology);
    this.nextArrival = options.firstArrivalUs;
  }

  /** Whether talker first audio takes effect in this topology. */
  get talkerFirstAudioActive(): boolean {
    return this.firstAudioCodec !== null;
  }

  /** Arrival time of the next request `next()` will return. */
  peekArrival(): Micros {
    return this.nextArrival;
  }

  next(): RequestRun {
    const rng = this.rng;
    const index = this.count++;
    const arrivalTs = this.nextArrival;
    const cold = this.topology.scenario === 'cold-start' && index === 0;
    const prefix =
      this.topology.scenario === 'qwen3-tts' || this.topology.scenario === 'cold-start' ? 'speech' : 'chatcmpl';
    const requestId = `${prefix}-${rng.hex(16)}`;
    const preprocessUs = this.topology.scenario === 'qwen3-omni' ? rng.int(8_000, 40_000) : rng.int(2_000, 15_000);
    const queueWaitUs = rng.int(20, 300);
    const submit0 = arrivalTs + preprocessUs + queueWaitUs;

    const stages: StageRun[] = [];
    const transfers: TransferRun[] = [];
    let ar2diffusionUs: Micros | null = null;
    let upstreamTokens: Micros[] = [];
    let upstreamFinish = submit0;
    let upstreamPostprocess = 0;

    for (let i = 0; i < this.topology.stages.length; i++) {
      const spec = this.topology.stages[i]!;
      const replicaId = this.roundRobin[i]! % spec.replicas;
      this.roundRobin[i]!++;
      const slots = this.replicas[i]![replicaId]!;
      const prev = stages[i - 1];
      // Under async chunk the downstream stage is submitted together with stage 0 and
      // its input gate holds it; otherwise it is submitted once the upstream finished
      // and its inputs were built and transferred.
      let submitTs = submit0;
      let payloadReadyTs: Micros | null = null;
      if (i > 0 && prev !== undefined) {
        if (this.topology.asyncChunk && spec.kind !== 'diffusion') {
          submitTs = submit0 + rng.int(100, 500);
        } else {
          const t = this.transfer(prev, spec, replicaId, upstreamTokens.length);
          transfers.push(t);
          const forwardTs = upstreamFinish + upstreamPostprocess;
          payloadReadyTs = forwardTs + t.txUs + t.inFlightUs + t.rxDecodeUs;
          // A full-payload codec is submitted when the orchestrator forwards the request
          // and waits at its gate for the payload; other stages get it with the submit.
          submitTs = spec.kind === 'generation' ? forwardTs + rng.int(100, 400) : payloadReadyTs;
          if (spec.kind === 'diffusion') ar2diffusionUs = submitTs - upstreamFinish;
        }
      }

      let run: StageRun;
      let tokenTimes: Micros[] = [];
      if (spec.kind === 'ar') {
        const r = this.arStage(spec, i, slots, submitTs, upstreamTokens, cold && i === 0);
        tokenTimes = r.tokenTimes;
        run = this.llmRun(
          spec,
          replicaId,
          submitTs,
          r.finishTs,
          r.llm,
          r.handled,
          null,
          i === 0 ? r.llm.promptTokens : 0,
          r.llm.generationTokens,
        );
      } else if (spec.kind === 'generation') {
        run = this.codecStage(spec, replicaId, slots, submitTs, upstreamTokens, payloadReadyTs);
      } else {
        run = this.diffusionStage(spec, replicaId, slots, submitTs, upstreamTokens.length);
      }
      stages.push(run);
      upstreamTokens = tokenTimes;
      upstreamFinish = run.finishTs;
      upstreamPostprocess = run.postprocessUs;
    }

    const lastFinish = Math.max(...stages.map((s) => s.finishTs));
    const finalizeTs = lastFinish + rng.int(200, 1_200);
    const statsLoggedTs = finalizeTs + rng.int(40, 300);
    // The cold-start client sends its next request after the previous response (as in
    // seed 001's run); the other scenarios are open-loop Poisson arrivals.
    const gap = Math.max(1, Math.round(rng.exponential(1e6 / this.options.rps)));
    this.nextArrival = (this.topology.scenario === 'cold-start' ? finalizeTs : arrivalTs) + gap;
    return {
      index,
      requestId,
      arrivalTs,
      preprocessUs,
      queueWaitUs,
      stages,
      transfers,
      ar2diffusionUs,
      finalizeTs,
      statsLoggedTs,
      cold,
    };
  }

  /** SCHEDULED time of a stage request whose input is there at `readyTs`. */
  private schedule(slots: ReplicaSlots, queuedTs: Micros, gate: Gate, stepUs: number): Scheduled {
    const rng = this.rng;
    const readyTs = gate === null ? queuedTs : Math.max(queuedTs, gate.readyTs);
    const { index, free } = slots.earliest();
    const active = slots.active(readyTs);
    let scheduledTs: Micros;
    if (free > readyTs) {
      scheduledTs = free + rng.int(0, stepUs); // waits for a slot, then for the next step
    } else if (gate?.scheduler === 'generation') {
      // The generation scheduler stamps with the SCHEDULED time it takes before its
      // gates run: scheduled in the step the input arrived means ready-queued 0.
      scheduledTs = active > 0 && rng.chance(0.4) ? readyTs + rng.int(stepUs / 2, stepUs) : readyTs;
    } else if (gate?.scheduler === 'ar') {
      // The AR scheduler stamps just before upstream schedule() takes SCHEDULED.
      scheduledTs = readyTs + (active > 0 && rng.chance(0.3) ? rng.int(stepUs / 2, stepUs) : rng.int(20, 400));
    } else {
      scheduledTs = readyTs + (active > 0 ? rng.int(0, stepUs) : rng.int(50, 400));
    }
    return { queuedTs, inputReadyTs: gate === null ? null : readyTs, scheduledTs, slot: index, active };
  }

  private arStage(
    spec: StageSpec,
    index: number,
    slots: ReplicaSlots,
    submitTs: Micros,
    upstream: readonly Micros[],
    coldJit: boolean,
  ): ArResult {
    const rng = this.rng;
    const role = spec.role;
    const omniTalker = role === 'talker' && index > 0;
    let promptTokens: number;
    let tokens: number;
    let prefillUs: number;
    let stepUs: number;
    if (role === 'thinker') {
      promptTokens = rng.int(60, 900);
      tokens = rng.int(24, 200);
      prefillUs = rng.int(30_000, 90_000) + promptTokens * 60;
      stepUs = rng.int(11_000, 16_000);
    } else if (omniTalker) {
      promptTokens = upstream.length;
      tokens = Math.max(2, Math.round(upstream.length * rng.uniform(3, 5)));
      prefillUs = rng.int(15_000, 40_000);
      stepUs = rng.int(11_000, 16_000);
    } else if (role === 'talker') {
      promptTokens = rng.int(24, 160);
      tokens = rng.int(20, 140); // codec frames: 1.6 s to 11.2 s of audio
      prefillUs = rng.int(28_000, 70_000) + promptTokens * 80;
      stepUs = rng.int(13_000, 19_000);
    } else {
      // GLM-Image AR: prior tokens for a 512/768/1024 px square image (32 px per token).
      const side = [512, 768, 1024][rng.int(0, 2)]!;
      promptTokens = rng.int(12, 120);
      tokens = (side / 32) ** 2;
      prefillUs = rng.int(40_000, 90_000);
      stepUs = rng.int(6_000, 8_000);
    }
    const ipc = rng.int(150, 700);
    const queuedTs = submitTs + ipc;
    const gate: Gate =
      omniTalker && this.topology.asyncChunk ? { readyTs: upstream[0]! + rng.int(200, 2_000), scheduler: 'ar' } : null;
    const s = this.schedule(slots, queuedTs, gate, stepUs);
    const loadFactor = 1 + 0.008 * s.active; // batched decode steps slow down sub-linearly
    const step = (): number => Math.round(stepUs * loadFactor * rng.jitter(0.2));
    // A cold start puts a one-time JIT build (FlashInfer sampling) into the first sampling step.
    const jitUs = coldJit ? Math.round(this.options.coldStartMs * 1000 * rng.jitter(0.04)) : 0;
    const preemptAt = tokens > 2 && s.active >= 2 && rng.chance(0.04) ? rng.int(1, tokens - 1) : -1;
    const times: Micros[] = [];
    let t = s.scheduledTs + Math.round(prefillUs * loadFactor) + jitUs;
    if (omniTalker && upstream.length > 0) t = Math.max(t, upstream[0]! + rng.int(200, 2_000));
    times.push(t);
    for (let k = 1; k < tokens; k++) {
      t += step();
      // The talker turns thinker tokens into codec frames: it cannot run ahead of them.
      if (omniTalker && upstream.length > 0)
        t = Math.max(t, upstream[Math.min(upstream.length - 1, Math.floor(k / 4))]! + rng.int(200, 2_000));
      if (k === preemptAt) t += rng.int(30_000, 250_000); // preempted, re-SCHEDULED later: stays inside decode
      times.push(t);
    }
    const last = times[times.length - 1]!;
    slots.occupy(s.slot, last);
    // Under Model Runner V2 + async chunk a non-final AR stage emits one output when it
    // stops, so its prefill covers its decode steps (docs/formats.md#numbers-that-lie-in-known-ways).
    const isFinal = index === this.topology.stages.length - 1;
    const singleOutput = spec.modelRunner === 'v2' && this.topology.asyncChunk && !isFinal;
    const engineTimes = singleOutput ? [last] : times;
    const outputs: EngineOutput[] = [];
    let prevHandled = 0;
    for (const e of engineTimes) {
      const handledTs = Math.max(prevHandled + 1, e + rng.int(80, 900));
      outputs.push({ engineTs: e, handledTs, heldForFirstAudio: false });
      prevHandled = handledTs;
    }
    const finishTs = prevHandled + rng.int(200, 900);
    const llm: LlmEvents = {
      queuedTs: s.queuedTs,
      inputReadyTs: s.inputReadyTs,
      scheduledTs: s.scheduledTs,
      numPreemptions: preemptAt > 0 ? 1 : 0,
      outputs,
      promptTokens,
      generationTokens: tokens,
    };
    return { llm, tokenTimes: times, finishTs, handled: outputs.map((o) => o.handledTs) };
  }

  /** Code2wav: decodes the talker's frames chunk by chunk (async chunk) or from one full payload. */
  private codecStage(
    spec: StageSpec,
    replicaId: number,
    slots: ReplicaSlots,
    submitTs: Micros,
    frames: readonly Micros[],
    payloadReadyTs: Micros | null,
  ): StageRun {
    const rng = this.rng;
    const plan = this.topology.chunks;
    const chunks: { frames: number; availTs: Micros }[] = [];
    let covered = 0;
    for (let k = 0; covered < frames.length; k++) {
      const size = Math.min(payloadReadyTs === null ? chunkFrames(plan, k) : plan.chunkFrames, frames.length - covered);
      covered += size;
      chunks.push({ frames: size, availTs: payloadReadyTs ?? frames[covered - 1]! + rng.int(150, 1_500) });
    }
    const queuedTs = submitTs + rng.int(150, 700);
    // The gate sees the input in the first scheduler step after it landed
    // (the connector is polled every connector_get_sleep_s = 10 ms when idle).
    const gate: Gate = { readyTs: chunks[0]!.availTs + rng.int(200, 10_000), scheduler: 'generation' };
    const codecStep = (n: number): number => Math.round((4_000 + 600 * n) * rng.jitter(0.2));
    const s = this.schedule(slots, queuedTs, gate, 12_000);
    const engineTimes: Micros[] = [];
    let prev = s.scheduledTs;
    for (const [k, c] of chunks.entries()) {
      const start = k === 0 ? s.scheduledTs : Math.max(prev, c.availTs + rng.int(200, 3_000));
      prev = start + codecStep(c.frames);
      engineTimes.push(prev);
    }
    slots.occupy(s.slot, prev);

    // Talker first audio: the talker's first frame reaches the client through this
    // stage. Codec outputs that arrive before it are held and replayed right after it,
    // keeping their engine-core timestamps (seed 000).
    let firstAudioTs: Micros | null = null;
    if (this.firstAudioCodec === spec.stageId && frames.length > 0) {
      const routing = rng.chance(0.25) ? rng.int(20_000, 120_000) : rng.int(500, 6_000);
      firstAudioTs = frames[0]! + routing;
    }
    const outputs: EngineOutput[] = [];
    let prevHandled = firstAudioTs ?? 0;
    for (const e of engineTimes) {
      const natural = e + rng.int(80, 900);
      const held = firstAudioTs !== null && natural < firstAudioTs;
      const handledTs = held ? prevHandled + rng.int(40, 120) : Math.max(prevHandled + 1, natural);
      outputs.push({ engineTs: e, handledTs, heldForFirstAudio: held });
      prevHandled = handledTs;
    }
    const finishTs = prevHandled + rng.int(300, 1_000);
    const handled = [...(firstAudioTs === null ? [] : [firstAudioTs]), ...outputs.map((o) => o.handledTs)];
    const llm: LlmEvents = {
      queuedTs: s.queuedTs,
      inputReadyTs: s.inputReadyTs,
      scheduledTs: s.scheduledTs,
      numPreemptions: 0,
      outputs,
      promptTokens: frames.length * CODE_GROUPS,
      generationTokens: outputs.length,
    };
    return {
      ...this.llmRun(spec, replicaId, submitTs, finishTs, llm, handled, firstAudioTs, 0, outputs.length),
      audioSamples: frames.length * SAMPLES_PER_FRAME,
      sampleRate: SAMPLE_RATE,
    };
  }

  private diffusionStage(
    spec: StageSpec,
    replicaId: number,
    slots: ReplicaSlots,
    submitTs: Micros,
    priorTokens: number,
  ): StageRun {
    const rng = this.rng;
    const side = Math.round(Math.sqrt(Math.max(1, priorTokens)) * 32);
    const pixels = side * side;
    const steps = 50;
    const { index, free } = slots.earliest();
    const schedulerWaitingReqs = slots.waiting(submitTs);
    // A measured zero when the DiT is idle: "zero is the healthy low-load baseline".
    const schedulerQueueWaitUs = Math.max(0, free - submitTs);
    const execStart = submitTs + schedulerQueueWaitUs;
    const perStepUs = Math.round(160_000 * (pixels / 1024 ** 2) * rng.jitter(0.08)) + 8_000;
    const forwardUs = perStepUs * steps;
    const vaeDecodeUs = Math.round(rng.int(150_000, 350_000) * (pixels / 1024 ** 2)) + 20_000;
    const execUs = forwardUs + vaeDecodeUs + rng.int(5_000, 20_000);
    const postprocessUs = rng.int(20_000, 90_000);
    const outputReadyWaitUs = rng.chance(0.5) ? rng.int(500, 4_000) : null;
    const imageReadyTs = execStart + execUs + postprocessUs + (outputReadyWaitUs ?? 0);
    slots.occupy(index, imageReadyTs);
    const finishTs = imageReadyTs + rng.int(300, 1_000);
    const diffusion: DiffusionEvents = {
      schedulerQueueWaitUs,
      preprocessUs: null, // GLM-Image has no pre-processor: not measured
      execUs,
      forwardUs: spec.diffusionProfiler ? forwardUs : null,
      vaeDecodeUs: spec.diffusionProfiler ? vaeDecodeUs : null,
      postprocessUs,
      outputReadyWaitUs,
      kvRecvUs: null, // prior tokens, no upstream KV
      steps,
      imagePixels: pixels,
      schedulerWaitingReqs,
      imageReadyTs,
    };
    return {
      stageId: spec.stageId,
      replicaId,
      kind: spec.kind,
      role: spec.role,
      outputUnitType: spec.outputUnitType,
      submitTs,
      finishTs,
      numTokensIn: 0,
      numTokensOut: 0,
      llm: null,
      diffusion,
      outputHandledTs: [imageReadyTs],
      firstAudioTs: null,
      postprocessUs: 0,
      audioSamples: 0,
      sampleRate: 0,
    };
  }

  private llmRun(
    spec: StageSpec,
    replicaId: number,
    submitTs: Micros,
    finishTs: Micros,
    llm: LlmEvents,
    handled: readonly Micros[],
    firstAudioTs: Micros | null,
    numTokensIn: number,
    numTokensOut: number,
  ): StageRun {
    const isFinal = spec.stageId === this.topology.stages[this.topology.stages.length - 1]!.stageId;
    return {
      stageId: spec.stageId,
      replicaId,
      kind: spec.kind,
      role: spec.role,
      outputUnitType: spec.outputUnitType,
      submitTs,
      finishTs,
      numTokensIn,
      numTokensOut,
      llm,
      diffusion: null,
      outputHandledTs: [...handled].sort((a, b) => a - b),
      firstAudioTs,
      postprocessUs: isFinal ? 0 : this.rng.int(150, 900),
      audioSamples: 0,
      sampleRate: 0,
    };
  }

  private transfer(from: StageRun, to: StageSpec, toReplica: number, upstreamTokens: number): TransferRun {
    const rng = this.rng;
    const perToken = from.role === 'thinker' ? 4_096 : from.role === 'talker' ? CODE_GROUPS * 8 : 8;
    const sizeBytes = upstreamTokens * perToken + rng.int(512, 4_096);
    return {
      fromStage: from.stageId,
      toStage: to.stageId,
      fromReplica: from.replicaId,
      toReplica,
      sizeBytes,
      txUs: rng.int(150, 1_500) + Math.round(sizeBytes / 2_000),
      inFlightUs: rng.int(50, 400) + Math.round(sizeBytes / 10_000),
      rxDecodeUs: rng.int(100, 800) + Math.round(sizeBytes / 3_000),
    };
  }
}
