// Load of each engine at a point of simulated time, computed from the same request
// runs the log prints: running/waiting counts for the periodic `Engine NNN:` lines
// and the /metrics gauges, and token throughput over an interval.
import type { Micros, RequestRun, StageRun } from './timeline';
import type { Topology } from './topology';

/** A vLLM engine: one replica of an LLM stage. `engineIndex` is the flat index the logger prints. */
export interface EngineRef {
  readonly engineIndex: number;
  readonly stageId: number;
  readonly replicaId: number;
}

export function llmEngines(t: Topology): EngineRef[] {
  const out: EngineRef[] = [];
  for (const s of t.stages) {
    if (s.kind === 'diffusion') continue;
    for (let r = 0; r < s.replicas; r++) out.push({ engineIndex: out.length, stageId: s.stageId, replicaId: r });
  }
  return out;
}

/** [start, end) of the stage's waiting and running phases. */
function phases(s: StageRun): { queued: Micros; scheduled: Micros; end: Micros } {
  if (s.llm !== null) {
    const last = s.llm.outputs[s.llm.outputs.length - 1]!;
    return { queued: s.llm.queuedTs, scheduled: s.llm.scheduledTs, end: last.engineTs };
  }
  const d = s.diffusion!;
  return { queued: s.submitTs, scheduled: s.submitTs + d.schedulerQueueWaitUs, end: d.imageReadyTs };
}

export interface Load {
  readonly running: number;
  readonly waiting: number;
  /** Tokens held in KV cache by running requests (prompt + generated so far). */
  readonly kvTokens: number;
}

export function stageLoad(runs: Iterable<RequestRun>, stageId: number, replicaId: number | null, t: Micros): Load {
  let running = 0;
  let waiting = 0;
  let kvTokens = 0;
  for (const r of runs) {
    const s = r.stages.find((x) => x.stageId === stageId);
    if (s === undefined || (replicaId !== null && s.replicaId !== replicaId)) continue;
    const p = phases(s);
    if (p.queued <= t && t < p.scheduled) waiting++;
    else if (p.scheduled <= t && t < p.end) {
      running++;
      if (s.llm !== null) {
        const frac = (t - p.scheduled) / Math.max(1, p.end - p.scheduled);
        kvTokens += s.llm.promptTokens + Math.round(frac * s.llm.generationTokens);
      }
    }
  }
  return { running, waiting, kvTokens };
}

/** Whole-pipeline counts: a request waits until stage 0 schedules it, then runs until finalized. */
export function pipelineLoad(runs: Iterable<RequestRun>, t: Micros): { running: number; waiting: number } {
  let running = 0;
  let waiting = 0;
  for (const r of runs) {
    if (t < r.arrivalTs || t >= r.finalizeTs) continue;
    const first = r.stages[0];
    if (first !== undefined && t < phases(first).scheduled) waiting++;
    else running++;
  }
  return { running, waiting };
}

/** Prompt tokens prefilled and tokens generated on one engine during (t0, t1], per second. */
export function throughput(
  runs: Iterable<RequestRun>,
  e: EngineRef,
  t0: Micros,
  t1: Micros,
): { prompt: number; generation: number } {
  let prompt = 0;
  let generation = 0;
  for (const r of runs) {
    const s = r.stages.find((x) => x.stageId === e.stageId);
    if (s === undefined || s.replicaId !== e.replicaId || s.llm === null) continue;
    const p = phases(s);
    if (p.scheduled > t0 && p.scheduled <= t1) prompt += s.llm.promptTokens;
    // Tokens are spread evenly over the running phase: good enough for a throughput line.
    const overlap = Math.max(0, Math.min(t1, p.end) - Math.max(t0, p.scheduled));
    generation +=
      s.llm.generationTokens *
      (p.end > p.scheduled ? overlap / (p.end - p.scheduled) : p.end > t0 && p.end <= t1 ? 1 : 0);
  }
  const seconds = (t1 - t0) / 1e6;
  return { prompt: prompt / seconds, generation: generation / seconds };
}

export interface EngineSnapshot extends Load {
  /** Prompt tokens prefilled per second during (t0, t1]. */
  readonly prompt: number;
  /** Tokens generated per second during (t0, t1]. */
  readonly generation: number;
}

/**
 * `throughput(runs, e, t0, t1)` and `stageLoad(runs, e.stageId, e.replicaId, t1)` for
 * every engine in one pass over the runs (the periodic lines need all of them, and at
 * hundreds of requests per second a pass per engine adds up). Sums are taken in the
 * same order as the per-engine functions, so the printed values are identical.
 */
export function engineSnapshots(
  runs: Iterable<RequestRun>,
  engines: readonly EngineRef[],
  t0: Micros,
  t1: Micros,
): EngineSnapshot[] {
  const acc = engines.map(() => ({ prompt: 0, generation: 0, running: 0, waiting: 0, kvTokens: 0 }));
  const byKey = new Map<string, number>(engines.map((e, i) => [`${e.stageId}/${e.replicaId}`, i]));
  const stageIds = [...new Set(engines.map((e) => e.stageId))];
  for (const r of runs) {
    for (const stageId of stageIds) {
      const s = r.stages.find((x) => x.stageId === stageId);
      if (s === undefined || s.llm === null) continue;
      const i = byKey.get(`${stageId}/${s.replicaId}`);
      if (i === undefined) continue;
      const a = acc[i]!;
      const p = phases(s);
      if (p.scheduled > t0 && p.scheduled <= t1) a.prompt += s.llm.promptTokens;
      const overlap = Math.max(0, Math.min(t1, p.end) - Math.max(t0, p.scheduled));
      a.generation +=
        s.llm.generationTokens *
        (p.end > p.scheduled ? overlap / (p.end - p.scheduled) : p.end > t0 && p.end <= t1 ? 1 : 0);
      if (p.queued <= t1 && t1 < p.scheduled) a.waiting++;
      else if (p.scheduled <= t1 && t1 < p.end) {
        a.running++;
        const frac = (t1 - p.scheduled) / Math.max(1, p.end - p.scheduled);
        a.kvTokens += s.llm.promptTokens + Math.round(frac * s.llm.generationTokens);
      }
    }
  }
  const seconds = (t1 - t0) / 1e6;
  return acc.map((a) => ({ ...a, prompt: a.prompt / seconds, generation: a.generation / seconds }));
}
