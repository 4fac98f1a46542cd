import type { Request, RequestHandler, Response } from 'express';

/**
 * A ceiling on what one response may carry (MAX_RESPONSE_BYTES), for the Rest.li and OpenAPI routes
 * (GraphQL has its own, GRAPHQL_MAX_RESPONSE_BYTES, checked before it serializes). A successful body
 * over the limit is not sent: the caller gets a 400 naming the limit and how to ask for less, in the
 * route's own error shape, so one request cannot pull an unbounded page over the network and into
 * a client's memory. Error answers pass as they are.
 */
export function responseSizeLimit(
  maxBytes: number,
  refuse: (req: Request, res: Response, message: string) => void,
): RequestHandler {
  return (req, res, next) => {
    // Every body leaves through end (res.send and res.json included, and the routes that write a
    // serialized body at once), so the check sits there.
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    let refused = false;
    res.end = ((...args: unknown[]) => {
      const body = args[0];
      if (!refused && !res.headersSent && res.statusCode < 400) {
        const size =
          typeof body === 'string' ? Buffer.byteLength(body) : Buffer.isBuffer(body) ? body.length : 0;
        if (size > maxBytes) {
          refused = true;
          res.removeHeader('Content-Length');
          res.status(400);
          refuse(
            req,
            res,
            `The response is ${size.toLocaleString('en-US')} bytes, over the limit of ` +
              `${maxBytes.toLocaleString('en-US')} (MAX_RESPONSE_BYTES), and was not sent; ` +
              'ask for fewer entities, aspects or a smaller count',
          );
          return res;
        }
      }
      return end(...args);
    }) as Response['end'];
    next();
  };
}
