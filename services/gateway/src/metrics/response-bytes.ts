import type { Response } from 'express';
import { chunkBytes } from '../http/body-length.js';

const BODY_BYTES = Symbol('bodyBytes');

type Counted = Response & { [BODY_BYTES]?: number };

/**
 * Counts the body bytes every response of an app writes (what `write` and `end` are given, after any
 * compression that wraps them), by defining both once on the app's response prototype: no closure or
 * wrapper per request. Read with bodyBytesOf.
 */
export function countResponseBodies(prototype: Response): void {
  // Fixed arity (write and end take at most three arguments, each optional): no rest array per call.
  const write = prototype.write as (this: Counted, a?: unknown, b?: unknown, c?: unknown) => boolean;
  const end = prototype.end as (this: Counted, a?: unknown, b?: unknown, c?: unknown) => Response;
  Object.defineProperty(prototype, 'write', {
    configurable: true,
    writable: true,
    value: function (this: Counted, chunk?: unknown, encoding?: unknown, callback?: unknown): boolean {
      add(this, chunk, encoding, false);
      return write.call(this, chunk, encoding, callback);
    },
  });
  Object.defineProperty(prototype, 'end', {
    configurable: true,
    writable: true,
    value: function (this: Counted, chunk?: unknown, encoding?: unknown, callback?: unknown): Response {
      if (typeof chunk !== 'function') add(this, chunk, encoding, true);
      return end.call(this, chunk, encoding, callback);
    },
  });
}

/** The body bytes the response has written so far. */
export function bodyBytesOf(res: Response): number {
  return (res as Counted)[BODY_BYTES] ?? 0;
}

function add(res: Counted, chunk: unknown, encoding: unknown, ending: boolean): void {
  const bytes = chunkBytes(res, chunk, encoding, ending);
  if (bytes > 0) res[BODY_BYTES] = (res[BODY_BYTES] ?? 0) + bytes;
}
