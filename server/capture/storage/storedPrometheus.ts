// The shape check of a stored prometheus.json (the last figures of a Prometheus session).
// The side panel and the exports read every field of it: a file of any other shape (a torn
// write, another version, a hand edit) is refused as a whole rather than shown in part.
import type { PrometheusStageRow, PrometheusTrend } from '../../protocol';
import type { PrometheusState } from '../prometheusSource';
import { PERCENTILES } from '../../core/reportedPercentiles';

type Fields = Record<string, unknown>;

const isObject = (v: unknown): v is Fields => typeof v === 'object' && v !== null && !Array.isArray(v);
const isText = (v: unknown): v is string => typeof v === 'string';
const textOrNull = (v: unknown): boolean => v === null || isText(v);
const numberOrNull = (v: unknown): boolean => v === null || (typeof v === 'number' && Number.isFinite(v));
const texts = (v: unknown): boolean => Array.isArray(v) && v.every(isText);

function isRow(v: unknown): v is PrometheusStageRow {
  if (!isObject(v)) return false;
  return (
    isText(v['family']) &&
    (v['scope'] === 'replica' || v['scope'] === 'stage') &&
    textOrNull(v['stage']) &&
    textOrNull(v['replica']) &&
    texts(v['instances']) &&
    ['count', 'total', 'sum', 'p50', 'p90', 'p99'].every((k) => numberOrNull(v[k])) &&
    Array.isArray(v['openEnded']) &&
    (v['openEnded'] as unknown[]).every((p) => (PERCENTILES as readonly unknown[]).includes(p)) &&
    textOrNull(v['caveat'])
  );
}

function isTrend(v: unknown): v is PrometheusTrend {
  if (
    !isObject(v) ||
    !isText(v['family']) ||
    typeof v['stepSeconds'] !== 'number' ||
    !Array.isArray(v['times']) ||
    !Array.isArray(v['series'])
  )
    return false;
  const times = v['times'] as unknown[];
  if (!times.every((t) => typeof t === 'number' && Number.isFinite(t))) return false;
  return (v['series'] as unknown[]).every(
    (s) =>
      isObject(s) &&
      textOrNull(s['stage']) &&
      textOrNull(s['replica']) &&
      Array.isArray(s['perSecond']) &&
      (s['perSecond'] as unknown[]).length === times.length &&
      (s['perSecond'] as unknown[]).every(numberOrNull),
  );
}

/** The stored figures when the value has their shape; null otherwise. */
export function checkPrometheusState(raw: unknown): PrometheusState | null {
  if (!isObject(raw)) return null;
  const ok =
    isText(raw['url']) &&
    isText(raw['deploymentLabel']) &&
    textOrNull(raw['deploymentValue']) &&
    isText(raw['window']) &&
    numberOrNull(raw['evaluatedAt']) &&
    texts(raw['families']) &&
    texts(raw['instances']) &&
    Array.isArray(raw['rows']) &&
    (raw['rows'] as unknown[]).every(isRow) &&
    (raw['trend'] === null || isTrend(raw['trend'])) &&
    texts(raw['warnings']) &&
    textOrNull(raw['lastError']);
  return ok ? (raw as unknown as PrometheusState) : null;
}
