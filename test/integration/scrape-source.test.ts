// ScrapeSource against real HTTP servers on 127.0.0.1, started inside each test.
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ScrapeConfigError,
  ScrapeSource,
  type ScrapeError,
  type ScrapeResult,
} from '../../server/capture/scrapeSource';
import { findFamily } from '../../server/core/metricsText/metricNames';
import { HEALTHY_SCRAPE } from '../unit/support/scrapeFixtures';

interface TestServer {
  readonly port: number;
  readonly url: string;
  readonly requests: http.IncomingMessage[];
  close(): Promise<void>;
}

const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function startServer(handler: http.RequestListener, port = 0): Promise<TestServer> {
  const requests: http.IncomingMessage[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req);
    handler(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const actualPort = (server.address() as AddressInfo).port;
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  cleanups.push(close);
  return { port: actualPort, url: `http://127.0.0.1:${actualPort}/metrics`, requests, close };
}

function source(
  url: string,
  options: { intervalMs?: number; timeoutMs?: number; maxBytes?: number } = {},
): ScrapeSource {
  const scraper = new ScrapeSource({ url, intervalMs: 40, timeoutMs: 500, ...options });
  cleanups.push(() => scraper.stop());
  return scraper;
}

function next<T>(subscribe: (listener: (value: T) => void) => () => void, what: string, withinMs = 3000): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error(`no ${what} within ${withinMs} ms`));
    }, withinMs);
    const unsubscribe = subscribe((value) => {
      clearTimeout(timer);
      unsubscribe();
      resolve(value);
    });
  });
}

const nextScrape = (s: ScrapeSource, withinMs?: number): Promise<ScrapeResult> =>
  next((l) => s.onScrape(l), 'scrape', withinMs);
const nextError = (s: ScrapeSource, withinMs?: number): Promise<ScrapeError> =>
  next((l) => s.onError(l), 'error', withinMs);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function servePrometheus(body: string): http.RequestListener {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' });
    res.end(body);
  };
}

