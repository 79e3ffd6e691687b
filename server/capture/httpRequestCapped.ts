// One HTTP request with a hard deadline and a hard size cap, for scraping /metrics (a GET)
// and for Prometheus's query API (a form-encoded POST: a family query is several KB of
// PromQL, more than some proxies accept in a URL). It never rejects: every outcome,
// including a refused connection or a server that accepts and then says nothing (or
// trickles bytes), comes back as a value. The deadline covers the whole exchange
// (connect, headers, body), and the body is dropped as soon as it grows past the cap, so
// a 50 MB answer costs at most about `maxBytes` of memory.
import * as http from 'node:http';
import * as https from 'node:https';
import { byteSizeText } from '../core/numberText';

export type HttpFailureKind = 'refused' | 'timeout' | 'tooLarge' | 'status' | 'network' | 'aborted';

/** How messages name the server and what it sends back. */
export interface HttpWording {
  /** e.g. "the server", "Prometheus" (in "is … running and listening on port …?"). */
  readonly server: string;
  /** e.g. "response", "answer" (in "no complete … within …", "the … is larger than …"). */
  readonly reply: string;
}

export interface HttpRequestOptions {
  readonly timeoutMs: number;
  readonly maxBytes: number;
  /** Aborting resolves the call with kind `aborted` and tears the connection down. */
  readonly signal?: AbortSignal;
  /** The Accept header. */
  readonly accept: string;
  /** Form fields sent as an application/x-www-form-urlencoded POST body; a GET without them. */
  readonly form?: Readonly<Record<string, string>>;
  /**
   * Read the body of a non-200 answer like any other instead of failing with kind
   * `status`: an API such as Prometheus's explains a bad query (400), an execution error
   * (422) or a timeout (503) in it, and that explanation is what a user needs.
   */
  readonly keepErrorBody?: boolean;
  readonly wording?: HttpWording;
}

export interface HttpSuccess {
  readonly ok: true;
  readonly status: number;
  readonly contentType: string;
  readonly body: Buffer;
  readonly durationMs: number;
}

export interface HttpFailure {
  readonly ok: false;
  readonly kind: HttpFailureKind;
  /** What went wrong, in words a user reads (without the URL; the caller adds it). */
  readonly cause: string;
  readonly status: number | null;
  /** Body bytes received before giving up. */
  readonly receivedBytes: number;
  readonly durationMs: number;
}

export type HttpResult = HttpSuccess | HttpFailure;

const DEFAULT_WORDING: HttpWording = { server: 'the server', reply: 'response' };

function describeSocketError(
  error: NodeJS.ErrnoException,
  url: URL,
  server: string,
): { kind: HttpFailureKind; cause: string } {
  switch (error.code) {
    case 'ECONNREFUSED':
      return {
        kind: 'refused',
        cause: `connection refused (is ${server} running and listening on port ${url.port || (url.protocol === 'https:' ? 443 : 80)}?)`,
      };
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

export function httpRequestCapped(url: URL, options: HttpRequestOptions): Promise<HttpResult> {
  const { timeoutMs, maxBytes, signal, form, keepErrorBody = false } = options;
  const { server, reply } = options.wording ?? DEFAULT_WORDING;
  const body = form === undefined ? null : new URLSearchParams(form).toString();
  const started = performance.now();
  return new Promise<HttpResult>((resolve) => {
    let settled = false;
    let receivedBytes = 0;
    let status: number | null = null;
    const chunks: Buffer[] = [];

    const fail = (kind: HttpFailureKind, cause: string): void =>
      finish({ ok: false, kind, cause, status, receivedBytes, durationMs: performance.now() - started });

    function finish(result: HttpResult): void {
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
    const baseHeaders = { accept: options.accept, 'accept-encoding': 'identity', 'user-agent': 'stage-lens' };
    const headers =
      body === null
        ? baseHeaders
        : {
            ...baseHeaders,
            'content-type': 'application/x-www-form-urlencoded',
            'content-length': String(Buffer.byteLength(body)),
          };
    // agent: false -> a fresh connection that closes after the answer: no pooled
    // keep-alive sockets outlive a scrape, a poll or a stop().
    const request = transport.request(url, { method: body === null ? 'GET' : 'POST', agent: false, headers });
    const deadline = setTimeout(() => fail('timeout', `no complete ${reply} within ${timeoutMs} ms`), timeoutMs);

    request.on('error', (error: NodeJS.ErrnoException) => {
      const described = describeSocketError(error, url, server);
      fail(described.kind, described.cause);
    });
    request.on('response', (response) => {
      status = response.statusCode ?? null;
      response.on('error', () => fail('network', `the connection broke while reading the ${reply}`));
      response.on('close', () => {
        if (!response.complete) fail('network', `the connection broke while reading the ${reply}`);
      });
      if (!keepErrorBody && status !== 200) {
        fail(
          'status',
          `${server} answered HTTP ${status ?? '?'}${response.statusMessage ? ' ' + response.statusMessage : ''}`,
        );
        return;
      }
      const encoding = response.headers['content-encoding'];
      if (encoding !== undefined && encoding !== 'identity') {
        fail('network', `unsupported content-encoding "${encoding}"`);
        return;
      }
      const declared = Number(response.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes) {
        fail(
          'tooLarge',
          `the ${reply} is larger than the ${byteSizeText(maxBytes)} limit (${byteSizeText(declared)} announced); not read`,
        );
        return;
      }
      response.on('data', (chunk: Buffer) => {
        if (settled) return;
        receivedBytes += chunk.length;
        if (receivedBytes > maxBytes) {
          fail('tooLarge', `the ${reply} is larger than the ${byteSizeText(maxBytes)} limit; stopped reading there`);
          return;
        }
        chunks.push(chunk);
      });
      response.on('end', () => {
        finish({
          ok: true,
          status: status ?? 0,
          contentType: String(response.headers['content-type'] ?? ''),
          body: Buffer.concat(chunks, receivedBytes),
          durationMs: performance.now() - started,
        });
      });
    });

    if (signal?.aborted) {
      onAbort();
      return;
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    request.end(body ?? undefined);
  });
}
