import { describe, expect, it, vi } from 'vitest';
import { SecretCipher, type AuthSettings } from '@catalog/auth';
import type { CheckedProposal } from '@catalog/model';
import { SYSTEM_ACTOR, type Logger, type ProposalOutcome } from '@catalog/runtime';
import type { AspectStore, ScanOptions, StoredAspect } from '@catalog/store';
import type { GatewayAuth } from '../auth/gateway-auth.js';
import type { ProposalSubmitter } from '../ingest/proposal-submitter.js';
import { inviteTokenUrn } from './identity-tokens.js';
import { NativeUserService } from './native-user-service.js';

const KEY = 'unit-test-encryption-key';
const JANE = 'urn:li:corpuser:jane@example.com';

/** The store and the write path in memory: enough of both for this service (key aspects, CREATE, entity delete). */
class MemoryCatalog {
  readonly entities = new Map<string, Map<string, Record<string, unknown>>>();
  readonly writes: { actor: string; urn: string; aspect: string; changeType: string }[] = [];

  readonly store = {
    getLatest: async (urn: string, names?: readonly string[]): Promise<readonly StoredAspect[]> =>
      [...(this.entities.get(urn) ?? new Map<string, Record<string, unknown>>())]
        .filter(([aspect]) => names === undefined || names.includes(aspect))
        .map(([aspect, value]) => stored(urn, aspect, value)),
    scan: async (options: ScanOptions) => {
      const items = [...this.entities].flatMap(([urn, aspects]) =>
        [...aspects]
          .filter(([aspect]) => aspect === options.aspect)
          .map(([aspect, v]) => stored(urn, aspect, v)),
      );
      return { items };
    },
  } as unknown as AspectStore;

  readonly submitter = {
    submit: async (proposals: readonly CheckedProposal[], options: { actor: string }) =>
      proposals.map((p, i): ProposalOutcome => {
        const urn = p.urn.raw;
        this.writes.push({ actor: options.actor, urn, aspect: p.aspect.name, changeType: p.changeType });
        const entity = this.entities.get(urn);
        if (p.changeType === 'DELETE') {
          if (!entity) return { requestId: `${i}`, ok: false, code: 'NOT_FOUND' };
          this.entities.delete(urn);
          return { requestId: `${i}`, ok: true };
        }
        if (p.changeType === 'CREATE' && entity?.has(p.aspect.name)) {
          return { requestId: `${i}`, ok: false, code: 'CONFLICT', message: 'exists' };
        }
        const target =
          entity ?? new Map<string, Record<string, unknown>>([[p.entity.keyAspect, { id: urn }]]);
        target.set(p.aspect.name, p.value ?? {});
        this.entities.set(urn, target);
        return { requestId: `${i}`, ok: true };
      }),
  } as unknown as ProposalSubmitter;

  aspect(urn: string, name: string): Record<string, unknown> | undefined {
    return this.entities.get(urn)?.get(name);
  }

  put(urn: string, aspects: Record<string, Record<string, unknown>>): void {
    this.entities.set(urn, new Map(Object.entries(aspects)));
  }
}

function stored(urn: string, aspect: string, value: Record<string, unknown>): StoredAspect {
  return { urn, aspect, version: 0, value, systemMetadata: null, created: { time: 0, actor: SYSTEM_ACTOR } };
}

function setup(settings: Partial<AuthSettings> = {}) {
  const catalog = new MemoryCatalog();
  let now = 1_000_000;
  const invalidate = vi.fn();
  const auth = {
    settings: {
      systemClientId: '__datahub_system',
      secretEncryptionKey: KEY,
      passwordResetTokenExpirationMs: 60_000,
      enforceExistence: true,
      rootPassword: 'root-secret',
      ...settings,
    },
    actors: { invalidate },
  } as unknown as GatewayAuth;
  const logger = { info: vi.fn(), warn: vi.fn(), error: vi.fn(), debug: vi.fn() } as unknown as Logger;
  const users = new NativeUserService({
    store: catalog.store,
    submitter: catalog.submitter,
    auth,
    logger,
    now: () => now,
  });
  return { catalog, users, invalidate, logger, advance: (ms: number) => void (now += ms) };
}

const signUpOf = (inviteToken: string, overrides: Record<string, string> = {}) => ({
  userUrn: JANE,
  fullName: 'Jane Doe',
  email: 'jane@example.com',
  password: 'correct horse',
  inviteToken,
  ...overrides,
});

