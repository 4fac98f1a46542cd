import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a test destination received. */
export interface ReceivedWebhook {
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** What the destination answered. */
  readonly status: number;
  /** When it arrived (Date.now()). */
  readonly at: number;
}

/** What `answer` returns for a request left without an answer (a destination that hangs). */
export const HANG = -1;

export interface WebhookReceiver {
  /** Paths that received a request left unanswered. */
  readonly hung: ReadonlySet<string>;
  readonly url: (path: string) => string;
  readonly received: ReceivedWebhook[];
  /** The requests to `path` answered 2xx. */
  readonly delivered: (path: string) => ReceivedWebhook[];
  close(): Promise<void>;
}

/**
 * A real HTTP destination on loopback: `answer` decides each request's status (by path and how many
 * requests that path has had before; HANG: no answer at all), and every request is recorded with its
 * headers and body.
 */
export async function startWebhookReceiver(
  answer: (path: string, seen: number) => number = () => 200,
  /** Response headers by path (e.g. Retry-After). */
  headersOf: (path: string) => Record<string, string> = () => ({}),
): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const hanging = new Set<string>();
  const counts = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      const seen = counts.get(path) ?? 0;
      counts.set(path, seen + 1);
      const status = answer(path, seen);
      if (status === HANG) {
        hanging.add(path);
        return;
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
      received.push({ path, headers, body: Buffer.concat(chunks).toString('utf8'), status, at: Date.now() });
      res.statusCode = status;
      for (const [name, value] of Object.entries(headersOf(path))) res.setHeader(name, value);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    hung: hanging,
    url: (path) => `http://127.0.0.1:${port}${path}`,
    received,
    delivered: (path) => received.filter((r) => r.path === path && r.status >= 200 && r.status < 300),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
