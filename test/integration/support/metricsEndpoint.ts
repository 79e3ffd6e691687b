// A /metrics endpoint on loopback for the tests that scrape one: it serves a body that a test
// may change, in the text format's content type, and counts how often it was scraped. Every
// endpoint is closed after the test file's tests.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after } from 'node:test';
import type { LspProcess } from './lspProcess';
import { waitFor } from './waitFor';

export interface MetricsEndpoint {
  /** `http://127.0.0.1:<port>/metrics`. */
  readonly url: string;
  /** How many requests it has answered so far. */
  readonly served: () => number;
  /** The body of the next answers. */
  readonly serve: (body: string) => void;
}

const open: http.Server[] = [];
after(() => {
  for (const server of open) server.close();
});

export async function metricsEndpoint(body: string): Promise<MetricsEndpoint> {
  let exposed = body;
  let served = 0;
  const server = http.createServer((_req, res) => {
    served += 1;
    res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' });
    res.end(exposed);
  });
  open.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`,
    served: () => served,
    serve: (text) => {
      exposed = text;
    },
  };
}

/** A session attached to a loopback /metrics endpoint serving `body`, stopped once its first scrape is in: its id. */
export async function attachedScrapeSession(lsp: LspProcess, body: string): Promise<string> {
  const endpoint = await metricsEndpoint(body);
  const info = await lsp.request('stageLens/scrape', { url: endpoint.url, intervalMs: 200 });
  await waitFor('a scrape in the summary', async () => {
    const summary = await lsp.request('stageLens/summary', { sessionId: info.id });
    return endpoint.served() > 0 && summary.histograms.length > 0 ? true : undefined;
  });
  await lsp.request('stageLens/stop', { sessionId: info.id });
  return info.id;
}
