import express, { type Request, type RequestHandler } from 'express';

/** The media type of a JSON Patch document (RFC 6902). */
export const JSON_PATCH_MEDIA_TYPE = 'application/json-patch+json';

export interface JsonBodyOptions {
  /** The largest body accepted, in bytes (a larger one is a 413). */
  readonly limit: number;
  /** The route applies a JSON Patch, so `application/json-patch+json` is accepted as well. */
  readonly jsonPatch?: boolean;
  /**
   * A body without a Content-Type is read as JSON when the request carries an `Authorization` header,
   * as Rest.li reads its actions' bodies (the ecosystem's clients, its smoke suite among them, post some
   * without a type). A browser cannot add that header to a cross-site request without a preflight,
   * which CORS refuses, and a write authenticated by the session cookie must say it is JSON (see
   * crossSiteRequestGuard), so only the credentials a program sends get this leniency.
   */
  readonly untypedWhenAuthorized?: boolean;
}

/**
 * A request whose body is not what its Content-Type says it is: answered 415 by each interface's error
 * mapper (which keeps a 4xx `status` and the message).
 */
export class UnsupportedMediaTypeError extends Error {
  readonly status = 415;
  readonly type = 'content-type.unsupported';
  constructor(message: string) {
    super(message);
    this.name = 'UnsupportedMediaTypeError';
  }
}

/**
 * The one rule for bodies every JSON interface (Rest.li, OpenAPI, audit search, GraphQL) reads: a body
 * must say it is JSON — `application/json` or another `application/*+json`, with any parameters
 * (`; charset=utf-8`) — or a 415 names the accepted types. A JSON Patch document is accepted only by
 * routes that apply one. A body without a Content-Type is refused too (as a Spring controller refuses
 * it): a browser sends a cross-site form or `text/plain` post, or a typeless blob, without asking
 * first, so reading such bodies as JSON would let any page write with a visitor's session. The
 * ecosystem's SDK and CLI send `Content-Type: application/json` on every call. Requests without a body
 * (GETs, and writes with `Content-Length: 0`) pass as they are.
 */
export function jsonBodyParser(options: JsonBodyOptions): RequestHandler {
  const parse = express.json({ limit: options.limit, strict: false, type: () => true });
  const accepted = options.jsonPatch ? `application/json or ${JSON_PATCH_MEDIA_TYPE}` : 'application/json';
  return (req, res, next) => {
    // An empty body is read as it always was (`{}` for `Content-Length: 0`), whatever its type.
    const untypedAccepted = options.untypedWhenAuthorized === true && req.headers.authorization !== undefined;
    const problem = hasBody(req)
      ? contentTypeProblem(req, options.jsonPatch === true, untypedAccepted)
      : undefined;
    if (problem !== undefined) {
      next(new UnsupportedMediaTypeError(`${problem}; this endpoint accepts ${accepted}`));
      return;
    }
    parse(req, res, next);
  };
}

function hasBody(req: Request): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = Number(req.headers['content-length'] ?? 0);
  return !Number.isFinite(length) || length > 0;
}

/** Why the request's Content-Type is not accepted, or undefined when it is. */
function contentTypeProblem(req: Request, jsonPatch: boolean, untypedAccepted: boolean): string | undefined {
  const header = req.headers['content-type'];
  if (header === undefined || header.trim() === '')
    return untypedAccepted ? undefined : 'The request body has no Content-Type';
  const matched = req.is(['application/json', 'application/*+json']);
  if (matched === false || matched === null) return `Content-Type ${JSON.stringify(header)} is not supported`;
  if (!jsonPatch && matched.toLowerCase() === JSON_PATCH_MEDIA_TYPE) {
    return `A JSON Patch (${JSON_PATCH_MEDIA_TYPE}) does not apply to this endpoint`;
  }
  return undefined;
}
