// vLLM's preemption counter per (stage, replica): `vllm:num_preemptions_total`, the times
// the engine took a request's KV-cache blocks for others since the server started. A
// scrape without the family says nothing about preemptions (null: not exposed), which is
// not a count of 0; a series reading 0 is a measured 0.
import { findFamily } from './metricNames';
import type { ParsedExposition } from './model';

export const PREEMPTIONS_FAMILY = 'vllm:num_preemptions_total';

/** One series of the counter. */
export interface PreemptionCount {
  /** The `stage` label as exposed; null when the series has none. */
  readonly stage: string | null;
  readonly replica: string | null;
  readonly count: number;
}

/** The counter's series, by stage then replica; null when the scrape has no such family. */
export function preemptionsOf(parsed: ParsedExposition): PreemptionCount[] | null {
  const family = findFamily(parsed, PREEMPTIONS_FAMILY) ?? findFamily(parsed, 'vllm:num_preemptions');
  if (family === undefined || (family.type !== 'counter' && family.type !== 'untyped' && family.type !== 'gauge'))
    return null;
  const out: PreemptionCount[] = [];
  for (const s of family.series) {
    if (!Number.isFinite(s.value)) continue;
    out.push({ stage: s.labels['stage'] ?? null, replica: s.labels['replica'] ?? null, count: s.value });
  }
  const n = (v: string | null): number => (v === null ? Infinity : Number(v));
  return out.sort((a, b) => n(a.stage) - n(b.stage) || n(a.replica) - n(b.replica));
}

/** The same read back from JSON (a saved or older summary): null when absent or malformed. */
export function preemptionsFromJson(raw: unknown): PreemptionCount[] | null {
  if (!Array.isArray(raw)) return null;
  const out: PreemptionCount[] = [];
  for (const item of raw as unknown[]) {
    if (typeof item !== 'object' || item === null) continue;
    const r = item as Record<string, unknown>;
    if (typeof r['count'] !== 'number' || !Number.isFinite(r['count'])) continue;
    const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);
    out.push({ stage: text(r['stage']), replica: text(r['replica']), count: r['count'] });
  }
  return out;
}
