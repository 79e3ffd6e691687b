// vLLM's periodic `Engine NNN: ... Running: N reqs, Waiting: N reqs, GPU KV cache usage:
// x%, Prefix cache hit rate: y%` lines as a series per engine (not only the last one),
// with the stage and replica each engine serves. The log names an engine only by its flat
// index over the LLM stages' replicas (vLLM-Omni's stage_replica_map: stage order, then
// replica order); so the stage is read from a `[Stage-N]` prefix when the line has one,
// and otherwise inferred from the (stage, replica) pairs of LLM stages seen in requests.
import type { EngineStatsRecord } from '../records';
import type { AnalyzedRequest } from './types';

/** Points kept per engine; beyond, every other point is dropped and then only every 2nd, 4th... kept. */
const MAX_POINTS = 100_000;

export interface EngineSeries {
  /** `000` as printed. */
  readonly engine: string;
  /** In a log that merges several servers', the server that printed the lines (LogHeader.source): each has its own engines. Null otherwise. */
  readonly server: string | null;
  /** N of a `[Stage-N]` prefix on its lines, or null. */
  readonly stagePrefix: number | null;
  readonly stage: number | null;
  readonly replica: number | null;
  readonly mapping: 'stagePrefix' | 'inferred' | null;
  readonly lines: number;
  /** Log-clock ms of each kept line; NaN where the line had no timestamp. */
  readonly times: readonly number[];
  /** The server boot each kept line was printed in (the analysis's boot number). */
  readonly boots: readonly number[];
  /** NaN where a line did not carry the value. */
  readonly running: readonly number[];
  readonly waiting: readonly number[];
  /** Percent, as printed. */
  readonly kvCacheUsagePerc: readonly number[];
  readonly prefixCacheHitRatePerc: readonly number[];
}

class EngineAccumulator {
  lines = 0;
  stride = 1;
  readonly times: number[] = [];
  readonly boots: number[] = [];
  readonly running: number[] = [];
  readonly waiting: number[] = [];
  readonly kv: number[] = [];
  readonly prefix: number[] = [];

  constructor(
    readonly engine: string,
    readonly stagePrefix: number | null,
    readonly server: string | null,
  ) {}

  add(timeMs: number, boot: number, values: Readonly<Record<string, number>>): void {
    this.lines++;
    if ((this.lines - 1) % this.stride !== 0) return;
    if (this.times.length >= MAX_POINTS) {
      for (const xs of [this.times, this.boots, this.running, this.waiting, this.kv, this.prefix]) {
        let k = 0;
        for (let i = 0; i < xs.length; i += 2) xs[k++] = xs[i];
        xs.length = k;
      }
      this.stride *= 2;
    }
    const v = (key: string): number => values[key] ?? Number.NaN;
    this.times.push(timeMs);
    this.boots.push(boot);
    this.running.push(v('running'));
    this.waiting.push(v('waiting'));
    this.kv.push(v('gpu_kv_cache_usage'));
    this.prefix.push(v('prefix_cache_hit_rate'));
  }
}

export class EngineSeriesBuilder {
  private readonly engines = new Map<string, EngineAccumulator>();
  /** LLM stage id -> highest replica id seen, for the flat engine index. */
  private readonly llmReplicas = new Map<number, number>();

  add(record: EngineStatsRecord, timeMs: number, boot: number): void {
    const stagePrefix = record.header?.stagePrefix ?? null;
    const server = record.header?.source ?? null;
    const key = `${server === null ? '' : `${server}/`}${stagePrefix ?? ''}/${record.engine}`;
    let acc = this.engines.get(key);
    if (acc === undefined) {
      if (this.engines.size >= 1024) return;
      this.engines.set(key, (acc = new EngineAccumulator(record.engine, stagePrefix, server)));
    }
    acc.add(timeMs, boot, record.values);
  }

  noteRequest(request: AnalyzedRequest): void {
    for (const stage of request.stages) {
      if (stage.kind !== 'llm' || stage.stageId === null || stage.replicaId === null) continue;
      const seen = this.llmReplicas.get(stage.stageId);
      if (seen === undefined || stage.replicaId > seen) this.llmReplicas.set(stage.stageId, stage.replicaId);
    }
  }

  get size(): number {
    return this.engines.size;
  }

  series(): EngineSeries[] {
    const flat: [number, number][] = [];
    for (const [stage, maxReplica] of [...this.llmReplicas].sort((a, b) => a[0] - b[0]))
      for (let r = 0; r <= maxReplica; r++) flat.push([stage, r]);
    return [...this.engines.values()].map((e) => {
      let stage: number | null = null;
      let replica: number | null = null;
      let mapping: EngineSeries['mapping'] = null;
      const index = /^\d+$/.test(e.engine) ? Number(e.engine) : null;
      if (e.stagePrefix !== null) {
        stage = e.stagePrefix;
        replica = index;
        mapping = 'stagePrefix';
      } else if (index !== null && index < flat.length) {
        [stage, replica] = flat[index];
        mapping = 'inferred';
      }
      return {
        engine: e.engine,
        server: e.server,
        stagePrefix: e.stagePrefix,
        stage,
        replica,
        mapping,
        lines: e.lines,
        times: e.times,
        boots: e.boots,
        running: e.running,
        waiting: e.waiting,
        kvCacheUsagePerc: e.kv,
        prefixCacheHitRatePerc: e.prefix,
      };
    });
  }
}
