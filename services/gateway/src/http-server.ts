import type { Express } from 'express';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RunningServer {
  readonly server: Server;
  readonly port: number;
  /** Stops accepting connections, lets requests in flight finish, then closes idle keep-alive sockets. */
  close(): Promise<void>;
}

export function startHttpServer(app: Express, port: number, host: string): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const server = createServer(app);
    server.keepAliveTimeout = 65_000;
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve({
        server,
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeIdleConnections();
          }),
      });
    });
  });
}
