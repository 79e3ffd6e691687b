// A small client of Prometheus's HTTP query API: instant queries (/api/v1/query) and
// range queries (/api/v1/query_range) over bounded HTTP (form-encoded POST). Every call resolves to a
// value: the data, or a failure whose message names the server and the cause in words
// a user reads (server down, not a Prometheus server, PromQL rejected and why).
import {
  parseApiResponse,
  type MatrixSeries,
  type PromApiResponse,
  type VectorSeries,
} from '../core/prometheusQuery/apiResponse';
import { httpRequestCapped, type HttpFailureKind, type HttpWording } from './httpRequestCapped';

export const PROMETHEUS_API_DEFAULTS = Object.freeze({ timeoutMs: 5000, maxBytes: 16 * 1024 * 1024 });

export interface PrometheusApiOptions {
  /** Deadline of one query: connect, headers and body (default 5000 ms). */
  readonly timeoutMs?: number;
  /** Largest answer accepted (default 16 MB). */
  readonly maxBytes?: number;
}

export type PromFailureKind = Exclude<HttpFailureKind, 'status'> | 'http' | 'malformed' | 'promql';

export interface PromFailure {
  readonly ok: false;
  readonly kind: PromFailureKind;
  /** Names the server and the cause. */
  readonly message: string;
  /** Prometheus's errorType (bad_data, execution, timeout, ...) when it answered with an error. */
  readonly errorType: string | null;
}

export interface PromSuccess<T> {
  readonly ok: true;
  readonly data: T;
  readonly warnings: readonly string[];
  /** Series or points of the answer that could not be read. */
  readonly skipped: number;
}

export type PromOutcome<T> = PromSuccess<T> | PromFailure;

const PROMETHEUS_WORDING: HttpWording = { server: 'Prometheus', reply: 'answer' };

export class PrometheusConfigError extends Error {
  override readonly name = 'PrometheusConfigError';
}

/**
 * The server's base URL from what a user pastes: `http://host:9090`, `host:9090/`, a
 * `/graph` or `/query` UI address, or an `/api/v1/...` address. A path prefix
 * (`http://host/prometheus`) is kept.
 */
export function checkPrometheusUrl(
  text: string,
): { readonly ok: true; readonly url: URL } | { readonly ok: false; readonly message: string } {
  const trimmed = text.trim();
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`);
  } catch {
    return { ok: false, message: `"${text}" is not a valid URL (expected something like http://127.0.0.1:9090)` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { ok: false, message: `Prometheus is reached over http:// or https://; "${text}" uses ${url.protocol}` };
  let path = withoutTrailingSlashes(url.pathname);
  path = path.replace(/\/api\/v1(\/.*)?$/, '').replace(/\/(graph|query|alerts|targets|status)$/, '');
  url.pathname = path === '' ? '/' : `${path}/`;
  url.search = '';
  url.hash = '';
  return { ok: true, url };
}

function positive(name: string, value: number | undefined, fallback: number): number {
  const chosen = value ?? fallback;
  if (!Number.isFinite(chosen) || chosen <= 0)
    throw new PrometheusConfigError(`${name} must be a positive number, got ${chosen}`);
  return chosen;
}

export class PrometheusApi {
  /** Normalised base URL, ending in `/`. */
  readonly baseUrl: string;
  readonly timeoutMs: number;
  readonly maxBytes: number;
  private readonly base: URL;

  constructor(url: string, options: PrometheusApiOptions = {}) {
    const checked = checkPrometheusUrl(url);
    if (!checked.ok) throw new PrometheusConfigError(checked.message);
    this.base = checked.url;
    this.baseUrl = checked.url.href;
    this.timeoutMs = positive('timeoutMs', options.timeoutMs, PROMETHEUS_API_DEFAULTS.timeoutMs);
    this.maxBytes = positive('maxBytes', options.maxBytes, PROMETHEUS_API_DEFAULTS.maxBytes);
  }

  /** An instant query; `timeSeconds` is the evaluation time (default: the server's now). */
  async query(expr: string, timeSeconds?: number, signal?: AbortSignal): Promise<PromOutcome<VectorSeries[]>> {
    const params: Record<string, string> = { query: expr };
    if (timeSeconds !== undefined) params['time'] = String(timeSeconds);
    const answer = await this.get('api/v1/query', params, signal);
    if (!answer.ok) return answer;
    const data = answer.data;
    if (data.resultType === 'vector') return { ...answer, data: [...data.result] };
    // A scalar expression (e.g. `1 + 1`) is a one-sample vector without labels.
    if (data.resultType === 'scalar') return { ...answer, data: [{ metric: {}, sample: data.result }] };
    return this.failure('malformed', `the query answered a ${data.resultType}, not an instant vector`, null);
  }

  /** A range query from `start` to `end` (seconds since epoch) every `stepSeconds`. */
  async queryRange(
    expr: string,
    start: number,
    end: number,
    stepSeconds: number,
    signal?: AbortSignal,
  ): Promise<PromOutcome<MatrixSeries[]>> {
    const answer = await this.get(
      'api/v1/query_range',
      { query: expr, start: String(start), end: String(end), step: String(stepSeconds) },
      signal,
    );
    if (!answer.ok) return answer;
    if (answer.data.resultType !== 'matrix')
      return this.failure('malformed', `the range query answered a ${answer.data.resultType}, not a matrix`, null);
    return { ...answer, data: [...answer.data.result] };
  }

  private async get(
    path: string,
    params: Record<string, string>,
    signal?: AbortSignal,
  ): Promise<PromOutcome<Extract<PromApiResponse, { status: 'success' }>['data']>> {
    const url = new URL(path, this.base);
    // keepErrorBody: Prometheus explains a rejected query in the body of its 400/422/503.
    const response = await httpRequestCapped(url, {
      form: params,
      accept: 'application/json',
      keepErrorBody: true,
      wording: PROMETHEUS_WORDING,
      timeoutMs: this.timeoutMs,
      maxBytes: this.maxBytes,
      ...(signal === undefined ? {} : { signal }),
    });
    // 'status' cannot come with keepErrorBody; were it to, it is an HTTP failure.
    if (!response.ok) return this.failure(response.kind === 'status' ? 'http' : response.kind, response.cause, null);
    const parsed = parseApiResponse(response.body.toString('utf8'));
    if (parsed.status === 'error') {
      return this.failure(
        'promql',
        `rejected the query (${parsed.errorType}${response.status === 200 ? '' : `, HTTP ${response.status}`}): ${parsed.error}`,
        parsed.errorType,
      );
    }
    if (parsed.status === 'malformed') {
      const http = response.status === 200 ? '' : `HTTP ${response.status} for /${path}; `;
      return this.failure(
        response.status === 200 ? 'malformed' : 'http',
        `${http}${parsed.message}. Is this the base URL of a Prometheus server (like http://host:9090)?`,
        null,
      );
    }
    return { ok: true, data: parsed.data, warnings: parsed.warnings, skipped: parsed.skipped.count };
  }

  private failure(kind: PromFailureKind, cause: string, errorType: string | null): PromFailure {
    return { ok: false, kind, message: `Prometheus at ${this.baseUrl}: ${cause}`, errorType };
  }
}

/** `/a//` → `/a`, by hand: `/\/+$/` backtracks quadratically on a long run of slashes. */
function withoutTrailingSlashes(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 0x2f) end--;
  return text.slice(0, end);
}
