// A loopback port nobody listens on (free a moment ago): for a server a test starts later, or a
// /metrics URL that must refuse connections.
import * as net from 'node:net';

export function unusedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}
