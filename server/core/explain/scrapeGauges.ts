// The engines' gauges from /metrics scrapes, kept as a series per (stage, replica):
// `vllm:num_requests_running`, `vllm:num_requests_waiting` and `vllm:kv_cache_usage_perc`
// (exposed as a fraction, 1 = 100%; kept in percent like the log line). A series that a
// scrape does not expose gets no point (not 0). Bounded: past MAX_POINTS a series keeps
// every other point.
import { findFamily } from '../metricsText/metricNames';
import type { Labels, MetricFamily, ParsedExposition, ScalarFamily } from '../metricsText/model';
import type { GaugeSamples } from './types';

const MAX_POINTS = 20_000;

interface Series {
  readonly stage: string | null;
  readonly replica: string | null;
  times: number[];
  running: number[];
  waiting: number[];
  kv: number[];
}

function scalars(family: MetricFamily | undefined): readonly { labels: Labels; value: number }[] {
  if (family === undefined || (family.type !== 'gauge' && family.type !== 'untyped' && family.type !== 'counter'))
    return [];
  return (family as ScalarFamily).series;
}

const keyOf = (labels: Labels): string => `${labels['stage'] ?? ''}/${labels['replica'] ?? ''}`;

export class ScrapeGauges {
  private readonly series = new Map<string, Series>();

  /** One scrape taken at `atMs` (ms since epoch). */
  add(exposition: ParsedExposition, atMs: number): void {
    const values = new Map<string, { labels: Labels; running?: number; waiting?: number; kv?: number }>();
    const take = (name: string, field: 'running' | 'waiting' | 'kv', scale: number): void => {
      for (const s of scalars(findFamily(exposition, name))) {
        // Only the per-stage (engine) series: the pipeline-wide vllm_omni gauges carry no stage.
        if (!('stage' in s.labels)) continue;
        const key = keyOf(s.labels);
        let v = values.get(key);
        if (v === undefined) values.set(key, (v = { labels: s.labels }));
        v[field] = (v[field] ?? 0) + s.value * scale;
      }
    };
    take('vllm:num_requests_running', 'running', 1);
    take('vllm:num_requests_waiting', 'waiting', 1);
    take('vllm:kv_cache_usage_perc', 'kv', 100);
    for (const [key, v] of values) {
      let s = this.series.get(key);
      if (s === undefined)
        this.series.set(
          key,
          (s = {
            stage: v.labels['stage'] ?? null,
            replica: v.labels['replica'] ?? null,
            times: [],
            running: [],
            waiting: [],
            kv: [],
          }),
        );
      if (s.times.length >= MAX_POINTS) {
        const half = <T>(xs: T[]): T[] => xs.filter((_, i) => i % 2 === 1);
        s.times = half(s.times);
        s.running = half(s.running);
        s.waiting = half(s.waiting);
        s.kv = half(s.kv);
      }
      s.times.push(atMs);
      s.running.push(v.running ?? Number.NaN);
      s.waiting.push(v.waiting ?? Number.NaN);
      s.kv.push(v.kv ?? Number.NaN);
    }
  }

  get size(): number {
    return this.series.size;
  }

  /** The series with their times moved by `-offsetMs` (onto the log clock), by stage then replica. */
  samples(source: GaugeSamples['source'], offsetMs = 0): GaugeSamples[] {
    return [...this.series.values()]
      .sort((a, b) => Number(a.stage) - Number(b.stage) || Number(a.replica) - Number(b.replica))
      .map((s) => ({
        stage: s.stage,
        replica: s.replica,
        source,
        engine: null,
        mapping: 'labels' as const,
        times: offsetMs === 0 ? s.times : s.times.map((t) => t - offsetMs),
        running: s.running,
        waiting: s.waiting,
        kvCacheUsagePerc: s.kv,
      }));
  }
}
