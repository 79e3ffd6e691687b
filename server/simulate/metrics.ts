// The /metrics families of a vLLM-Omni server with --log-stats (docs/formats.md#the-metrics-exposition):
// `vllm_omni:*` (or the older `vllm:omni_*`) and the upstream `vllm:*` families
// relabelled with `stage`/`replica`. A request is observed when its tables are logged,
// from the same event times, so a scrape agrees with the log. The one deliberate
// disagreement is the pre-fix codec (seed 000), whose histogram samples are broken
// exactly the way the seed describes.
import { pipelineLoad, llmEngines, stageLoad } from './engineLoad';
import { Counter, Gauge, Histogram, Registry, type LabelValues } from './promRegistry';
import { llmPhases, statsTimestamp, type StatsBuild } from './stageFields';
import { sec, type Micros, type RequestRun } from './timeline';
import type { Topology } from './topology';

const SECONDS = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300];
const FAST = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 60];
const RTF = [0.1, 0.25, 0.5, 0.75, 0.9, 1, 1.25, 1.5, 2, 5, 10];
const BYTES = [1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864, 268435456];
const DEFAULT = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
const TTFT = [
  0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 20, 40, 80, 160, 640, 2560,
];
const ITL = [0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 20, 40, 80];
const REQUEST = [0.3, 0.5, 0.8, 1, 1.5, 2, 2.5, 5, 10, 15, 20, 30, 40, 50, 60, 120, 240, 480, 960, 1920, 7680];
const FINISH_REASONS = ['stop', 'length', 'abort', 'error'];

export type MetricsPrefix = 'new' | 'old';

export interface MetricsContext {
  readonly topology: Topology;
  readonly modelName: string;
  readonly prefix: MetricsPrefix;
  /** vLLM's monotonic clock at simulated time 0 (machine uptime), in µs: the pre-fix codec measures from 0 on it. */
  readonly monotonicBaseUs: Micros;
  /** Requests in flight or recently finished, for the gauges. */
  readonly runs: () => Iterable<RequestRun>;
  readonly now: () => Micros;
  /** KV-cache capacity of one engine in tokens, for `vllm:kv_cache_usage_perc`. */
  readonly kvCapacityTokens: number;
}

export class SimMetrics {
  private readonly registry = new Registry();
  private readonly omni: ReturnType<SimMetrics['omniFamilies']>;
  private readonly vllm: ReturnType<SimMetrics['vllmFamilies']>;

  constructor(private readonly ctx: MetricsContext) {
    this.omni = this.omniFamilies();
    this.vllm = this.vllmFamilies();
    const m = ctx.modelName;
    for (const e of llmEngines(ctx.topology)) {
      const l = [m, String(e.stageId), String(e.replicaId)];
      for (const h of [
        this.vllm.ttft,
        this.vllm.itl,
        this.vllm.tpot,
        this.vllm.e2e,
        this.vllm.queue,
        this.vllm.inference,
        this.vllm.prefill,
        this.vllm.decode,
      ])
        h.touch(l);
      this.vllm.promptTokens.touch(l);
      this.vllm.generationTokens.touch(l);
      this.vllm.preemptions.touch(l);
      for (const r of FINISH_REASONS) this.vllm.success.touch([...l, r]);
    }
    this.omni.promptTokens.touch([m]);
    this.omni.generationTokens.touch([m]);
  }

  private omniName(base: string): string {
    return this.ctx.prefix === 'new' ? `vllm_omni:${base}` : `vllm:omni_${base}`;
  }

