import { createServer } from 'node:net';

/** A TCP port on 127.0.0.1 that was free a moment ago (the OS's pick), for a child process to listen on. */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => done(port));
    });
  });
}