describe('invite tokens', () => {
  it('stores a new token encrypted under the hash of the token', async () => {
    const { catalog, users } = setup();
    const token = await users.createInviteToken('urn:li:dataHubRole:Reader');
    expect(token).toMatch(/^[a-z]{32}$/);
    const value = catalog.aspect(inviteTokenUrn(token), 'inviteToken');
    expect(value?.['role']).toBe('urn:li:dataHubRole:Reader');
    expect(value?.['token']).not.toBe(token);
    expect(new SecretCipher(KEY).decrypt(String(value?.['token']))).toBe(token);
    expect(await users.isValidInviteToken(token)).toBe(true);
    expect(await users.isValidInviteToken('nottheinvitetoken')).toBe(false);
    expect(await users.isValidInviteToken('')).toBe(false);
  });

  it('createInviteToken makes another each time; getInviteToken reuses the one of its role', async () => {
    const { users } = setup();
    const a = await users.createInviteToken();
    expect(await users.createInviteToken('urn:li:dataHubRole:Admin')).not.toBe(a);
    expect(await users.getInviteToken()).toBe(a);
    expect(await users.getInviteToken()).toBe(a);
    const reader = await users.getInviteToken('urn:li:dataHubRole:Reader');
    expect(reader).not.toBe(a);
    expect(await users.getInviteToken('urn:li:dataHubRole:Reader')).toBe(reader);
  });

  it('getInviteToken replaces several tokens of one role by a single fresh one', async () => {
    const { catalog, users } = setup();
    const a = await users.createInviteToken();
    const b = await users.createInviteToken();
    const fresh = await users.getInviteToken();
    expect([a, b]).not.toContain(fresh);
    expect(await users.isValidInviteToken(a)).toBe(false);
    expect(await users.isValidInviteToken(b)).toBe(false);
    expect(await users.getInviteToken()).toBe(fresh);
    expect([...catalog.entities.keys()].filter((u) => u.startsWith('urn:li:inviteToken:'))).toHaveLength(1);
  });

  it('replaces a token that no longer decrypts', async () => {
    const { catalog, users } = setup();
    catalog.put('urn:li:inviteToken:stale', {
      inviteTokenKey: { id: 'stale' },
      inviteToken: { token: 'garbage' },
    });
    const token = await users.getInviteToken();
    expect(catalog.entities.has('urn:li:inviteToken:stale')).toBe(false);
    expect(await users.isValidInviteToken(token)).toBe(true);
  });
});

describe('signUp', () => {
  it('writes info, status and credentials in order, as the system actor', async () => {
    const { catalog, users, invalidate } = setup();
    const invite = await users.createInviteToken();
    catalog.writes.length = 0;
    await users.signUp({ ...signUpOf(invite), title: 'Engineer' });
    expect(catalog.writes.map((w) => [w.aspect, w.actor])).toEqual([
      ['corpUserInfo', SYSTEM_ACTOR],
      ['corpUserStatus', SYSTEM_ACTOR],
      ['corpUserCredentials', SYSTEM_ACTOR],
    ]);
    expect(catalog.aspect(JANE, 'corpUserInfo')).toMatchObject({
      active: true,
      fullName: 'Jane Doe',
      displayName: 'Jane Doe',
      email: 'jane@example.com',
      title: 'Engineer',
    });
    expect(catalog.aspect(JANE, 'corpUserStatus')).toEqual({
      status: 'ACTIVE',
      lastModified: { actor: SYSTEM_ACTOR, time: 1_000_000 },
    });
    expect(JSON.stringify(catalog.aspect(JANE, 'corpUserCredentials'))).not.toContain('correct horse');
    expect(invalidate).toHaveBeenCalledWith(JANE);
    expect(await users.verifyCredentials(JANE, 'correct horse')).toEqual({ matches: true });
  });

  it('refuses a bad invite token, reserved users and existing ones with the ecosystem messages', async () => {
    const { catalog, users } = setup();
    const invite = await users.createInviteToken();
    await expect(users.signUp(signUpOf('wrong'))).rejects.toMatchObject({ failure: 'INVALID_INVITE_TOKEN' });
    for (const userUrn of [
      'urn:li:corpuser:datahub',
      'urn:li:corpuser:__datahub_system',
      'urn:li:corpuser:UNKNOWN',
    ]) {
      await expect(users.signUp(signUpOf(invite, { userUrn }))).rejects.toThrow(
        'This user already exists! Cannot create a new user.',
      );
    }
    catalog.put(JANE, { corpUserKey: { username: 'jane@example.com' }, status: { removed: true } });
    await expect(users.signUp(signUpOf(invite))).rejects.toMatchObject({ failure: 'USER_EXISTS' });
    await expect(users.signUp(signUpOf(invite, { userUrn: 'urn:li:corpGroup:x' }))).rejects.toMatchObject({
      failure: 'INVALID_USER_URN',
    });
  });

  it('keeps the shared invite token valid after use', async () => {
    const { users } = setup();
    const invite = await users.createInviteToken();
    await users.signUp(signUpOf(invite));
    expect(await users.isValidInviteToken(invite)).toBe(true);
  });
});

