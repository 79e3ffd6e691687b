// Runs the simulated server: generates requests with the timing model, prints their
// records when their simulated time comes (simulated time = wall time x speed), prints
// the periodic engine lines, serves /metrics, and stops cleanly after N requests, a
// duration, or SIGTERM/SIGINT. Output order depends only on simulated time and the
// seed, never on timer jitter: events are merged in (time, generation order).
import type { Writable } from 'node:stream';
import { fixedClock, wallClock } from './clock';
import { engineSnapshots, llmEngines } from './engineLoad';
import { closeHttpServer, startHttpServer } from './httpServer';
import { LogWriter } from './logWriter';
import { SimMetrics } from './metrics';
import type { SimulateOptions } from './options';
import { pyFixed } from './pyFormat';
import { Random } from './seededRandom';
import { runTimingModel } from './schedule';
import { shutdownLines, startupLines } from './startupLines';
import type { Micros, RequestRun } from './timeline';

/** The parsed command line plus where the log goes. */
export interface RunOptions extends SimulateOptions {
  readonly out: Writable;
  readonly err: Writable;
}

/** vLLM's LoggingStatLogger interval (VLLM_LOG_STATS_INTERVAL). */
const ENGINE_LINE_INTERVAL_US = 10_000_000;
/** Finished requests stay visible to the gauges this long. */
const KEEP_RUNS_US = 30_000_000;
const FIXED_PID = 4242;
/**
 * Shortest wall-clock pause between two ticks. Each tick handles every event that is
 * due by the simulated clock and writes them in one chunk, so a late or coalesced tick
 * changes only how the output is chunked, never what it says or the request rate.
 */
const MIN_TICK_MS = 4;
/** A tick that has this much output hands the rest to the next one (catching up after a stalled reader). */
const MAX_CHUNK_CHARS = 1 << 20;
const KV_CAPACITY_TOKENS = 262_144;

interface PendingEvent {
  readonly at: Micros;
  readonly seq: number;
  readonly emit: () => void;
}

/** A binary min-heap on (at, seq). */
class EventQueue {
  private readonly items: PendingEvent[] = [];
  private static less(a: PendingEvent, b: PendingEvent): boolean {
    return a.at < b.at || (a.at === b.at && a.seq < b.seq);
  }
  push(e: PendingEvent): void {
    const xs = this.items;
    xs.push(e);
    let i = xs.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!EventQueue.less(xs[i]!, xs[p]!)) break;
      [xs[i], xs[p]] = [xs[p]!, xs[i]!];
      i = p;
    }
  }
  peek(): PendingEvent | undefined {
    return this.items[0];
  }
  pop(): PendingEvent | undefined {
    const xs = this.items;
    const top = xs[0];
    const last = xs.pop();
    if (xs.length > 0 && last !== undefined) {
      xs[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < xs.length && EventQueue.less(xs[l]!, xs[m]!)) m = l;
        if (r < xs.length && EventQueue.less(xs[r]!, xs[m]!)) m = r;
        if (m === i) break;
        [xs[i], xs[m]] = [xs[m]!, xs[i]!];
        i = m;
      }
    }
    return top;
  }
}

