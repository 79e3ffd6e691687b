// The bounded GET of a /metrics scrape (see httpRequestCapped for the deadline, the size
// cap and the outcomes).
import { httpRequestCapped, type HttpResult } from './httpRequestCapped';

export { type HttpFailureKind, type HttpResult as HttpGetResult } from './httpRequestCapped';

export interface HttpGetOptions {
  readonly timeoutMs: number;
  readonly maxBytes: number;
  /** Aborting resolves the call with kind `aborted` and tears the connection down. */
  readonly signal?: AbortSignal;
}

// Ask for the classic text format: prometheus_client negotiates OpenMetrics or gzip
// only when asked for them.
const ACCEPT_TEXT_FORMAT = 'text/plain;version=0.0.4;q=1,*/*;q=0.1';

export function httpGetCapped(url: URL, options: HttpGetOptions): Promise<HttpResult> {
  return httpRequestCapped(url, { ...options, accept: ACCEPT_TEXT_FORMAT });
}
