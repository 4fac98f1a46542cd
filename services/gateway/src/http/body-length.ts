import type { ServerResponse } from 'node:http';

/**
 * The bytes a chunk given to `write`/`end` puts on the wire. A whole body handed to `end` before any
 * write (headers not yet sent) is usually announced by its Content-Length (res.send and sendJson set
 * it), which is then taken as its length rather than measuring the text again.
 */
export function chunkBytes(res: ServerResponse, chunk: unknown, encoding: unknown, ending: boolean): number {
  if (typeof chunk === 'string') {
    if (ending && !res.headersSent) {
      const declared = res.getHeader('content-length');
      if (typeof declared === 'number') return declared;
      if (typeof declared === 'string' && declared !== '') {
        const bytes = Number(declared);
        if (Number.isSafeInteger(bytes)) return bytes;
      }
    }
    return Buffer.byteLength(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
  }
  return chunk instanceof Uint8Array ? chunk.byteLength : 0;
}
