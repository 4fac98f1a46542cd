import { gzipSync } from 'node:zlib';
import type { RequestHandler, Response } from 'express';

/**
 * Compresses a response body with gzip when the client accepts it, as the ecosystem's web front end
 * does for GraphQL (its proxy buffers the answer and gzips it): `Content-Encoding: gzip`, the length of
 * the compressed body, and `Vary: Accept-Encoding`. Only whole bodies are compressed (they all leave
 * through `end` at once, headers not yet sent); anything else is sent unchanged.
 */
export function gzipWhenAccepted(): RequestHandler {
  return (req, res, next) => {
    if (!acceptsGzip(req.headers['accept-encoding'])) {
      next();
      return;
    }
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    res.end = ((...args: unknown[]) => {
      const body = args[0];
      const bytes = typeof body === 'string' ? Buffer.from(body) : Buffer.isBuffer(body) ? body : undefined;
      if (
        bytes === undefined ||
        bytes.length < MIN_BYTES ||
        res.headersSent ||
        res.getHeader('Content-Encoding')
      )
        return end(...args);
      const compressed = gzipSync(bytes);
      res.setHeader('Content-Encoding', 'gzip');
      res.setHeader('Content-Length', compressed.length);
      res.vary('Accept-Encoding');
      const callback = args.find((a) => typeof a === 'function');
      return callback === undefined ? end(compressed) : end(compressed, callback);
    }) as Response['end'];
    next();
  };
}

/** Whether an Accept-Encoding header accepts gzip (named with a q-value above 0). */
export function acceptsGzip(header: string | undefined): boolean {
  if (header === undefined) return false;
  return header.split(',').some((part) => {
    const [coding, ...params] = part.trim().split(';');
    if (coding?.trim().toLowerCase() !== 'gzip') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}
