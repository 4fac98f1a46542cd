/** One Server-Sent Event as a client reads it. */
export interface ServerSentEvent {
  readonly id?: string;
  readonly event: string;
  readonly data: string;
}

/** A GraphQL subscription read as Server-Sent Events by a real HTTP client (fetch, reading the body). */
export interface EventStream {
  readonly status: number;
  readonly headers: Headers;
  /** Every event received so far, in order. */
  readonly events: ServerSentEvent[];
  /** How many comments (heartbeats) were received. */
  readonly comments: () => number;
  /** Resolves once the server ended the stream (or it was closed). */
  readonly ended: Promise<void>;
  /** The events received until `done` holds of them; rejects after `timeoutMs`. */
  waitFor(
    done: (events: readonly ServerSentEvent[]) => boolean,
    timeoutMs?: number,
  ): Promise<ServerSentEvent[]>;
  /** Disconnects. */
  close(): void;
}

export interface OpenStreamOptions {
  readonly authorization?: string;
  readonly lastEventId?: string;
  /** GET with the query in the URL, as EventSource sends it (default POST with a JSON body). */
  readonly method?: 'GET' | 'POST';
  readonly variables?: Record<string, unknown>;
  readonly path?: string;
  /** More request headers (a cookie, Sec-Fetch-Site). */
  readonly headers?: Record<string, string>;
}

/** Opens a subscription stream: resolves once the response's headers are in. */
export async function openEventStream(
  base: string,
  query: string,
  options: OpenStreamOptions = {},
): Promise<EventStream> {
  const controller = new AbortController();
  const headers: Record<string, string> = { Accept: 'text/event-stream', ...options.headers };
  if (options.authorization !== undefined) headers['Authorization'] = options.authorization;
  if (options.lastEventId !== undefined) headers['Last-Event-ID'] = options.lastEventId;
  const path = options.path ?? '/api/graphql';
  const variables = options.variables ?? {};
  const res =
    options.method === 'GET'
      ? await fetch(
          `${base}${path}?${new URLSearchParams({ query, variables: JSON.stringify(variables) }).toString()}`,
          { headers, signal: controller.signal },
        )
      : await fetch(`${base}${path}`, {
          method: 'POST',
          headers: { ...headers, 'Content-Type': 'application/json' },
          body: JSON.stringify({ query, variables }),
          signal: controller.signal,
        });
  const events: ServerSentEvent[] = [];
  let comments = 0;
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((l) => l());
  const ended = (async () => {
    if (res.body === null) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const fields: { id?: string; event?: string; data: string[] } = { data: [] };
          let comment = false;
          for (const line of frame.split('\n')) {
            if (line.startsWith(':')) {
              comment = true;
              continue;
            }
            const colon = line.indexOf(':');
            const name = colon < 0 ? line : line.slice(0, colon);
            const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
            if (name === 'id') fields.id = value;
            else if (name === 'event') fields.event = value;
            else if (name === 'data') fields.data.push(value);
          }
          if (fields.event === undefined && fields.data.length === 0) {
            if (comment) comments++;
            notify();
            continue;
          }
          events.push({
            ...(fields.id === undefined ? {} : { id: fields.id }),
            event: fields.event ?? 'message',
            data: fields.data.join('\n'),
          });
          notify();
        }
      }
    } catch {
      // Aborted by close(), or the server cut the connection.
    } finally {
      notify();
    }
  })();
  let done = false;
  void ended.then(() => (done = true));
  return {
    status: res.status,
    headers: res.headers,
    events,
    comments: () => comments,
    ended,
    waitFor: (predicate, timeoutMs = 20_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (predicate(events)) {
            cleanup();
            resolve([...events]);
          } else if (done) {
            cleanup();
            reject(new Error(`the stream ended first; events: ${JSON.stringify(events)}`));
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`not received in ${timeoutMs} ms; events: ${JSON.stringify(events)}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        check();
      }),
    close: () => controller.abort(),
  };
}

/** The `data` of a `next` event as the GraphQL result it carries. */
export function resultOf<T = Record<string, unknown>>(
  event: ServerSentEvent,
): {
  data?: T | null;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
} {
  return JSON.parse(event.data) as { data?: T | null; errors?: { message: string }[] };
}
