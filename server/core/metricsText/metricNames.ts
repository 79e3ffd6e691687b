// Metric-name normalisation. vLLM-Omni renamed its prefix from `vllm:omni_` (vllm-omni#3576)
// to `vllm_omni:` (vllm-omni#4396, 2026-06-18); servers of both ages are in the field, so
// everything downstream works on the canonical (new) spelling and keeps the original.
import type { MetricFamily, ParsedExposition } from './model';

export const OMNI_PREFIX = 'vllm_omni:';
export const LEGACY_OMNI_PREFIX = 'vllm:omni_';

/** `vllm:omni_<rest>` -> `vllm_omni:<rest>`; every other name is returned unchanged. */
export function canonicalMetricName(name: string): string {
  return name.startsWith(LEGACY_OMNI_PREFIX) ? OMNI_PREFIX + name.slice(LEGACY_OMNI_PREFIX.length) : name;
}

/** True for names whose suffix says the values are seconds (`_seconds`, `_s`). */
export function isSecondsMetric(name: string): boolean {
  return name.endsWith('_seconds') || name.endsWith('_s');
}

/** The first family whose canonical name equals the canonical form of `name`. */
export function findFamily(exposition: ParsedExposition, name: string): MetricFamily | undefined {
  const wanted = canonicalMetricName(name);
  return exposition.families.find((family) => family.canonicalName === wanted);
}
