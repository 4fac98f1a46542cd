import { gzipSync } from 'node:zlib';
import type { RequestHandler, Response } from 'express';

type Args = unknown[];

/**
 * Compresses a response body with gzip when the client accepts it, as the ecosystem's web front end
 * does for GraphQL (its proxy buffers the answer and gzips it): `Content-Encoding: gzip`, the length of
 * the compressed body, and `Vary: Accept-Encoding`. A body sent whole by `end` is compressed, whether
 * the headers were set one by one or given to `writeHead` (held back until the body is known); a body
 * streamed with `write` is sent unchanged.
 */
export function gzipWhenAccepted(): RequestHandler {
  return (req, res, next) => {
    if (!acceptsGzip(req.headers['accept-encoding'])) {
      next();
      return;
    }
    const writeHead = res.writeHead.bind(res) as (...args: Args) => Response;
    const write = res.write.bind(res) as (...args: Args) => boolean;
    const end = res.end.bind(res) as (...args: Args) => Response;
    let held: Args | undefined;
    // Once the body goes out, writeHead is called through (Node calls it itself for implicit headers).
    let passing = false;
    const flush = () => {
      passing = true;
      if (held === undefined) return;
      const args = held;
      held = undefined;
      writeHead(...args);
    };
    res.writeHead = ((...args: Args) => {
      if (passing) return writeHead(...args);
      held = args;
      return res;
    }) as Response['writeHead'];
    res.write = ((...args: Args) => {
      flush();
      return write(...args);
    }) as Response['write'];
    res.end = ((...args: Args) => {
      const body = args[0];
      const bytes = typeof body === 'string' ? Buffer.from(body) : Buffer.isBuffer(body) ? body : undefined;
      if (bytes === undefined || res.headersSent || res.getHeader('Content-Encoding') !== undefined) {
        flush();
        return end(...args);
      }
      const compressed = gzipSync(bytes);
      res.setHeader('Content-Encoding', 'gzip');
      res.setHeader('Content-Length', compressed.length);
      res.vary('Accept-Encoding');
      if (held !== undefined) held = withoutLength(held);
      flush();
      const callback = args.find((a) => typeof a === 'function');
      return callback === undefined ? end(compressed) : end(compressed, callback);
    }) as Response['end'];
    next();
  };
}

/** writeHead's arguments without a Content-Length among the headers given (the body's length changes). */
function withoutLength(args: Args): Args {
  const at = typeof args[1] === 'string' ? 2 : 1;
  const headers = args[at];
  if (headers === undefined || headers === null) return args;
  const isLength = (name: unknown) => String(name).toLowerCase() === 'content-length';
  let kept: unknown;
  if (Array.isArray(headers)) {
    kept = Array.isArray(headers[0])
      ? headers.filter((pair: unknown[]) => !isLength(pair[0]))
      : headers.filter((_v, i, all) => !isLength(i % 2 === 0 ? all[i] : all[i - 1]));
  } else {
    kept = Object.fromEntries(Object.entries(headers as object).filter(([name]) => !isLength(name)));
  }
  const out = [...args];
  out[at] = kept;
  return out;
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
