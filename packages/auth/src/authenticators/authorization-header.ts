/** An `Authorization` header split into its scheme and credentials. */
export interface AuthorizationHeader {
  /** Lower-cased: schemes are case-insensitive (RFC 9110), and clients send `bearer` as well as `Bearer`. */
  readonly scheme: string;
  readonly credentials: string;
}

export function parseAuthorization(header: string | undefined): AuthorizationHeader | undefined {
  const trimmed = header?.trim();
  if (!trimmed) return undefined;
  const space = trimmed.search(/\s/);
  if (space < 0) return { scheme: trimmed.toLowerCase(), credentials: '' };
  return { scheme: trimmed.slice(0, space).toLowerCase(), credentials: trimmed.slice(space + 1).trim() };
}