describe('verifyCredentials', () => {
  it('a wrong password or a user without credentials is INVALID_CREDENTIALS', async () => {
    const { users } = setup();
    await users.signUp(signUpOf(await users.createInviteToken()));
    expect(await users.verifyCredentials(JANE, 'wrong')).toEqual({
      matches: false,
      denialReason: 'INVALID_CREDENTIALS',
    });
    expect(await users.verifyCredentials('urn:li:corpuser:nobody', 'x')).toEqual({
      matches: false,
      denialReason: 'INVALID_CREDENTIALS',
    });
  });

  it('a matching password of a suspended user reports SUSPENDED', async () => {
    const { catalog, users } = setup();
    await users.signUp(signUpOf(await users.createInviteToken()));
    catalog.entities.get(JANE)?.set('corpUserStatus', { status: 'SUSPENDED' });
    expect(await users.verifyCredentials(JANE, 'correct horse')).toEqual({
      matches: true,
      denialReason: 'SUSPENDED',
    });
    expect(await users.sessionDenialReason(JANE)).toBe('SUSPENDED');
  });
});

describe('password reset', () => {
  it('refuses non-native users', async () => {
    const { catalog, users } = setup();
    catalog.put('urn:li:corpuser:sso', { corpUserKey: {}, corpUserInfo: { active: true } });
    await expect(users.createResetToken('urn:li:corpuser:sso')).rejects.toThrow(
      'User does not exist or is a non-native user!',
    );
  });

  it('stores a digest with the expiry, resets once, and checks in the ecosystem order', async () => {
    const { catalog, users, advance } = setup();
    await users.signUp(signUpOf(await users.createInviteToken()));
    await expect(users.resetCredentials({ userUrn: JANE, password: 'n', resetToken: 'x' })).rejects.toThrow(
      'User has not generated a password reset token!',
    );
    const token = await users.createResetToken(JANE, 'urn:li:corpuser:admin');
    expect(catalog.writes.at(-1)?.actor).toBe('urn:li:corpuser:admin');
    const credentials = catalog.aspect(JANE, 'corpUserCredentials');
    expect(credentials?.['passwordResetToken']).not.toContain(token);
    expect(credentials?.['passwordResetTokenExpirationTimeMillis']).toBe(1_000_000 + 60_000);

    await expect(
      users.resetCredentials({ userUrn: JANE, password: 'n', resetToken: 'wrong' }),
    ).rejects.toThrow('Invalid reset token. Please ask your administrator to send you an updated link!');
    await users.resetCredentials({ userUrn: JANE, password: 'new password', resetToken: token });
    expect(await users.verifyCredentials(JANE, 'new password')).toEqual({ matches: true });
    expect(await users.verifyCredentials(JANE, 'correct horse')).toMatchObject({ matches: false });
    // Used once: the token is gone.
    await expect(
      users.resetCredentials({ userUrn: JANE, password: 'again', resetToken: token }),
    ).rejects.toThrow('User has not generated a password reset token!');

    const late = await users.createResetToken(JANE);
    advance(60_001);
    await expect(users.resetCredentials({ userUrn: JANE, password: 'n', resetToken: late })).rejects.toThrow(
      'Reset token has expired! Please ask your administrator to create a new one',
    );
    await expect(
      users.resetCredentials({ userUrn: 'urn:li:corpuser:nobody', password: 'n', resetToken: late }),
    ).rejects.toThrow('User does not exist!');
  });
});
