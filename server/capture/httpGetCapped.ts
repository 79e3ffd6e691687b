// One HTTP GET with a hard deadline and a hard size cap, for scraping /metrics. It never
// rejects: every outcome, including a refused connection or a server that accepts and
// then says nothing (or trickles bytes), comes back as a value. The deadline covers the
// whole exchange (connect, headers, body), and the body is dropped as soon as it grows
// past the cap, so a 50 MB answer costs at most about `maxBytes` of memory.
import * as http from 'node:http';
import * as https from 'node:https';

export type HttpFailureKind = 'refused' | 'timeout' | 'tooLarge' | 'status' | 'network' | 'aborted';

export interface HttpGetOptions {
  readonly timeoutMs: number;
  readonly maxBytes: number;
  /** Aborting resolves the call with kind `aborted` and tears the connection down. */
  readonly signal?: AbortSignal;
}

export interface HttpGetSuccess {
  readonly ok: true;
  readonly status: number;
  readonly body: Buffer;
  readonly durationMs: number;
}

export interface HttpGetFailure {
  readonly ok: false;
  readonly kind: HttpFailureKind;
  /** What went wrong, in words a user reads (without the URL; the caller adds it). */
  readonly cause: string;
  readonly status: number | null;
  /** Body bytes received before giving up. */
  readonly receivedBytes: number;
  readonly durationMs: number;
}

export type HttpGetResult = HttpGetSuccess | HttpGetFailure;

// Ask for the classic text format: prometheus_client negotiates OpenMetrics or gzip
// only when asked for them.
const REQUEST_HEADERS = {
  accept: 'text/plain;version=0.0.4;q=1,*/*;q=0.1',
  'accept-encoding': 'identity',
  'user-agent': 'stage-lens',
};

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} B`;
}

function describeSocketError(error: NodeJS.ErrnoException, url: URL): { kind: HttpFailureKind; cause: string } {
  switch (error.code) {
    case 'ECONNREFUSED':
      return { kind: 'refused', cause: `connection refused (is the server running and listening on port ${url.port || (url.protocol === 'https:' ? 443 : 80)}?)` };
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return { kind: 'network', cause: `host "${url.hostname}" not found` };
    case 'ECONNRESET':
      return { kind: 'network', cause: 'the server closed the connection before answering completely' };
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return { kind: 'network', cause: `host "${url.hostname}" is unreachable` };
    default:
      return { kind: 'network', cause: error.code === undefined ? error.message : `${error.message} (${error.code})` };
  }
}

export function httpGetCapped(url: URL, options: HttpGetOptions): Promise<HttpGetResult> {
  const { timeoutMs, maxBytes, signal } = options;
  const started = performance.now();
  return new Promise<HttpGetResult>((resolve) => {
    let settled = false;
    let receivedBytes = 0;
    let status: number | null = null;
    const chunks: Buffer[] = [];

    const fail = (kind: HttpFailureKind, cause: string): void =>
      finish({ ok: false, kind, cause, status, receivedBytes, durationMs: performance.now() - started });

    function finish(result: HttpGetResult): void {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      signal?.removeEventListener('abort', onAbort);
      if (!result.ok) chunks.length = 0;
      request.destroy();
      resolve(result);
    }

    function onAbort(): void {
      fail('aborted', 'stopped');
    }

    const transport = url.protocol === 'https:' ? https : http;
    // agent: false -> a fresh connection that closes after the answer: no pooled
    // keep-alive sockets outlive a scrape or a stop().
    const request = transport.request(url, { method: 'GET', agent: false, headers: REQUEST_HEADERS });
    const deadline = setTimeout(() => fail('timeout', `no complete response within ${timeoutMs} ms`), timeoutMs);

    request.on('error', (error: NodeJS.ErrnoException) => {
      const described = describeSocketError(error, url);
      fail(described.kind, described.cause);
    });
    request.on('response', (response) => {
      status = response.statusCode ?? null;
      response.on('error', () => fail('network', 'the connection broke while reading the body'));
      response.on('close', () => {
        if (!response.complete) fail('network', 'the connection broke while reading the body');
      });
      if (status !== 200) {
        fail('status', `the server answered HTTP ${status ?? '?'}${response.statusMessage ? ' ' + response.statusMessage : ''}`);
        return;
      }
      const encoding = response.headers['content-encoding'];
      if (encoding !== undefined && encoding !== 'identity') {
        fail('network', `unsupported content-encoding "${encoding}"`);
        return;
      }
      const declared = Number(response.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes) {
        fail('tooLarge', `the response is larger than the ${formatBytes(maxBytes)} limit (${formatBytes(declared)} announced); not read`);
        return;
      }
      response.on('data', (chunk: Buffer) => {
        if (settled) return;
        receivedBytes += chunk.length;
        if (receivedBytes > maxBytes) {
          fail('tooLarge', `the response is larger than the ${formatBytes(maxBytes)} limit; stopped reading there`);
          return;
        }
        chunks.push(chunk);
      });
      response.on('end', () => {
        finish({ ok: true, status: 200, body: Buffer.concat(chunks, receivedBytes), durationMs: performance.now() - started });
      });
    });

    if (signal?.aborted) {
      onAbort();
      return;
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    request.end();
  });
}
