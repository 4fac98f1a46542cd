import type { Express } from 'express';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RunningServer {
  readonly server: Server;
  readonly port: number;
  /** Stops accepting connections, lets requests in flight finish, then closes idle keep-alive sockets. */
  close(): Promise<void>;
}

export interface HttpServerOptions {
  /** The most a client may take to send a whole request, headers and body; then Node answers 408. */
  readonly requestTimeoutMs: number;
}

/** The most a client may take to send its headers: they come in one packet or two from any real client. */
const HEADERS_TIMEOUT_MS = 10_000;

export function startHttpServer(
  app: Express,
  port: number,
  host: string,
  options: HttpServerOptions,
): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const server = createServer(
      {
        requestTimeout: options.requestTimeoutMs,
        // Node refuses a headers timeout longer than the request timeout.
        headersTimeout: Math.min(HEADERS_TIMEOUT_MS, options.requestTimeoutMs),
        // Node checks the timeouts above on this interval (30 s by default), so a timeout fires up
        // to one interval late: a tenth of the timeout keeps that small.
        connectionsCheckingInterval: Math.max(
          100,
          Math.min(30_000, Math.floor(options.requestTimeoutMs / 10)),
        ),
      },
      app,
    );
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
