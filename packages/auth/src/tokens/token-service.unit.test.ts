import { createHash } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, SignJWT, UnsecuredJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { ACCESS_TOKEN_DURATION_MS, TokenError, TokenService, type VerifiedToken } from './token-service.js';

const SETTINGS = {
  signingKey: 'test-signing-key-0123456789abcdef',
  salt: 'test-salt',
  issuer: 'datahub-metadata-service',
  sessionTokenDurationMs: 86_400_000,
};
const T0 = 1_700_000_000_000;

function service(now = () => T0, settings = SETTINGS): TokenService {
  return new TokenService(settings, now);
}

/** Signs arbitrary claims with the service's key, the way a forger holding the key would. */
function signWithKey(
  claims: Record<string, unknown>,
  key = SETTINGS.signingKey,
  expSeconds?: number,
): Promise<string> {
  const jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256' });
  if (expSeconds !== undefined) jwt.setExpirationTime(expSeconds);
  return jwt.sign(new TextEncoder().encode(key));
}

async function refusal(promise: Promise<VerifiedToken>): Promise<TokenError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TokenError);
  return error as TokenError;
}

describe('TokenService', () => {
  it('round-trips a session token with the ecosystem claims', async () => {
    const tokens = service();
    const token = await tokens.issueSessionToken('alice');
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'HS256' });
    const claims = decodeJwt(token);
    expect(claims).toMatchObject({
      version: '1',
      type: 'SESSION',
      actorType: 'USER',
      actorId: 'alice',
      sub: 'alice',
      iss: SETTINGS.issuer,
      exp: Math.floor((T0 + SETTINGS.sessionTokenDurationMs) / 1000),
    });
    expect(claims.jti).toMatch(/^[0-9a-f-]{36}$/);
    expect(await tokens.verify(token)).toEqual({
      actorId: 'alice',
      actorType: 'USER',
      type: 'SESSION',
      version: '1',
      expiresAt: Math.floor((T0 + SETTINGS.sessionTokenDurationMs) / 1000) * 1000,
    });
  });

  it('round-trips a personal access token and names it by its hash', async () => {
    const tokens = service();
    const issued = await tokens.issueAccessToken('bob', 'ONE_MONTH');
    expect(issued.createdAt).toBe(T0);
    expect(issued.expiresAt).toBe(T0 + 30 * 86_400_000);
    expect(issued.id).toBe(tokens.tokenId(issued.token));
    expect(issued.urn).toBe(`urn:li:dataHubAccessToken:${issued.id}`);
    expect(decodeJwt(issued.token)).toMatchObject({
      version: '2',
      type: 'PERSONAL',
      actorId: 'bob',
      sub: 'bob',
    });
    const verified = await tokens.verify(issued.token);
    expect(verified).toMatchObject({ actorId: 'bob', type: 'PERSONAL', version: '2', tokenUrn: issued.urn });
  });

  it('issues NO_EXPIRY tokens without exp or expiresAt, and they verify', async () => {
    const tokens = service();
    const issued = await tokens.issueAccessToken('bob', 'NO_EXPIRY');
    expect(issued).not.toHaveProperty('expiresAt');
    expect(decodeJwt(issued.token)).not.toHaveProperty('exp');
    expect(await tokens.verify(issued.token)).not.toHaveProperty('expiresAt');
  });

  it('maps durations as the ecosystem does (month = 30 days)', () => {
    expect(ACCESS_TOKEN_DURATION_MS.ONE_HOUR).toBe(3_600_000);
    expect(ACCESS_TOKEN_DURATION_MS.ONE_WEEK).toBe(7 * 86_400_000);
    expect(ACCESS_TOKEN_DURATION_MS.THREE_MONTHS).toBe(90 * 86_400_000);
    expect(ACCESS_TOKEN_DURATION_MS.ONE_YEAR).toBe(365 * 86_400_000);
    expect(ACCESS_TOKEN_DURATION_MS.NO_EXPIRY).toBeNull();
  });

  it("rejects alg 'none' even with valid claims", async () => {
    const unsigned = new UnsecuredJWT({
      version: '1',
      type: 'SESSION',
      actorType: 'USER',
      actorId: 'mallory',
    })
      .setIssuer(SETTINGS.issuer)
      .encode();
    const error = await refusal(service().verify(unsigned));
    expect(error.message).toBe('token algorithm is not HS256');
    expect(error.message).not.toContain(unsigned);
  });

  it('rejects another HMAC algorithm signed with the right key', async () => {
    const token = await new SignJWT({ version: '1', type: 'SESSION', actorType: 'USER', actorId: 'a' })
      .setProtectedHeader({ alg: 'HS512' })
      .setIssuer(SETTINGS.issuer)
      .sign(new TextEncoder().encode(SETTINGS.signingKey));
    expect((await refusal(service().verify(token))).message).toBe('token algorithm is not HS256');
  });

  it('rejects a token signed with another key, without echoing the token', async () => {
    const forged = await service(() => T0, {
      ...SETTINGS,
      signingKey: 'some-other-key-of-enough-length!!',
    }).issueSessionToken('mallory');
    const error = await refusal(service().verify(forged));
    expect(error.message).toBe('token signature is invalid');
    expect(error.message).not.toContain(forged);
  });

  it('uses the raw UTF-8 bytes of the signing key, not its base64 decoding', async () => {
    const base64Key = 'WnEdIeTG/VVCLQqGwC/BAkqyY0k+H8NEAtWGejrBI94=';
    const token = await new SignJWT({ version: '1', type: 'SESSION', actorType: 'USER', actorId: 'a' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(SETTINGS.issuer)
      .sign(Buffer.from(base64Key, 'utf8'));
    await expect(
      service(() => T0, { ...SETTINGS, signingKey: base64Key }).verify(token),
    ).resolves.toMatchObject({
      actorId: 'a',
    });
  });

  it('rejects a token of another issuer', async () => {
    const other = await service(() => T0, { ...SETTINGS, issuer: 'someone-else' }).issueSessionToken('alice');
    expect((await refusal(service().verify(other))).message).toBe('token was not issued by this service');
  });

  it('rejects an expired session token without naming a token urn', async () => {
    const token = await service().issueSessionToken('alice');
    const later = service(() => T0 + SETTINGS.sessionTokenDurationMs + 1000);
    const error = await refusal(later.verify(token));
    expect(error.message).toBe('Failed to validate DataHub token. Token has expired.');
    expect(error.expiredTokenUrn).toBeUndefined();
  });

  it('reports the urn of an expired personal token so the caller can delete it', async () => {
    const tokens = service();
    const issued = await tokens.issueAccessToken('bob', 'ONE_HOUR');
    const error = await refusal(service(() => T0 + 3_600_000 + 1000).verify(issued.token));
    expect(error.expiredTokenUrn).toBe(issued.urn);
  });

  it('does not report a urn for an expired token whose signature is wrong', async () => {
    const forged = await signWithKey(
      { version: '2', type: 'PERSONAL', actorType: 'USER', actorId: 'bob', iss: SETTINGS.issuer },
      'not-the-key-not-the-key-not-the-key',
      Math.floor(T0 / 1000) - 60,
    );
    const error = await refusal(service().verify(forged));
    expect(error.expiredTokenUrn).toBeUndefined();
  });

  it.each([
    ['type', { actorType: 'USER', actorId: 'x' }],
    ['actorId', { type: 'SESSION', actorType: 'USER' }],
    ['actorType', { type: 'SESSION', actorId: 'x' }],
  ])('rejects a signed token missing its %s claim', async (_missing, claims) => {
    const token = await signWithKey({ version: '1', iss: SETTINGS.issuer, ...claims });
    expect((await refusal(service().verify(token))).message).toBe(
      "Failed to validate DataHub token: Found malformed or missing 'actor' claim.",
    );
  });

  it('checks expiry before the actor claims (the ecosystem order)', async () => {
    const token = await signWithKey(
      { iss: SETTINGS.issuer },
      SETTINGS.signingKey,
      Math.floor(T0 / 1000) - 60,
    );
    expect((await refusal(service().verify(token))).message).toContain('expired');
  });

  it('still refuses a token it verified before, once the token has expired', async () => {
    let now = T0;
    const tokens = service(() => now);
    const token = await tokens.issueSessionToken('alice');
    expect((await tokens.verify(token)).actorId).toBe('alice');
    expect((await tokens.verify(token)).actorId).toBe('alice');
    now = T0 + SETTINGS.sessionTokenDurationMs + 1000;
    expect((await refusal(tokens.verify(token))).message).toContain('expired');
  });

  it('computes the token id as base64(sha256(token + salt))', () => {
    // Known vector: sha256("abc" + "def") = sha256("abcdef").
    const tokens = service(() => T0, { ...SETTINGS, salt: 'def' });
    expect(tokens.tokenId('abc')).toBe('vvV+x/U6bUC+tkCngKY5yDvCmsipgW8fxsXG3Nk8RyE=');
    expect(tokens.tokenId('abc')).toBe(createHash('sha256').update('abcdef').digest('base64'));
  });
});