  private omniFamilies() {
    const r = this.registry;
    const n = (b: string): string => this.omniName(b);
    const SR = ['model_name', 'stage', 'replica'];
    const TR = ['model_name', 'from_stage', 'from_replica', 'to_stage', 'to_replica'];
    const ctx = this.ctx;
    return {
      running: r.add(
        new Gauge(
          n('num_requests_running'),
          'Number of requests currently running across all pipeline stages.',
          ['model_name'],
          () => [[[ctx.modelName], pipelineLoad(ctx.runs(), ctx.now()).running]],
        ),
      ),
      waiting: r.add(
        new Gauge(n('num_requests_waiting'), 'Number of requests waiting to be scheduled.', ['model_name'], () => [
          [[ctx.modelName], pipelineLoad(ctx.runs(), ctx.now()).waiting],
        ]),
      ),
      success: r.add(
        new Counter(
          n('requests_success'),
          'Total requests by completion reason (stop / length / abort / ...). Aborts cover client-disconnect / cancellation paths in addition to upstream FinishReason.ABORT.',
          ['model_name', 'finished_reason'],
        ),
      ),
      e2e: r.add(
        new Histogram(
          n('e2e_request_latency_s'),
          'Pipeline-global end-to-end request latency in seconds (user arrival to complete response).',
          ['model_name'],
          SECONDS,
        ),
      ),
      promptTokens: r.add(
        new Counter(n('prompt_tokens'), 'Total prompt (input) tokens processed across all pipeline stages.', [
          'model_name',
        ]),
      ),
      generationTokens: r.add(
        new Counter(n('generation_tokens'), 'Total generation (output) tokens produced across all pipeline stages.', [
          'model_name',
        ]),
      ),
      stageGenTime: r.add(
        new Histogram(
          n('stage_gen_time_s'),
          'Per-stage generation time in seconds for diffusion / image stages.',
          ['model_name', 'stage', 'stage_type'],
          SECONDS,
        ),
      ),
      queueWait: r.add(
        new Histogram(
          n('request_queue_wait_s'),
          'Per-request queue wait between submit arrival and stage submit, in seconds.',
          ['model_name'],
          SECONDS,
        ),
      ),
      stageWaiting: r.add(
        new Gauge(
          n('stage_waiting_requests'),
          "Sum of the latest scheduler waiting snapshots across a stage's replicas; diffusion snapshots update when outputs arrive.",
          ['model_name', 'stage'],
          () =>
            ctx.topology.stages.map(
              (s) =>
                [
                  [ctx.modelName, String(s.stageId)],
                  stageLoad(ctx.runs(), s.stageId, null, ctx.now()).waiting,
                ] as const,
            ),
        ),
      ),
      inferenceSteps: r.add(
        new Histogram(
          n('num_inference_steps'),
          'Diffusion step count distribution per request.',
          ['model_name'],
          DEFAULT,
        ),
      ),
      imageCount: r.add(
        new Counter(n('image_count'), 'Cumulative image count; per-model rate. Throughput recovered via rate().', [
          'model_name',
        ]),
      ),
      imagePixels: r.add(
        new Histogram(n('image_pixels'), 'Image pixel count distribution per request.', ['model_name'], DEFAULT),
      ),
      stageInQueue: r.add(
        new Histogram(
          n('stage_in_queue_s'),
          'Time in seconds from diffusion scheduler enqueue to initial execution admission. Zero is the healthy low-load baseline and is counted.',
          ['model_name', 'stage'],
          FAST,
        ),
      ),
      failed: r.add(new Counter(n('requests_failed'), 'Total requests by failure reason.', ['model_name', 'reason'])),
      audioTtfp: r.add(
        new Histogram(
          n('audio_ttfp_s'),
          'Time from request arrival to first audio packet/frame, in seconds.',
          SR,
          SECONDS,
        ),
      ),
      audioDuration: r.add(
        new Histogram(
          n('audio_duration_s'),
          'Generated audio content duration in seconds (audio_frames / sample_rate).',
          SR,
          SECONDS,
        ),
      ),
      audioRtf: r.add(
        new Histogram(
          n('audio_rtf'),
          'Audio real-time factor (stage_gen_time_s / audio_duration_s); streaming TTS requires < 1.',
          SR,
          RTF,
        ),
      ),
      audioFrames: r.add(
        new Counter(
          n('audio_frames'),
          'Cumulative audio frame count; per-model rate (not summable across models). Throughput recovered via rate().',
          SR,
        ),
      ),
      diffusionExec: r.add(
        new Histogram(n('diffusion_exec_s'), 'DiT forward pass execution time per request in seconds.', SR, SECONDS),
      ),
      diffusionExecPerStep: r.add(
        new Histogram(
          n('diffusion_exec_per_step_s'),
          'DiT forward pass execution time per denoising step in seconds.',
          SR,
          FAST,
        ),
      ),
      diffusionPreprocess: r.add(
        new Histogram(
          n('diffusion_preprocess_s'),
          'Diffusion input preprocessing time per request in seconds.',
          SR,
          FAST,
        ),
      ),
      diffusionPostprocess: r.add(
        new Histogram(
          n('diffusion_postprocess_s'),
          'Diffusion output postprocessing (VAE decode) time per request in seconds.',
          SR,
          FAST,
        ),
      ),
      vaeDecode: r.add(
        new Histogram(n('vae_decode_s'), 'VAE decode latency in seconds (latents -> pixels/audio/video).', SR, SECONDS),
      ),
      diffusionForward: r.add(
        new Histogram(
          n('diffusion_forward_s'),
          'Diffusion pipeline forward time in seconds. Absent when the pipeline profiler is off.',
          SR,
          SECONDS,
        ),
      ),
      diffusionKvLoad: r.add(
        new Histogram(
          n('diffusion_kv_load_s'),
          'Diffusion KV-recv latency in seconds (AR→diffusion KV fetch; absent when the stage has no upstream KV to receive).',
          SR,
          FAST,
        ),
      ),
      imageTtfp: r.add(
        new Histogram(
          n('image_ttfp_s'),
          'Image time-to-first-output in seconds (stage submit → first image materialized).',
          SR,
          SECONDS,
        ),
      ),
      denoiseStep: r.add(
        new Histogram(
          n('denoise_step_latency_s'),
          'Mean per-step denoise forward latency in seconds (forward_time / num_inference_steps).',
          SR,
          FAST,
        ),
      ),
      transferSize: r.add(
        new Histogram(
          n('transfer_size_bytes'),
          'Per-transfer payload size in bytes (one observation per physical hop).',
          TR,
          BYTES,
        ),
      ),
      transferTx: r.add(
        new Histogram(n('transfer_tx_s'), 'Sender-side time in seconds (serialize + submit to connector).', TR, FAST),
      ),
      transferRx: r.add(
        new Histogram(n('transfer_rx_s'), 'Receiver-side time in seconds (recv + deserialize).', TR, FAST),
      ),
      transferInFlight: r.add(
        new Histogram(
          n('transfer_in_flight_s'),
          'Network in-flight time in seconds (TX done -> RX recv start).',
          TR,
          FAST,
        ),
      ),
    };
  }