export async function runSimulation(o: RunOptions): Promise<number> {
  const pid = o.fixedClock ? FIXED_PID : process.pid;
  const clock = o.fixedClock ? fixedClock() : wallClock(o.speed);
  const processLabel = o.prefix === 'apiserver' ? `APIServer pid=${pid}` : o.prefix === 'api' ? 'API' : null;
  const writer = new LogWriter({ process: processLabel, ansi: o.color, debug: o.debugTables, clock }, o.build);
  const model = runTimingModel(o);
  const aux = new Random(o.seed ^ 0x5bd1e995); // access-log client ports, machine uptime
  const monotonicBaseUs = aux.int(3_600, 864_000) * 1_000_000 + aux.int(0, 999_999);
  const modelName = o.topology.model;

  const runs: RequestRun[] = [];
  let wallStart = 0;
  let stopped = false;
  let frozenAt: Micros | null = null;
  const simNow = (): Micros => {
    if (frozenAt !== null) return frozenAt;
    const t = Math.floor((performance.now() - wallStart) * 1000 * o.speed);
    return o.durationS === null ? t : Math.min(t, Math.round(o.durationS * 1e6));
  };
  const metrics = new SimMetrics({
    topology: o.topology,
    modelName,
    prefix: o.metricsPrefix,
    monotonicBaseUs,
    runs: () => runs,
    now: simNow,
    kvCapacityTokens: KV_CAPACITY_TOKENS,
  });

  let http: Awaited<ReturnType<typeof startHttpServer>>;
  try {
    http = await startHttpServer(o.host, o.port, {
      metrics: () => metrics.expose(),
      models: () => ({
        object: 'list',
        data: [
          {
            id: modelName,
            object: 'model',
            created: clock.epochSeconds(0),
            owned_by: 'vllm',
            root: modelName,
            parent: null,
            max_model_len: 4096,
          },
        ],
      }),
    });
  } catch (e) {
    o.err.write(`stage-lens simulate: cannot listen on ${o.host}:${o.port}: ${(e as Error).message}\n`);
    return 1;
  }

  // Output of the current tick, written as one chunk by flush(): a pipe reader sees a
  // few large writes per second instead of one per log record.
  let pending = '';
  const write = (s: string): void => {
    pending += s;
  };
  /** Writes the tick's output; false when the stream wants us to wait for 'drain'. */
  const flush = (): boolean => {
    if (pending === '') return true;
    const chunk = pending;
    pending = '';
    return o.out.write(chunk);
  };
  write(
    startupLines(writer, {
      topology: o.topology,
      host: o.host,
      port: http.port,
      pid,
      talkerFirstAudioActive: model.talkerFirstAudioActive,
      debug: o.debugTables,
    }),
  );
  flush();
  wallStart = performance.now();

  const queue = new EventQueue();
  let seq = 0;
  let printed = 0;
  const batchCounters = new Map<string, number>();
  const endpoint =
    o.topology.scenario === 'qwen3-tts' || o.topology.scenario === 'cold-start'
      ? '/v1/audio/speech'
      : '/v1/chat/completions';
  const engineProcess =
    o.prefix === 'apiserver' ? `EngineCore_DP0 pid=${pid + 7}` : o.prefix === 'api' ? 'Engine (DP0)' : null;
  const engineWriter = new LogWriter({ process: engineProcess, ansi: o.color, debug: o.debugTables, clock }, o.build);

  let finish: (code: number) => void = () => undefined;
  const done = new Promise<number>((resolve) => {
    finish = resolve;
  });

  /** Generates the requests that arrive by `t`, lazily, so catching up never holds more than it prints. */
  const generateThrough = (t: Micros): void => {
    while (model.peekArrival() <= t) {
      const req = model.next();
      runs.push(req);
      const clientPort = aux.int(32_768, 60_999);
      // The response starts streaming right away: uvicorn's access line comes first.
      queue.push({
        at: req.arrivalTs,
        seq: seq++,
        emit: () => write(writer.uvicorn(`127.0.0.1:${clientPort} - "POST ${endpoint} HTTP/1.1" 200 OK`)),
      });
      if (req.cold) {
        const talker = req.stages[0]!;
        queue.push({
          at: talker.llm!.scheduledTs,
          seq: seq++,
          emit: () => write(engineWriter.line('INFO', 'jit', 'Building JIT module sampling', talker.llm!.scheduledTs)),
        });
      }
      queue.push({ at: req.statsLoggedTs, seq: seq++, emit: () => printRequest(req) });
    }
  };

  const printRequest = (req: RequestRun): void => {
    // batch_id: per-replica sequence number of completed-request events.
    const batchIds = req.stages.map((s) => {
      const k = `${s.stageId}/${s.replicaId}`;
      const n = (batchCounters.get(k) ?? 0) + 1;
      batchCounters.set(k, n);
      return n;
    });
    metrics.record(req, o.build);
    write(writer.requestRecords(req, batchIds));
    printed++;
  };

  const engines = llmEngines(o.topology);
  const lastThroughput = new Map<number, number>();
  let nextEngineLineAt: Micros = ENGINE_LINE_INTERVAL_US;
  const printEngineLines = (t: Micros): void => {
    const snapshots = engineSnapshots(runs, engines, t - ENGINE_LINE_INTERVAL_US, t);
    for (const [i, e] of engines.entries()) {
      const load = snapshots[i]!;
      // Like vLLM, an engine that was idle for two intervals logs at DEBUG only.
      const idle = load.prompt === 0 && load.generation === 0 && (lastThroughput.get(e.engineIndex) ?? 0) === 0;
      lastThroughput.set(e.engineIndex, load.prompt + load.generation);
      const kv = Math.min(100, (100 * load.kvTokens) / KV_CAPACITY_TOKENS);
      const msg =
        `Engine ${String(e.engineIndex).padStart(3, '0')}: Avg prompt throughput: ${pyFixed(load.prompt, 1)} tokens/s, Avg generation throughput: ${pyFixed(load.generation, 1)} tokens/s, ` +
        `Running: ${load.running} reqs, Waiting: ${load.waiting} reqs, GPU KV cache usage: ${pyFixed(kv, 1)}%, Prefix cache hit rate: 0.0%`;
      write(writer.line(idle ? 'DEBUG' : 'INFO', 'engineStats', msg, t));
    }
  };

  let timer: NodeJS.Timeout | null = null;
  const shutdown = (): void => {
    if (stopped) return;
    stopped = true;
    if (timer !== null) clearTimeout(timer);
    write(shutdownLines(writer));
    flush();
    void closeHttpServer(http.server).then(() => finish(0));
  };
  /** The run is over (N requests or the duration): shut down, or freeze and keep serving. */
  const stop = (): void => {
    if (!o.linger) return shutdown();
    if (timer !== null) clearTimeout(timer);
    timer = null;
    flush();
    frozenAt = simNow();
  };

  const tick = (): void => {
    timer = null;
    if (stopped || frozenAt !== null) return;
    const t = simNow();
    // Handles everything due by t in (time, generation order). A request is generated
    // just before the first event that could come after its arrival, which gives the
    // same order as generating every arrival up to t first.
    let handledTo = t;
    let full = false;
    for (;;) {
      generateThrough(Math.min(t, queue.peek()?.at ?? Infinity, nextEngineLineAt));
      const next = queue.peek();
      const nextAt = next?.at ?? Infinity;
      if (nextEngineLineAt <= t && nextEngineLineAt < nextAt) {
        printEngineLines(nextEngineLineAt);
        nextEngineLineAt += ENGINE_LINE_INTERVAL_US;
        continue;
      }
      if (next === undefined || next.at > t) break;
      queue.pop()!.emit();
      if (o.requests !== null && printed >= o.requests) return stop();
      if (pending.length >= MAX_CHUNK_CHARS) {
        full = true;
        handledTo = next.at;
        break;
      }
    }
    // Runs are kept by how far the output got, not the wall clock, so the engine lines do not depend on tick timing.
    while (runs.length > 0 && runs[0]!.statsLoggedTs < handledTo - KEEP_RUNS_US) runs.shift();
    if (!full && o.durationS !== null && t >= o.durationS * 1e6) return stop();
    const wakeAt = Math.min(
      queue.peek()?.at ?? Infinity,
      model.peekArrival(),
      nextEngineLineAt,
      o.durationS === null ? Infinity : o.durationS * 1e6,
    );
    const delayMs = full ? 0 : Math.min(Math.max(MIN_TICK_MS, (wakeAt - t) / 1000 / o.speed), 1_000);
    const wakeWall = performance.now() + delayMs;
    // Backpressure: when the reader is behind (pipe full), wait for it as a blocking
    // writer would instead of buffering without bound; the next tick catches up on
    // everything that fell due meanwhile.
    if (flush()) timer = setTimeout(tick, delayMs);
    else
      o.out.once('drain', () => {
        if (!stopped && frozenAt === null && timer === null)
          timer = setTimeout(tick, Math.max(0, wakeWall - performance.now()));
      });
  };

  const onSignal = (): void => shutdown();
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  tick();
  const code = await done;
  process.off('SIGTERM', onSignal);
  process.off('SIGINT', onSignal);
  return code;
}