describe('ScrapeSource', () => {
  it('scrapes at the interval and parses the body', async () => {
    const server = await startServer(servePrometheus(HEALTHY_SCRAPE));
    const scraper = source(server.url);
    const first = nextScrape(scraper);
    scraper.start();
    const result = await first;
    assert.equal(result.url, server.url);
    assert.equal(result.bytes, Buffer.byteLength(HEALTHY_SCRAPE));
    assert.deepEqual(result.exposition.problems, []);
    assert.equal(findFamily(result.exposition, 'vllm_omni:audio_ttfp_s')?.type, 'histogram');
    const second = await nextScrape(scraper);
    assert.ok(second.at >= result.at);
    assert.equal(scraper.lastGood, second);
    assert.equal(scraper.currentError, null);
    assert.equal(server.requests[0]?.headers['accept'], 'text/plain;version=0.0.4;q=1,*/*;q=0.1');
    await scraper.stop();
    const seen = server.requests.length;
    await sleep(150);
    assert.equal(server.requests.length, seen, 'no scrape after stop()');
  });

  it('turns a bare host:port into /metrics', async () => {
    const server = await startServer(servePrometheus('up 1\n'));
    const scraper = source(`http://127.0.0.1:${server.port}`);
    assert.equal(scraper.url, server.url);
    const first = nextScrape(scraper);
    scraper.start();
    await first;
    assert.equal(server.requests[0]?.url, '/metrics');
  });

  it('reports a refused connection, then recovers when the endpoint comes up', async () => {
    const placeholder = await startServer(() => undefined);
    const port = placeholder.port;
    await placeholder.close();
    const url = `http://127.0.0.1:${port}/metrics`;
    const scraper = source(url);
    const firstError = nextError(scraper);
    scraper.start();
    const error = await firstError;
    assert.equal(error.kind, 'refused');
    assert.match(error.message, new RegExp(`Cannot scrape ${url.replace(/[.?*]/g, '\\$&')}: connection refused`));
    assert.equal(scraper.lastGood, null);
    const more = await nextError(scraper);
    assert.ok(more.consecutiveFailures >= 2);

    await startServer(servePrometheus('vllm:num_requests_running{stage="0"} 1\n'), port);
    const recovered = await nextScrape(scraper);
    assert.equal(scraper.currentError, null);
    assert.equal(scraper.lastGood, recovered);
  });

  it('bounds a server that accepts and never answers by the timeout', async () => {
    const server = await startServer(() => undefined);
    const scraper = source(server.url, { timeoutMs: 200, intervalMs: 1000 });
    const started = Date.now();
    const errored = nextError(scraper);
    scraper.start();
    const error = await errored;
    const elapsed = Date.now() - started;
    assert.equal(error.kind, 'timeout');
    assert.match(error.message, /no complete response within 200 ms/);
    assert.ok(elapsed >= 180 && elapsed < 1000, `timed out after ${elapsed} ms`);
  });

  it('bounds a server that trickles bytes by the same deadline', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('vllm:num_requests_running 1\n');
      const drip = setInterval(() => res.write('#'), 20);
      res.on('close', () => clearInterval(drip));
    });
    const scraper = source(server.url, { timeoutMs: 250, intervalMs: 1000 });
    const started = Date.now();
    const errored = nextError(scraper);
    scraper.start();
    const error = await errored;
    assert.equal(error.kind, 'timeout');
    assert.ok(error.receivedBytes > 28, `received ${error.receivedBytes}`);
    assert.ok(Date.now() - started < 1000);
    assert.equal(scraper.lastGood, null);
  });

  it('aborts a 50 MB body at the 8 MB cap without reading the rest', async () => {
    const total = 50 * 1024 * 1024;
    const chunk = Buffer.alloc(64 * 1024, '#');
    let written = 0;
    let serverDone!: () => void;
    const serverFinished = new Promise<void>((resolve) => (serverDone = resolve));
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' }); // chunked: no length announced
      const pump = (): void => {
        while (written < total && !res.destroyed) {
          written += chunk.length;
          if (!res.write(chunk)) {
            res.once('drain', pump);
            return;
          }
        }
        res.end();
      };
      res.on('close', () => serverDone());
      pump();
    });
    const scraper = source(server.url, { timeoutMs: 5000, intervalMs: 10_000 });
    assert.equal(scraper.maxBytes, 8 * 1024 * 1024);
    const errored = nextError(scraper, 8000);
    scraper.start();
    const error = await errored;
    assert.equal(error.kind, 'tooLarge');
    assert.match(error.message, /: the response is larger than the 8\.0 MB limit; stopped reading there\.$/);
    assert.ok(error.receivedBytes > scraper.maxBytes, `received ${error.receivedBytes}`);
    assert.ok(error.receivedBytes <= scraper.maxBytes + 256 * 1024, `received ${error.receivedBytes}`);
    await serverFinished;
    assert.ok(written < 30 * 1024 * 1024, `server wrote ${written} bytes before the client hung up`);
  });

  it('refuses an announced Content-Length above the cap before reading', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(50 * 1024 * 1024) });
      res.write('x'.repeat(1024));
    });
    const scraper = source(server.url, { maxBytes: 1024 * 1024 });
    const errored = nextError(scraper);
    scraper.start();
    const error = await errored;
    assert.equal(error.kind, 'tooLarge');
    assert.equal(error.receivedBytes, 0);
    assert.match(error.message, /larger than the 1\.0 MB limit \(50 MB announced\); not read\.$/);
  });

  it('reports a garbage body as malformed and a partly broken body as a scrape with problems', async () => {
    let body = '<html><body><h1>502 Bad Gateway</h1></body></html>\n';
    const server = await startServer((_req, res) => servePrometheus(body)(_req, res));
    const scraper = source(server.url);
    const errored = nextError(scraper);
    scraper.start();
    const error = await errored;
    assert.equal(error.kind, 'malformed');
    assert.equal(error.status, 200);
    assert.match(error.message, /not Prometheus text format \(line 1: /);

    body = 'vllm:num_requests_running{stage="0"} 2\nthis is { not a sample\nvllm:num_requests_waiting{stage="0"} 0\n';
    const scraped = await nextScrape(scraper);
    assert.deepEqual(
      scraped.exposition.problems.map((p) => p.line),
      [2],
    );
    assert.equal(scraped.exposition.sampleCount, 2);
    assert.equal(scraper.currentError, null);
  });

  it('reports a non-200 status with its code', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(500, 'Internal Server Error');
      res.end('boom');
    });
    const scraper = source(server.url);
    const errored = nextError(scraper);
    scraper.start();
    const error = await errored;
    assert.equal(error.kind, 'status');
    assert.equal(error.status, 500);
    assert.equal(error.message, `Cannot scrape ${server.url}: the server answered HTTP 500 Internal Server Error.`);
  });

  it('keeps the last good scrape across errors of every kind and replaces it on recovery', async () => {
    let mode: 'good' | 'status' | 'garbage' | 'hang' | 'better' = 'good';
    const server = await startServer((_req, res) => {
      switch (mode) {
        case 'good':
          return servePrometheus('vllm:num_requests_running{stage="0"} 1\n')(_req, res);
        case 'status':
          res.writeHead(503);
          return res.end();
        case 'garbage':
          return servePrometheus('{{{{\n')(_req, res);
        case 'hang':
          return undefined;
        case 'better':
          return servePrometheus('vllm:num_requests_running{stage="0"} 7\n')(_req, res);
      }
    });
    const scraper = source(server.url, { timeoutMs: 150 });
    const firstScrape = nextScrape(scraper);
    scraper.start();
    const good = await firstScrape;
    for (const [next, kind] of [
      ['status', 'status'],
      ['garbage', 'malformed'],
      ['hang', 'timeout'],
    ] as const) {
      mode = next;
      const error = await nextError(scraper);
      assert.equal(error.kind, kind);
      assert.equal(scraper.currentError, error);
      assert.equal(scraper.lastGood, good, `last good kept after ${kind}`);
    }
    mode = 'better';
    const recovered = await nextScrape(scraper);
    assert.equal(scraper.currentError, null);
    assert.equal(scraper.lastGood, recovered);
    const running = findFamily(recovered.exposition, 'vllm:num_requests_running');
    assert.equal(running?.type === 'untyped' ? running.series[0]?.value : undefined, 7);
  });

  it('stop() cancels the in-flight request and leaves no timer behind', async () => {
    let connectionClosed!: () => void;
    const closedOnServer = new Promise<void>((resolve) => (connectionClosed = resolve));
    let gotRequest!: () => void;
    const requested = new Promise<void>((resolve) => (gotRequest = resolve));
    const server = await startServer((req) => {
      req.socket.on('close', () => connectionClosed());
      gotRequest();
    });
    const timersBefore = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const scraper = source(server.url, { timeoutMs: 5000, intervalMs: 10 });
    let events = 0;
    scraper.onError(() => events++);
    scraper.onScrape(() => events++);
    scraper.start();
    await requested;
    await scraper.stop();
    assert.equal(scraper.running, false);
    await closedOnServer;
    await sleep(50);
    assert.equal(events, 0, 'no event after stop()');
    const timersAfter = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    assert.equal(timersAfter, timersBefore);
    await scraper.stop(); // twice is fine
  });

  it('refuses URLs that are not http(s) with a clear message', () => {
    assert.throws(
      () => new ScrapeSource({ url: 'file:///etc/passwd' }),
      (error: unknown) => {
        assert.ok(error instanceof ScrapeConfigError);
        assert.equal(error.message, 'Only http:// and https:// URLs can be scraped; "file:///etc/passwd" uses file:');
        return true;
      },
    );
    assert.throws(() => new ScrapeSource({ url: 'ftp://127.0.0.1/metrics' }), /Only http:\/\/ and https:\/\//);
    assert.throws(() => new ScrapeSource({ url: 'localhost:8000/metrics' }), /Only http/);
    assert.throws(() => new ScrapeSource({ url: 'not a url' }), /is not a valid URL/);
    assert.throws(
      () => new ScrapeSource({ url: 'http://127.0.0.1:1/metrics', intervalMs: 0 }),
      /intervalMs must be a positive/,
    );
  });
});