  private vllmFamilies() {
    const r = this.registry;
    const L = ['model_name', 'stage', 'replica'];
    const ctx = this.ctx;
    const perEngine = (f: (stageId: number, replicaId: number) => number) => () =>
      llmEngines(ctx.topology).map(
        (e) => [[ctx.modelName, String(e.stageId), String(e.replicaId)], f(e.stageId, e.replicaId)] as const,
      );
    return {
      running: r.add(
        new Gauge(
          'vllm:num_requests_running',
          'Number of requests in model execution batches.',
          L,
          perEngine((s, rep) => stageLoad(ctx.runs(), s, rep, ctx.now()).running),
        ),
      ),
      waiting: r.add(
        new Gauge(
          'vllm:num_requests_waiting',
          'Number of requests waiting to be processed.',
          L,
          perEngine((s, rep) => stageLoad(ctx.runs(), s, rep, ctx.now()).waiting),
        ),
      ),
      kv: r.add(
        new Gauge(
          'vllm:kv_cache_usage_perc',
          'KV-cache usage. 1 means 100 percent usage.',
          L,
          perEngine((s, rep) => Math.min(1, stageLoad(ctx.runs(), s, rep, ctx.now()).kvTokens / ctx.kvCapacityTokens)),
        ),
      ),
      preemptions: r.add(new Counter('vllm:num_preemptions', 'Cumulative number of preemption from the engine.', L)),
      promptTokens: r.add(new Counter('vllm:prompt_tokens', 'Number of prefill tokens processed.', L)),
      generationTokens: r.add(new Counter('vllm:generation_tokens', 'Number of generation tokens processed.', L)),
      success: r.add(
        new Counter('vllm:request_success', 'Count of successfully processed requests.', [...L, 'finished_reason']),
      ),
      ttft: r.add(
        new Histogram('vllm:time_to_first_token_seconds', 'Histogram of time to first token in seconds.', L, TTFT),
      ),
      itl: r.add(
        new Histogram('vllm:inter_token_latency_seconds', 'Histogram of inter-token latency in seconds.', L, ITL),
      ),
      tpot: r.add(
        new Histogram(
          'vllm:request_time_per_output_token_seconds',
          'Histogram of time_per_output_token_seconds per request.',
          L,
          ITL,
        ),
      ),
      e2e: r.add(
        new Histogram('vllm:e2e_request_latency_seconds', 'Histogram of e2e request latency in seconds.', L, REQUEST),
      ),
      queue: r.add(
        new Histogram(
          'vllm:request_queue_time_seconds',
          'Histogram of time spent in WAITING phase for request.',
          L,
          REQUEST,
        ),
      ),
      inference: r.add(
        new Histogram(
          'vllm:request_inference_time_seconds',
          'Histogram of time spent in RUNNING phase for request.',
          L,
          REQUEST,
        ),
      ),
      prefill: r.add(
        new Histogram(
          'vllm:request_prefill_time_seconds',
          'Histogram of time spent in PREFILL phase for request.',
          L,
          REQUEST,
        ),
      ),
      decode: r.add(
        new Histogram(
          'vllm:request_decode_time_seconds',
          'Histogram of time spent in DECODE phase for request.',
          L,
          REQUEST,
        ),
      ),
    };
  }

  /** Observes one finished request, from the event times its log tables were derived from. */
  record(req: RequestRun, build: StatsBuild): void {
    const m = this.ctx.modelName;
    const o = this.omni;
    const e2eS = sec(req.finalizeTs - req.arrivalTs);
    o.e2e.observe([m], e2eS);
    o.success.inc([m, 'stop']);
    o.queueWait.observe([m], sec(req.queueWaitUs));
    o.promptTokens.inc([m], req.stages[0]?.numTokensIn ?? 0);
    o.generationTokens.inc(
      [m],
      req.stages.reduce((a, s) => a + s.numTokensOut, 0),
    );

