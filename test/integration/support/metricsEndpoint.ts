// A /metrics endpoint on loopback for the tests that scrape one: it serves a body that a test
// may change, in the text format's content type, and counts how often it was scraped. Every
// endpoint is closed after the test file's tests.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after } from 'node:test';

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
