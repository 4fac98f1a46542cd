import { describe, expect, it } from 'vitest';
import type { AuthSettings } from '../auth-settings.js';
import { TokenService } from '../tokens/token-service.js';
import { AuthenticationChain, type AuthenticationOutcome } from './authentication-chain.js';
import {
  capturingLogger,
  FakeAccessTokenRegistry,
  FakeActorDirectory,
  FakeServiceAccounts,
  testSettings,
} from './chain-fakes.testing.js';

const T0 = 1_700_000_000_000;
const ALICE = 'urn:li:corpuser:alice';

function setup(overrides: Partial<AuthSettings> = {}, now = () => T0) {
  const settings = testSettings(overrides);
  const tokens = new TokenService(settings, now);
  const actors = new FakeActorDirectory();
  actors.set(ALICE, {});
  const accessTokens = new FakeAccessTokenRegistry();
  const serviceAccounts = new FakeServiceAccounts(actors);
  const { logger, lines } = capturingLogger();
  const chain = new AuthenticationChain({ settings, tokens, actors, accessTokens, serviceAccounts, logger });
  /** A personal token for alice, stored like createAccessToken stores it. */
  const storedAccessToken = async (actorId = 'alice') => {
    const issued = await tokens.issueAccessToken(actorId, 'ONE_HOUR');
    accessTokens.stored.add(issued.urn);
    return issued;
  };
  return { settings, tokens, actors, accessTokens, chain, lines, storedAccessToken };
}

function actorOf(outcome: AuthenticationOutcome): string | undefined {
  return outcome.ok ? outcome.authentication.actorUrn : undefined;
}

function reasonOf(outcome: AuthenticationOutcome): string | undefined {
  return outcome.ok ? undefined : outcome.reason;
}

describe('AuthenticationChain: system client', () => {
  it('accepts Basic <id>:<secret> in plain text as the system actor', async () => {
    const { chain } = setup();
    const outcome = await chain.authenticate({ authorization: 'Basic __datahub_system:test-system-secret' });
    expect(outcome).toEqual({
      ok: true,
      authentication: {
        actorUrn: 'urn:li:corpuser:__datahub_system',
        actorId: '__datahub_system',
        method: 'system-client',
        isSystem: true,
      },
    });
  });

  it('accepts the base64 form of the same pair', async () => {
    const { chain } = setup();
    const encoded = Buffer.from('__datahub_system:test-system-secret').toString('base64');
    expect(actorOf(await chain.authenticate({ authorization: `Basic ${encoded}` }))).toBe(
      'urn:li:corpuser:__datahub_system',
    );
  });

  it('refuses a wrong secret (an authentication failure, not a guest) and never logs it', async () => {
    const { chain, lines } = setup({ guest: { enabled: true, user: 'guest' } });
    const outcome = await chain.authenticate({ authorization: 'Basic __datahub_system:wrong-secret-value' });
    expect(outcome.ok).toBe(false);
    expect(await chain.authenticate({ authorization: 'Basic someone:test-system-secret' })).toMatchObject({
      ok: false,
    });
    expect(lines()).toContain('authentication refused');
    expect(lines()).not.toContain('wrong-secret-value');
    expect(lines()).not.toContain('test-system-secret');
  });
});