    for (const s of req.stages) {
      const l: LabelValues = [m, String(s.stageId), String(s.replicaId)];
      const genS = sec(s.finishTs - s.submitTs);
      if (s.llm !== null) this.recordLlmStage(req, s.stageId, l, build);
      if (s.audioSamples > 0 && s.sampleRate > 0) {
        const durationS = s.audioSamples / s.sampleRate;
        const first = s.outputHandledTs[0];
        if (first !== undefined) o.audioTtfp.observe(l, sec(first - req.arrivalTs));
        o.audioDuration.observe(l, durationS);
        o.audioRtf.observe(l, genS / durationS);
        o.audioFrames.inc(l, s.audioSamples);
      }
      const d = s.diffusion;
      if (d !== null) {
        o.stageGenTime.observe([m, String(s.stageId), 'diffusion'], genS);
        o.diffusionExec.observe(l, sec(d.execUs));
        o.diffusionExecPerStep.observe(l, sec(d.execUs) / d.steps);
        // Still a 0 sample for a request without a pre-processor (seed 004).
        o.diffusionPreprocess.observe(l, sec(d.preprocessUs ?? 0));
        o.diffusionPostprocess.observe(l, sec(d.postprocessUs));
        if (d.vaeDecodeUs !== null) o.vaeDecode.observe(l, sec(d.vaeDecodeUs));
        if (d.forwardUs !== null) o.diffusionForward.observe(l, sec(d.forwardUs));
        if (d.kvRecvUs !== null && d.kvRecvUs > 0) o.diffusionKvLoad.observe(l, sec(d.kvRecvUs));
        o.imageTtfp.observe(l, sec(d.imageReadyTs - s.submitTs));
        o.denoiseStep.observe(l, (d.forwardUs !== null ? sec(d.forwardUs) : genS) / d.steps);
        o.stageInQueue.observe([m, String(s.stageId)], sec(d.schedulerQueueWaitUs));
        o.inferenceSteps.observe([m], d.steps);
        o.imageCount.inc([m]);
        o.imagePixels.observe([m], d.imagePixels);
      }
    }
    for (const t of req.transfers) {
      const l = [m, String(t.fromStage), String(t.fromReplica), String(t.toStage), String(t.toReplica)];
      o.transferSize.observe(l, t.sizeBytes);
      o.transferTx.observe(l, sec(t.txUs));
      o.transferRx.observe(l, sec(t.rxDecodeUs));
      o.transferInFlight.observe(l, sec(t.inFlightUs));
    }
  }

  private recordLlmStage(req: RequestRun, stageId: number, l: LabelValues, build: StatsBuild): void {
    const s = req.stages.find((x) => x.stageId === stageId)!;
    const llm = s.llm!;
    const p = llmPhases(s, build)!;
    const v = this.vllm;
    const ts = llm.outputs.map((o) => statsTimestamp(o, build));
    const first = ts[0]!;
    const last = ts[ts.length - 1]!;
    v.queue.observe(l, p.queuedMs / 1000);
    v.inference.observe(l, sec(last - llm.scheduledTs));
    v.e2e.observe(l, sec(s.finishTs - s.submitTs));
    v.promptTokens.inc(l, llm.promptTokens);
    v.generationTokens.inc(l, llm.generationTokens);
    v.preemptions.inc(l, llm.numPreemptions);
    v.success.inc([...l, 'stop']);
    if (!p.codecSignature) {
      v.ttft.observe(l, p.ttftMs / 1000);
      for (const itl of p.itlsMs) v.itl.observe(l, itl / 1000);
      v.tpot.observe(l, p.tpotMs / 1000);
      v.prefill.observe(l, (p.prefillMs ?? 0) / 1000);
      v.decode.observe(l, (p.decodeMs ?? 0) / 1000);
      return;
    }
    // Pre-fix codec (seed 000): the first-token time was never set (0 on the monotonic
    // clock), so there is no TTFT sample, the first ITL is measured from a last-token
    // time of 0, prefill is negative and decode is measured from 0.
    const mono = (t: Micros): number => sec(this.ctx.monotonicBaseUs + t);
    v.itl.observe(l, mono(first));
    for (const itl of p.itlsMs) v.itl.observe(l, itl / 1000);
    v.prefill.observe(l, 0 - mono(llm.scheduledTs));
    const decodeS = mono(last);
    v.decode.observe(l, decodeS);
    v.tpot.observe(l, llm.generationTokens > 1 ? decodeS / (llm.generationTokens - 1) : 0);
  }

  expose(): string {
    return this.registry.expose();
  }
}
