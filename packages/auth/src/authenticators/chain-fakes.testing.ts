import { Writable } from 'node:stream';
import { createLogger, type Logger } from '@catalog/runtime';
import type { AuthSettings, ExternalOAuthSettings } from '../auth-settings.js';
import type { AccessTokenRegistry, ActorDirectory, ActorState, ServiceAccountProvisioner } from '../types.js';

/** In-memory stand-ins for the ports the gateway implements over the catalog. */

export class FakeActorDirectory implements ActorDirectory {
  readonly states = new Map<string, Partial<ActorState>>();

  set(actorUrn: string, state: Partial<ActorState>): void {
    this.states.set(actorUrn, state);
  }

  async actorState(actorUrn: string): Promise<ActorState> {
    const known = this.states.get(actorUrn);
    return {
      exists: known !== undefined,
      removed: false,
      suspended: false,
      groups: [],
      roles: [],
      ...known,
    };
  }
}

export class FakeAccessTokenRegistry implements AccessTokenRegistry {
  readonly stored = new Set<string>();
  readonly revoked: string[] = [];
  failRevoke = false;

  async exists(tokenUrn: string): Promise<boolean> {
    return this.stored.has(tokenUrn);
  }

  async revoke(tokenUrn: string): Promise<void> {
    this.revoked.push(tokenUrn);
    if (this.failRevoke) throw new Error('store unavailable');
    this.stored.delete(tokenUrn);
  }

  async isSessionRevoked(tokenUrn: string): Promise<boolean> {
    return this.stored.has(tokenUrn);
  }

  async revokeSession(tokenUrn: string): Promise<void> {
    this.stored.add(tokenUrn);
  }
}

export class FakeServiceAccounts implements ServiceAccountProvisioner {
  readonly ensured: { actorUrn: string; issuer: string; subject: string }[] = [];
  /** Also makes the account known to a directory, as the gateway's provisioner does. */
  constructor(private readonly actors?: FakeActorDirectory) {}

  async ensure(account: { actorUrn: string; issuer: string; subject: string }): Promise<void> {
    this.ensured.push({ ...account });
    if (this.actors !== undefined && !this.actors.states.has(account.actorUrn))
      this.actors.set(account.actorUrn, {});
  }
}

/** A debug-level logger whose lines are kept in memory, to check what reaches the log. */
export function capturingLogger(): { logger: Logger; lines: () => string } {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      chunks.push(chunk.toString());
      callback();
    },
  });
  const logger = createLogger({ name: 'auth-test', level: 'trace', destination });
  return { logger, lines: () => chunks.join('') };
}

const OAUTH_OFF: ExternalOAuthSettings = {
  enabled: false,
  trustedIssuers: [],
  allowedAudiences: [],
  userIdClaim: 'sub',
  algorithm: 'RS256',
  clockToleranceSeconds: 30,
  maxTokenLifetimeSeconds: 86_400,
  signingKeysFetchTimeoutMs: 2_000,
  signingKeysRetryAfterFailureMs: 30_000,
};

export function testSettings(overrides: Partial<AuthSettings> = {}): AuthSettings {
  return {
    enabled: true,
    systemClientId: '__datahub_system',
    systemClientSecret: 'test-system-secret',
    signingKey: 'unit-test-signing-key-with-some-length',
    salt: 'unit-test-salt',
    issuer: 'datahub-metadata-service',
    sessionTokenDurationMs: 86_400_000,
    enforceExistence: true,
    restApiAuthorization: true,
    guest: { enabled: false, user: 'guest' },
    rootPassword: 'not-the-default',
    secretEncryptionKey: 'unit-test-encryption-key',
    passwordResetTokenExpirationMs: 86_400_000,
    policyCacheRefreshSeconds: 120,
    externalOAuth: OAUTH_OFF,
    production: false,
    ...overrides,
  };
}
