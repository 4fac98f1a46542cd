/**
 * Keyset cursor of a scan: the (urn, aspect) of the last row returned, opaque to callers. base64url of
 * JSON keeps it safe in a URL and lets both adapters share one format.
 */
export interface ScanPosition {
  readonly urn: string;
  readonly aspect: string;
}

export function encodeScanCursor(position: ScanPosition): string {
  return Buffer.from(JSON.stringify([position.urn, position.aspect]), 'utf8').toString('base64url');
}

/** Throws a TypeError for a cursor this code did not make. */
export function decodeScanCursor(cursor: string): ScanPosition {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch (error) {
    throw new TypeError(`invalid scan cursor: ${cursor}`, { cause: error });
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) throw new TypeError(`invalid scan cursor: ${cursor}`);
  const [urn, aspect] = parsed as unknown[];
  if (typeof urn !== 'string' || typeof aspect !== 'string')
    throw new TypeError(`invalid scan cursor: ${cursor}`);
  return { urn, aspect };
}
