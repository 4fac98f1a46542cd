import type { Request, RequestHandler, Response } from 'express';
import { chunkBytes } from './body-length.js';

const LIMIT = Symbol('responseSizeLimit');

interface Limit {
  readonly maxBytes: number;
  readonly refuse: (req: Request, res: Response, message: string) => void;
  refused?: boolean;
}

type Limited = Response & { [LIMIT]?: Limit };

/**
 * A ceiling on what one response may carry (MAX_RESPONSE_BYTES), for the Rest.li and OpenAPI routes
 * (GraphQL has its own, GRAPHQL_MAX_RESPONSE_BYTES, checked before it serializes). A successful body
 * over the limit is not sent: the caller gets a 400 naming the limit and how to ask for less, in the
 * route's own error shape, so one request cannot pull an unbounded page over the network and into
 * a client's memory. Error answers pass as they are.
 *
 * Every body leaves through `end` (res.send and res.json included, and the routes that write a
 * serialized body at once), so the check sits there: defined once on the app's response prototype
 * (enforceResponseSizeLimits), armed per request by this middleware, with no wrapper per request.
 */
export function responseSizeLimit(
  maxBytes: number,
  refuse: (req: Request, res: Response, message: string) => void,
): RequestHandler {
  return (_req, res, next) => {
    (res as Limited)[LIMIT] = { maxBytes, refuse };
    next();
  };
}

/** Installs the check of responseSizeLimit on the app's response prototype. */
export function enforceResponseSizeLimits(prototype: Response): void {
  // Fixed arity, as end takes at most three arguments: no rest array per response.
  const end = prototype.end as (this: Limited, a?: unknown, b?: unknown, c?: unknown) => Response;
  Object.defineProperty(prototype, 'end', {
    configurable: true,
    writable: true,
    value: function (this: Limited, chunk?: unknown, encoding?: unknown, callback?: unknown): Response {
      const limit = this[LIMIT];
      if (limit !== undefined && !limit.refused && !this.headersSent && this.statusCode < 400) {
        const size = chunkBytes(this, chunk, encoding, true);
        if (size > limit.maxBytes) {
          limit.refused = true;
          this.removeHeader('Content-Length');
          this.status(400);
          limit.refuse(
            this.req,
            this,
            `The response is ${size.toLocaleString('en-US')} bytes, over the limit of ` +
              `${limit.maxBytes.toLocaleString('en-US')} (MAX_RESPONSE_BYTES), and was not sent; ` +
              'ask for fewer entities, aspects or a smaller count',
          );
          return this;
        }
      }
      return end.call(this, chunk, encoding, callback);
    },
  });
}