describe('AuthenticationChain: tokens of this service', () => {
  it('accepts a stored personal access token of an active user', async () => {
    const { chain, storedAccessToken } = setup();
    const { token } = await storedAccessToken();
    const outcome = await chain.authenticate({ authorization: `Bearer ${token}` });
    expect(outcome).toMatchObject({
      ok: true,
      authentication: { actorUrn: ALICE, method: 'access-token', isSystem: false },
    });
  });

  it('refuses a revoked personal access token', async () => {
    const { chain, accessTokens, storedAccessToken } = setup();
    const issued = await storedAccessToken();
    await accessTokens.revoke(issued.urn);
    expect(reasonOf(await chain.authenticate({ authorization: `Bearer ${issued.token}` }))).toMatch(
      /revoked/,
    );
  });

  it('deletes an expired personal access token when it is presented', async () => {
    let now = T0;
    const { chain, accessTokens, storedAccessToken } = setup({}, () => now);
    const issued = await storedAccessToken();
    now = T0 + 2 * 3_600_000;
    const outcome = await chain.authenticate({ authorization: `Bearer ${issued.token}` });
    expect(reasonOf(outcome)).toMatch(/expired/);
    expect(accessTokens.revoked).toEqual([issued.urn]);
  });

  it('still refuses an expired token when deleting it fails, and logs the failure without the token', async () => {
    let now = T0;
    const { chain, accessTokens, lines, storedAccessToken } = setup({}, () => now);
    const issued = await storedAccessToken();
    accessTokens.failRevoke = true;
    now = T0 + 2 * 3_600_000;
    expect((await chain.authenticate({ authorization: `Bearer ${issued.token}` })).ok).toBe(false);
    expect(lines()).toContain('could not delete an expired access token');
    expect(lines()).not.toContain(issued.token);
  });

  it('accepts a session token from the Bearer header and from the session cookie', async () => {
    const { chain, tokens } = setup();
    const token = await tokens.issueSessionToken('alice');
    expect(await chain.authenticate({ authorization: `Bearer ${token}` })).toMatchObject({
      ok: true,
      authentication: { actorUrn: ALICE, method: 'session-token' },
    });
    expect(actorOf(await chain.authenticate({ sessionToken: token }))).toBe(ALICE);
  });

  it('refuses a session token revoked by a logout, from the cookie and as Bearer, and keeps others', async () => {
    const { chain, tokens, accessTokens } = setup();
    const loggedOut = await tokens.issueSessionToken('alice');
    const other = await tokens.issueSessionToken('alice');
    await accessTokens.revokeSession(tokens.tokenUrn(loggedOut));
    expect(reasonOf(await chain.authenticate({ sessionToken: loggedOut }))).toBe(
      'session token was revoked by a logout',
    );
    expect(reasonOf(await chain.authenticate({ authorization: `Bearer ${loggedOut}` }))).toBe(
      'session token was revoked by a logout',
    );
    expect(actorOf(await chain.authenticate({ sessionToken: other }))).toBe(ALICE);
  });

  it('accepts the lower-case bearer scheme', async () => {
    const { chain, tokens } = setup();
    expect(
      actorOf(
        await chain.authenticate({ authorization: `bearer ${await tokens.issueSessionToken('alice')}` }),
      ),
    ).toBe(ALICE);
  });

  it.each([
    ['suspended', { suspended: true }],
    ['soft-deleted', { removed: true }],
  ])('refuses every token of a %s user', async (_name, state) => {
    const { chain, actors, tokens, storedAccessToken } = setup();
    const session = await tokens.issueSessionToken('alice');
    const { token } = await storedAccessToken();
    actors.set(ALICE, state);
    expect(reasonOf(await chain.authenticate({ authorization: `Bearer ${session}` }))).toBe(
      'actor is not active',
    );
    expect(reasonOf(await chain.authenticate({ authorization: `Bearer ${token}` }))).toBe(
      'actor is not active',
    );
  });

  it('refuses a user without a key aspect while existence is enforced', async () => {
    const { chain, tokens } = setup();
    const token = await tokens.issueSessionToken('ghost');
    expect(reasonOf(await chain.authenticate({ authorization: `Bearer ${token}` }))).toBe(
      'actor is not active',
    );
  });

  it('lets a user without a key aspect in when existence is not enforced', async () => {
    const { chain, tokens } = setup({ enforceExistence: false });
    const token = await tokens.issueSessionToken('ghost');
    expect(actorOf(await chain.authenticate({ authorization: `Bearer ${token}` }))).toBe(
      'urn:li:corpuser:ghost',
    );
  });

  it('refuses a token signed with another key and never logs the token', async () => {
    const { chain, lines } = setup();
    const foreign = await new TokenService(
      testSettings({ signingKey: 'another-key-another-key-another' }),
    ).issueSessionToken('alice');
    expect(reasonOf(await chain.authenticate({ authorization: `Bearer ${foreign}` }))).toBe(
      'token signature is invalid',
    );
    expect(lines()).not.toContain(foreign);
    expect(lines()).not.toContain(foreign.split('.')[2]);
  });

  it('refuses a token of another issuer when external OAuth is off', async () => {
    const { chain } = setup();
    const other = await new TokenService(testSettings({ issuer: 'elsewhere' })).issueSessionToken('alice');
    expect(reasonOf(await chain.authenticate({ authorization: `Bearer ${other}` }))).toBe(
      'OAuth authenticator is not configured',
    );
  });

  it('refuses an unknown scheme or an empty bearer token', async () => {
    const { chain } = setup({ guest: { enabled: true, user: 'guest' } });
    expect((await chain.authenticate({ authorization: 'Token abc' })).ok).toBe(false);
    expect((await chain.authenticate({ authorization: 'Bearer ' })).ok).toBe(false);
  });
});

