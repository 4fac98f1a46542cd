import { gzipSync } from 'node:zlib';
import type { RequestHandler, Response } from 'express';

type Args = unknown[];

/**
 * Compresses a response with gzip when the client accepts it, as the ecosystem's web front end does for
 * GraphQL (its proxy buffers the answer and gzips it): `Content-Encoding: gzip`, the length of the
 * compressed body, and `Vary: Accept-Encoding`. The body is gathered, whether written in pieces or
 * given to `end`, with the headers given to `writeHead` held back until it is complete; a chunk that is
 * not bytes or text sends what was gathered as it is and the rest unchanged.
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
    const gathered: Buffer[] = [];
    // Once anything goes out, every call passes through (Node calls writeHead itself for implicit headers).
    let passing = false;
    const passThrough = () => {
      passing = true;
      if (held !== undefined) writeHead(...held);
      held = undefined;
      for (const chunk of gathered.splice(0)) write(chunk);
    };
    res.writeHead = ((...args: Args) => {
      if (passing) return writeHead(...args);
      held = args;
      return res;
    }) as Response['writeHead'];
    res.write = ((...args: Args) => {
      if (passing) return write(...args);
      const bytes = bytesOf(args[0]);
      if (bytes === undefined) {
        passThrough();
        return write(...args);
      }
      gathered.push(bytes);
      const callback = args.find((a) => typeof a === 'function') as (() => void) | undefined;
      if (callback !== undefined) process.nextTick(callback);
      return true;
    }) as Response['write'];
    res.end = ((...args: Args) => {
      if (passing) return end(...args);
      // end(), end(callback) and end(null, …) (how the GraphQL server ends) carry no body of their own.
      const first = args[0];
      const last = typeof first === 'function' || first == null ? Buffer.alloc(0) : bytesOf(first);
      if (last === undefined || res.headersSent || res.getHeader('Content-Encoding') !== undefined) {
        passThrough();
        return end(...args);
      }
      const compressed = gzipSync(Buffer.concat([...gathered.splice(0), last]));
      res.setHeader('Content-Encoding', 'gzip');
      res.setHeader('Content-Length', compressed.length);
      res.vary('Accept-Encoding');
      if (held !== undefined) held = withoutLength(held);
      passThrough();
      const callback = args.find((a) => typeof a === 'function');
      return callback === undefined ? end(compressed) : end(compressed, callback);
    }) as Response['end'];
    next();
  };
}

function bytesOf(chunk: unknown): Buffer | undefined {
  if (typeof chunk === 'string') return Buffer.from(chunk);
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return undefined;
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
