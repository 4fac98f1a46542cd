import type { Response } from 'express';
import { stringifyJson } from '@catalog/model';

/**
 * Writes a JSON body in one piece. express's res.json turns a long string into a Buffer, which node then
 * sends as a second chunk after the headers (a writev per response); a string passed to end() goes out
 * together with the headers, and there is no ETag to compute (the gateway disables them).
 */
export function sendJson(res: Response, body: unknown, status = 200): void {
  const text = stringifyJson(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}
