// Reads the JSON envelope of Prometheus's HTTP API (`/api/v1/query`,
// `/api/v1/query_range`) into typed values without ever throwing:
//   {"status":"success","data":{"resultType":"vector","result":[{"metric":{...},"value":[1712.5,"0.25"]}]},"warnings":[...]}
//   {"status":"error","errorType":"bad_data","error":"1:5: parse error: ..."}
// Sample values arrive as strings ("0.25", "NaN", "+Inf", "-Inf") and are returned as
// numbers with NaN and ±Infinity kept: the caller decides what NaN means (for a
// quantile: no observation in the window, which is "no data", never 0). Series that
// cannot be read (a native-histogram sample, a broken pair) are skipped and counted.
import { setLabel } from '../metricsText/labels';
import type { Labels } from '../metricsText/model';

export interface PromSample {
  /** Evaluation time, seconds since epoch (Prometheus's float timestamps). */
  readonly t: number;
  readonly v: number;
}

export interface VectorSeries {
  readonly metric: Labels;
  readonly sample: PromSample;
}

export interface MatrixSeries {
  readonly metric: Labels;
  readonly samples: readonly PromSample[];
}

export type PromData =
  | { readonly resultType: 'vector'; readonly result: readonly VectorSeries[] }
  | { readonly resultType: 'matrix'; readonly result: readonly MatrixSeries[] }
  | { readonly resultType: 'scalar'; readonly result: PromSample }
  | { readonly resultType: 'string'; readonly result: { readonly t: number; readonly v: string } };

export type PromApiResponse =
  | {
      readonly status: 'success';
      readonly data: PromData;
      readonly warnings: readonly string[];
      /** Series or points that could not be read and were left out, with the first reason. */
      readonly skipped: { readonly count: number; readonly first: string | null };
    }
  | {
      readonly status: 'error';
      readonly errorType: string;
      readonly error: string;
      readonly warnings: readonly string[];
    }
  /** Not an API answer at all (HTML, truncated JSON, another service). */
  | { readonly status: 'malformed'; readonly message: string };

/** A Prometheus sample value string as a number: `NaN`, `+Inf`, `-Inf` included; undefined when unreadable. */
export function parseSampleValue(raw: unknown): number | undefined {
  if (typeof raw !== 'string') return undefined;
  switch (raw) {
    case 'NaN':
      return NaN;
    case '+Inf':
    case 'Inf':
      return Infinity;
    case '-Inf':
      return -Infinity;
  }
  if (raw.trim() === '' || raw !== raw.trim()) return undefined;
  const n = Number(raw);
  return Number.isNaN(n) ? undefined : n;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((w): w is string => typeof w === 'string') : [];
}

class Skips {
  count = 0;
  first: string | null = null;
  add(reason: string): void {
    this.count += 1;
    if (this.first === null) this.first = reason;
  }
}

function sampleOf(pair: unknown, skips: Skips, where: string): PromSample | null {
  if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'number' || !Number.isFinite(pair[0])) {
    skips.add(`${where}: a sample is not a [time, "value"] pair`);
    return null;
  }
  const v = parseSampleValue(pair[1]);
  if (v === undefined) {
    skips.add(`${where}: sample value ${JSON.stringify(pair[1])?.slice(0, 40)} is not a number`);
    return null;
  }
  return { t: pair[0], v };
}

function labelsOf(metric: unknown): Labels | null {
  if (!isRecord(metric)) return null;
  const labels: Record<string, string> = {};
  for (const name of Object.keys(metric)) {
    const value = metric[name];
    if (typeof value !== 'string') return null;
    setLabel(labels, name, value);
  }
  return labels;
}

function nativeHistogramNote(series: Record<string, unknown>, where: string, skips: Skips): boolean {
  if ('histogram' in series || 'histograms' in series) {
    skips.add(`${where}: native-histogram samples are not read (classic _bucket series are)`);
    return true;
  }
  return false;
}

