import { checkDestination, DestinationError } from './destination.js';
import { signedHeaders } from './signing.js';

export interface DeliveryRequest {
  readonly url: URL;
  readonly key: Buffer;
  readonly webhookId: string;
  readonly body: string;
  readonly timeoutMs: number;
  readonly allowPrivate: boolean;
  readonly now?: () => number;
  /** Cuts the attempt short (the dispatcher stopping): answered as a retriable failure. */
  readonly signal?: AbortSignal;
}

export type DeliveryOutcome =
  | { readonly ok: true; readonly status: number }
  | {
      readonly ok: false;
      /** Worth another attempt: a timeout, a network error, a 5xx or a 429. */
      readonly retriable: boolean;
      readonly status?: number;
      /** What the destination's Retry-After asked, in milliseconds. */
      readonly retryAfterMs?: number;
      readonly error: string;
    };

/**
 * One signed POST of one change event. A 2xx is a delivery; a 5xx, a 429, a timeout or a network
 * error is retriable; any other answer (a 3xx is not followed, a 4xx) and a refused destination are not.
 */
export async function deliverOnce(request: DeliveryRequest): Promise<DeliveryOutcome> {
  const now = request.now ?? Date.now;
  try {
    await checkDestination(request.url, request.allowPrivate);
  } catch (error) {
    if (error instanceof DestinationError) return { ok: false, retriable: false, error: error.message };
    throw error;
  }
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'catalog-webhooks/1',
    ...signedHeaders(request.key, request.webhookId, Math.floor(now() / 1000), request.body),
  };
  let response: Response;
  try {
    response = await fetch(request.url, {
      method: 'POST',
      headers,
      body: request.body,
      redirect: 'manual',
      signal: request.signal
        ? AbortSignal.any([AbortSignal.timeout(request.timeoutMs), request.signal])
        : AbortSignal.timeout(request.timeoutMs),
    });
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    return {
      ok: false,
      retriable: true,
      error: timedOut ? `timed out after ${request.timeoutMs} ms` : `network error: ${causeOf(error)}`,
    };
  }
  // The body is not read beyond what frees the connection.
  await response.body?.cancel().catch(() => undefined);
  if (response.status >= 200 && response.status < 300) return { ok: true, status: response.status };
  const retriable = response.status >= 500 || response.status === 429;
  const retryAfterMs = retryAfterOf(response.headers.get('retry-after'), now());
  return {
    ok: false,
    retriable,
    status: response.status,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    error: `destination answered ${response.status}`,
  };
}

/** Retry-After as seconds or an HTTP date, in milliseconds from now; undefined when absent or unreadable. */
export function retryAfterOf(header: string | null, now: number): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function causeOf(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as Error & { cause?: unknown }).cause;
    if (cause instanceof Error) return cause.message;
    return error.message;
  }
  return String(error);
}