describe('AuthenticationChain: isActive', () => {
  it('treats the system actor as always active', async () => {
    const { chain } = setup();
    expect(await chain.isActive('urn:li:corpuser:__datahub_system')).toBe(true);
  });

  it('follows existence, removal and suspension', async () => {
    const { chain, actors } = setup();
    expect(await chain.isActive(ALICE)).toBe(true);
    expect(await chain.isActive('urn:li:corpuser:nobody')).toBe(false);
    actors.set(ALICE, { suspended: true });
    expect(await chain.isActive(ALICE)).toBe(false);
    actors.set(ALICE, { removed: true });
    expect(await chain.isActive(ALICE)).toBe(false);
  });
});

describe('AuthenticationChain: auth disabled', () => {
  it('acts as the user named in X-DataHub-Actor', async () => {
    const { chain } = setup({ enabled: false });
    expect(await chain.authenticate({ actorHeader: 'urn:li:corpuser:carol' })).toEqual({
      ok: true,
      authentication: {
        actorUrn: 'urn:li:corpuser:carol',
        actorId: 'carol',
        method: 'auth-disabled',
        isSystem: false,
      },
    });
  });

  it('acts as the system client without a header, or with one that is not a user urn', async () => {
    const { chain } = setup({ enabled: false });
    for (const input of [
      {},
      { actorHeader: 'urn:li:corpGroup:admins' },
      { authorization: 'Bearer nonsense' },
    ]) {
      expect(await chain.authenticate(input)).toMatchObject({
        ok: true,
        authentication: {
          actorUrn: 'urn:li:corpuser:__datahub_system',
          method: 'auth-disabled',
          isSystem: true,
        },
      });
    }
  });

  it('ignores X-DataHub-Actor while authentication is on', async () => {
    const { chain } = setup();
    expect((await chain.authenticate({ actorHeader: ALICE })).ok).toBe(false);
  });
});

describe('AuthenticationChain: guest', () => {
  it('turns a request without credentials into the guest user when enabled', async () => {
    const { chain } = setup({ guest: { enabled: true, user: 'visitor' } });
    expect(await chain.authenticate({})).toEqual({
      ok: true,
      authentication: {
        actorUrn: 'urn:li:corpuser:visitor',
        actorId: 'visitor',
        method: 'guest',
        isSystem: false,
      },
    });
  });

  it('refuses a request without credentials when guest access is off', async () => {
    const { chain } = setup();
    expect(reasonOf(await chain.authenticate({}))).toBe('no credentials were presented');
  });

  it('does not fall back to guest for bad credentials', async () => {
    const { chain } = setup({ guest: { enabled: true, user: 'guest' } });
    expect((await chain.authenticate({ authorization: 'Bearer not.a.jwt' })).ok).toBe(false);
  });
});
