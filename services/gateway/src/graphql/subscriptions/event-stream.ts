import type { ExecutionResult, GraphQLError } from 'graphql';
import { createGraphQLError, isAsyncIterable, type Plugin } from 'graphql-yoga';
import { STREAM_POSITION, type StreamPositionSlot } from './entity-changed.js';

/** How a subscription's Server-Sent Events are written (GRAPHQL_SUBSCRIPTION_* in the configuration). */
export interface EventStreamSettings {
  /** How often a heartbeat (an SSE comment) goes out on an open stream. */
  readonly heartbeatMs: number;
}

export const DEFAULT_EVENT_STREAM_SETTINGS: EventStreamSettings = Object.freeze({ heartbeatMs: 15_000 });

const EVENT_STREAM = 'text/event-stream';
/** The id of the event a result is written as (the stream position after it). */
const EVENT_ID = Symbol('eventId');

type Positioned = ExecutionResult & { [EVENT_ID]?: string };

/** Whether a request asks for Server-Sent Events (an `Accept` naming text/event-stream). */
export function acceptsEventStream(accept: string | null | undefined): boolean {
  return (accept ?? '').split(',').some((part) => part.split(';')[0]?.trim().toLowerCase() === EVENT_STREAM);
}

/**
 * Subscriptions over Server-Sent Events with graphql-yoga's own negotiation (`Accept: text/event-stream`
 * on POST, or GET as EventSource sends it), written by this plugin's processor instead of yoga's: every
 * event carries an `id:` (the stream position after it, which `Last-Event-ID` resumes from), heartbeats
 * (`:` comments) go out every `heartbeatMs` while the client keeps up, and a refusal before the stream
 * starts (bad input, the stream limit) answers with its status (400, 403, 429) instead of 200.
 * Backpressure is yoga's: the next event is taken only once the socket took the previous one, so a slow
 * client's events wait in its stream's bounded buffer (ChangeSubscriptions), which ends the stream.
 */
export function useEventStreams(settings: EventStreamSettings = DEFAULT_EVENT_STREAM_SETTINGS): Plugin {
  const subscriptions = new WeakSet<object>();
  return {
    // GET serves EventSource clients: subscriptions only (yoga already refuses mutations on GET).
    onExecute: ({ args }) => {
      const { request } = args.contextValue as { request?: { method?: string } };
      if (request?.method === 'GET')
        throw createGraphQLError(
          'GraphQL takes GET only for subscriptions as Server-Sent Events; POST queries',
          {
            extensions: { http: { status: 405, headers: { Allow: 'POST' } } },
          },
        );
    },
    onSubscribe: ({ args, setSubscribeFn }) => {
      const { request } = args.contextValue as { request?: Request };
      if (request !== undefined) subscriptions.add(request);
      // Refused before the stream opens: a result nobody writes would hold its stream (and its slot).
      if (request !== undefined && !acceptsEventStream(request.headers.get('accept'))) {
        setSubscribeFn(() => ({
          errors: [
            createGraphQLError(
              'A subscription is served as Server-Sent Events: send it with Accept: text/event-stream',
              { extensions: { code: 406, type: 'NOT_ACCEPTABLE', http: { status: 406 } } },
            ),
          ],
        }));
        return undefined;
      }
      return {
        onSubscribeResult: ({ args: subscribed }) => ({
          onNext: ({ result, setResult }) => {
            const ctx = subscribed.contextValue as StreamPositionSlot;
            const position = ctx[STREAM_POSITION];
            ctx[STREAM_POSITION] = undefined;
            if (position !== undefined) setResult({ ...result, [EVENT_ID]: position } as Positioned);
          },
        }),
      };
    },
    onResultProcess: ({ request, result, resultProcessor, setResultProcessor }) => {
      if (resultProcessor === undefined || Array.isArray(result)) return;
      if (!subscriptions.has(request) || !acceptsEventStream(request.headers.get('accept'))) return;
      setResultProcessor(
        (processed, fetchAPI) => eventStreamResponse(processed as Positioned, fetchAPI, settings),
        EVENT_STREAM,
      );
    },
  };
}

function eventStreamResponse(
  result: Positioned | AsyncIterable<Positioned>,
  fetchAPI: { Response: typeof Response; ReadableStream: typeof ReadableStream },
  settings: EventStreamSettings,
): Response {
  const encoder = new TextEncoder();
  const headers = {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache',
    // The connection ends with the stream: a client that dropped it (or a stream ended for a shutdown)
    // leaves no kept-alive connection behind for the server to wait on.
    Connection: 'close',
    // Proxies that buffer responses (nginx) pass this one through as it is written.
    'X-Accel-Buffering': 'no',
  };
  if (!isAsyncIterable(result)) {
    const body = `event: next\ndata: ${stringify(result)}\n\nevent: complete\ndata:\n\n`;
    return new fetchAPI.Response(body, { status: statusOf(result), headers });
  }
  const iterator = result[Symbol.asyncIterator]();
  let heartbeat: NodeJS.Timeout | undefined;
  const stop = () => clearInterval(heartbeat);
  const stream = new fetchAPI.ReadableStream<Uint8Array>({
    start(controller) {
      // Some clients see the headers only with the first bytes.
      controller.enqueue(encoder.encode(':\n\n'));
      heartbeat = setInterval(() => {
        if (controller.desiredSize === null) stop();
        else if (controller.desiredSize > 0) controller.enqueue(encoder.encode(':\n\n'));
      }, settings.heartbeatMs);
    },
    async pull(controller) {
      try {
        const next = await iterator.next();
        if (!next.done) {
          const id = next.value[EVENT_ID];
          const head = id === undefined ? '' : `id: ${id}\n`;
          controller.enqueue(encoder.encode(`${head}event: next\ndata: ${stringify(next.value)}\n\n`));
          return;
        }
        stop();
        controller.enqueue(encoder.encode('event: complete\ndata:\n\n'));
        controller.close();
      } catch (error) {
        stop();
        controller.error(error);
      }
    },
    async cancel() {
      stop();
      await iterator.return?.();
    },
  });
  return new fetchAPI.Response(stream, { status: 200, headers });
}

/** A refusal's status: the highest 4xx its errors' codes name (the ecosystem's codes), else 200. */
function statusOf(result: ExecutionResult): number {
  let status = 200;
  for (const error of result.errors ?? []) {
    const code = (error.extensions as { code?: unknown; http?: { status?: unknown } } | undefined) ?? {};
    const candidate = typeof code.http?.status === 'number' ? code.http.status : code.code;
    if (typeof candidate === 'number' && candidate >= 400 && candidate < 500 && candidate > status)
      status = candidate;
  }
  return status;
}

/** The result as JSON, without yoga's internal error extensions. */
function stringify(result: ExecutionResult): string {
  const errors = result.errors?.map((error: GraphQLError) => {
    const json = typeof error.toJSON === 'function' ? error.toJSON() : { message: error.message };
    const {
      http: _http,
      unexpected: _unexpected,
      ...extensions
    } = (json.extensions ?? {}) as Record<string, unknown>;
    return { ...json, ...(Object.keys(extensions).length > 0 ? { extensions } : { extensions: undefined }) };
  });
  return JSON.stringify({ ...result, ...(errors === undefined ? {} : { errors }) });
}
