// The API server's HTTP side that Stage Lens reads: GET /metrics (Prometheus text
// 0.0.4), GET /health and GET /v1/models. Anything else is a FastAPI-style 404.
// Bound to a loopback address only.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HttpHandlers {
  metrics(): string;
  models(): unknown;
}

export const LOOPBACK_HOSTS: readonly string[] = ['127.0.0.1', 'localhost', '::1'];

const ROUTES: Readonly<Record<string, (h: HttpHandlers) => { type: string; body: string }>> = {
  '/metrics': (h) => ({ type: 'text/plain; version=0.0.4; charset=utf-8', body: h.metrics() }),
  '/health': () => ({ type: 'application/json', body: '' }),
  '/v1/models': (h) => ({ type: 'application/json', body: JSON.stringify(h.models()) }),
};

export async function startHttpServer(
  host: string,
  port: number,
  handlers: HttpHandlers,
): Promise<{ server: http.Server; port: number }> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const route = ROUTES[path];
    if (route === undefined) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"Not Found"}');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { 'content-type': 'application/json', allow: 'GET' }).end('{"detail":"Method Not Allowed"}');
      return;
    }
    const { type, body } = route(handlers);
    res.writeHead(200, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return { server, port: (server.address() as AddressInfo).port };
}

export async function closeHttpServer(server: http.Server): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  await closed;
}
