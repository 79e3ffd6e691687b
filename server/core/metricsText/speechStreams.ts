// The speech streaming counters of a /metrics scrape (vLLM-Omni docs, "Speech streaming"):
//   vllm_omni:speech_stream_completed_total{model_name}
//   vllm_omni:speech_stream_aborted_total{model_name, reason in cancelled|closed|engine_dead|error}
// per model. A series the server did not expose stays unknown (null), never 0; a reason the
// docs do not list is kept as the server names it.
import { canonicalMetricName } from './metricNames';
import type { ParsedExposition, ScalarSeries } from './model';

export const SPEECH_STREAM_COMPLETED = 'vllm_omni:speech_stream_completed_total';
export const SPEECH_STREAM_ABORTED = 'vllm_omni:speech_stream_aborted_total';

/** Speech streams of one model (`model_name` label; null when the series has none). */
export interface SpeechStreamCounts {
  readonly modelName: string | null;
  /** Completed streams; null when the completed counter is not exposed for the model. */
  readonly completed: number | null;
  /** Aborted streams by `reason` (a series without the label under `unknown`); {} when none is exposed. */
  readonly aborted: Readonly<Record<string, number>>;
  /** The sum of `aborted`; null when no aborted series is exposed for the model. */
  readonly abortedTotal: number | null;
}

/** The family name without `_total`, as either declaration style (`# TYPE x counter` / `# TYPE x_total counter`) names it. */
function baseName(name: string): string {
  const canonical = canonicalMetricName(name);
  return canonical.endsWith('_total') ? canonical.slice(0, -'_total'.length) : canonical;
}

const COMPLETED_BASE = baseName(SPEECH_STREAM_COMPLETED);
const ABORTED_BASE = baseName(SPEECH_STREAM_ABORTED);

export function speechStreamsOf(parsed: ParsedExposition): SpeechStreamCounts[] {
  const byModel = new Map<string | null, { completed: number | null; aborted: Record<string, number> | null }>();
  const entry = (s: ScalarSeries): { completed: number | null; aborted: Record<string, number> | null } => {
    const model = s.labels['model_name'] ?? null;
    let e = byModel.get(model);
    if (e === undefined) byModel.set(model, (e = { completed: null, aborted: null }));
    return e;
  };
  for (const family of parsed.families) {
    if (family.type !== 'counter' && family.type !== 'untyped') continue;
    const base = baseName(family.name);
    if (base !== COMPLETED_BASE && base !== ABORTED_BASE) continue;
    for (const s of family.series) {
      if (!Number.isFinite(s.value)) continue;
      const e = entry(s);
      if (base === COMPLETED_BASE) e.completed = (e.completed ?? 0) + s.value;
      else {
        const reason = s.labels['reason'] ?? 'unknown';
        e.aborted ??= Object.create(null) as Record<string, number>;
        e.aborted[reason] = (e.aborted[reason] ?? 0) + s.value;
      }
    }
  }
  return [...byModel]
    .sort(([a], [b]) => (a ?? '').localeCompare(b ?? ''))
    .map(([modelName, e]) => {
      const aborted: Record<string, number> = {};
      let total: number | null = null;
      if (e.aborted !== null) {
        for (const reason of Object.keys(e.aborted).sort()) {
          const v = e.aborted[reason];
          Object.defineProperty(aborted, reason, { value: v, enumerable: true, writable: true, configurable: true });
          total = (total ?? 0) + v;
        }
      }
      return { modelName, completed: e.completed, aborted, abortedTotal: total };
    });
}

/** The counts read back from JSON (a saved summary): what is well formed is kept, a count not a number stays unknown (null). */
export function speechStreamsFromJson(raw: unknown): SpeechStreamCounts[] {
  if (!Array.isArray(raw)) return [];
  const out: SpeechStreamCounts[] = [];
  const count = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  for (const item of raw as unknown[]) {
    if (typeof item !== 'object' || item === null) continue;
    const r = item as Record<string, unknown>;
    const modelName = r['modelName'];
    if (modelName !== null && typeof modelName !== 'string') continue;
    const aborted: Record<string, number> = {};
    const rawAborted = r['aborted'];
    if (typeof rawAborted === 'object' && rawAborted !== null)
      for (const [reason, v] of Object.entries(rawAborted as Record<string, unknown>)) {
        const n = count(v);
        // A reason may be named `__proto__`: defined, never assigned.
        if (n !== null)
          Object.defineProperty(aborted, reason, { value: n, enumerable: true, writable: true, configurable: true });
      }
    out.push({ modelName, completed: count(r['completed']), aborted, abortedTotal: count(r['abortedTotal']) });
  }
  return out;
}