function vectorOf(result: unknown[], skips: Skips): VectorSeries[] {
  const out: VectorSeries[] = [];
  result.forEach((series, i) => {
    const where = `series ${i + 1}`;
    if (!isRecord(series)) return skips.add(`${where}: not an object`);
    const metric = labelsOf(series['metric']);
    if (metric === null) return skips.add(`${where}: "metric" is not a label object`);
    if (!('value' in series) && nativeHistogramNote(series, where, skips)) return;
    const sample = sampleOf(series['value'], skips, where);
    if (sample !== null) out.push({ metric, sample });
  });
  return out;
}

function matrixOf(result: unknown[], skips: Skips): MatrixSeries[] {
  const out: MatrixSeries[] = [];
  result.forEach((series, i) => {
    const where = `series ${i + 1}`;
    if (!isRecord(series)) return skips.add(`${where}: not an object`);
    const metric = labelsOf(series['metric']);
    if (metric === null) return skips.add(`${where}: "metric" is not a label object`);
    const values = series['values'];
    if (!Array.isArray(values)) {
      if (!nativeHistogramNote(series, where, skips)) skips.add(`${where}: "values" is not a list`);
      return;
    }
    nativeHistogramNote(series, where, skips);
    const samples: PromSample[] = [];
    for (const pair of values) {
      const s = sampleOf(pair, skips, where);
      if (s !== null) samples.push(s);
    }
    out.push({ metric, samples });
  });
  return out;
}

function dataOf(data: unknown, skips: Skips): PromData | string {
  if (!isRecord(data)) return 'the answer has no "data" object';
  const type = data['resultType'];
  const result = data['result'];
  switch (type) {
    case 'vector':
      return Array.isArray(result)
        ? { resultType: 'vector', result: vectorOf(result, skips) }
        : 'the vector result is not a list';
    case 'matrix':
      return Array.isArray(result)
        ? { resultType: 'matrix', result: matrixOf(result, skips) }
        : 'the matrix result is not a list';
    case 'scalar': {
      const s = sampleOf(result, skips, 'scalar');
      return s === null ? 'the scalar result is not a [time, "value"] pair' : { resultType: 'scalar', result: s };
    }
    case 'string':
      return Array.isArray(result) && typeof result[0] === 'number' && typeof result[1] === 'string'
        ? { resultType: 'string', result: { t: result[0], v: result[1] } }
        : 'the string result is not a [time, "text"] pair';
    default:
      return `unknown resultType ${JSON.stringify(type)?.slice(0, 40) ?? 'undefined'}`;
  }
}

/** Parses the body of a query or query_range answer (any HTTP status: errors come with a JSON body too). */
export function parseApiResponse(body: string): PromApiResponse {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    const start = body.trimStart().slice(0, 60).replace(/\s+/g, ' ');
    return {
      status: 'malformed',
      message: `the answer is not JSON${start === '' ? ' (empty body)' : ` (it starts with "${start}")`}`,
    };
  }
  if (!isRecord(json)) return { status: 'malformed', message: 'the answer is JSON but not an object' };
  const warnings = stringsOf(json['warnings']);
  if (json['status'] === 'error') {
    const errorType = typeof json['errorType'] === 'string' ? json['errorType'] : 'unknown';
    const error = typeof json['error'] === 'string' ? json['error'] : '(no message)';
    return { status: 'error', errorType, error, warnings };
  }
  if (json['status'] !== 'success')
    return {
      status: 'malformed',
      message: `the answer has no "status": "success" or "error" (got ${JSON.stringify(json['status'])?.slice(0, 40) ?? 'nothing'})`,
    };
  const skips = new Skips();
  const data = dataOf(json['data'], skips);
  if (typeof data === 'string') return { status: 'malformed', message: data };
  return { status: 'success', data, warnings, skipped: { count: skips.count, first: skips.first } };
}
