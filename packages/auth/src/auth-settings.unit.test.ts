import { EnvReader } from '@catalog/runtime';
import { describe, expect, it } from 'vitest';
import { checkSecrets, defaultSecretsIn, readAuthSettings } from './auth-settings.js';

const read = (env: Record<string, string>) => readAuthSettings(new EnvReader(env));
const OWN = {
  DATAHUB_SYSTEM_CLIENT_SECRET: 'a-secret-of-our-own',
  DATAHUB_TOKEN_SERVICE_SIGNING_KEY: 'a-signing-key-of-our-own',
  DATAHUB_TOKEN_SERVICE_SALT: 'a-salt-of-our-own',
  ROOT_USER_PASSWORD: 'a-password-of-our-own',
  SECRET_SERVICE_ENCRYPTION_KEY: 'an-encryption-key-of-our-own',
};

describe('authentication settings', () => {
  it('turns authentication and REST API authorization on by default', () => {
    const settings = read({});
    expect(settings.enabled).toBe(true);
    expect(settings.restApiAuthorization).toBe(true);
    expect(settings.enforceExistence).toBe(true);
    expect(settings.guest.enabled).toBe(false);
    expect(settings.externalOAuth).toMatchObject({ enabled: false, userIdClaim: 'sub', algorithm: 'RS256' });
  });

  it('names every secret left at its published default, never its value', () => {
    const names = defaultSecretsIn(read({}));
    expect(names).toEqual([
      'DATAHUB_SYSTEM_CLIENT_SECRET',
      'DATAHUB_TOKEN_SERVICE_SIGNING_KEY',
      'DATAHUB_TOKEN_SERVICE_SALT',
      'ROOT_USER_PASSWORD',
      'SECRET_SERVICE_ENCRYPTION_KEY',
    ]);
    expect(defaultSecretsIn(read(OWN))).toEqual([]);
    expect(defaultSecretsIn(read({ ...OWN, DATAHUB_TOKEN_SERVICE_SALT: ' ' }))).toEqual([
      'DATAHUB_TOKEN_SERVICE_SALT',
    ]);
  });

  it('refuses a production start with a default or empty secret, and only warns elsewhere', () => {
    expect(() => checkSecrets(read({ CATALOG_ENVIRONMENT: 'production' }))).toThrow(
      /DATAHUB_SYSTEM_CLIENT_SECRET is at its published default/,
    );
    expect(() =>
      checkSecrets(read({ ...OWN, ROOT_USER_PASSWORD: '', CATALOG_ENVIRONMENT: 'production' })),
    ).toThrow(/ROOT_USER_PASSWORD/);
    expect(checkSecrets(read({ ...OWN, CATALOG_ENVIRONMENT: 'production' }))).toEqual([]);
    expect(checkSecrets(read({}))).toHaveLength(5);
  });

  it('a production configuration with a default, empty or placeholder secret is refused at the read, naming each', () => {
    const production = (extra: Record<string, string>) => {
      const env = new EnvReader({ ...OWN, CATALOG_ENVIRONMENT: 'production', ...extra });
      readAuthSettings(env);
      return () => env.finish();
    };
    expect(production({})).not.toThrow();
    expect(production({ DATAHUB_SYSTEM_CLIENT_SECRET: 'JohnSnowKnowsNothing' })).toThrow(
      /DATAHUB_SYSTEM_CLIENT_SECRET is at its published default/,
    );
    expect(production({ ROOT_USER_PASSWORD: 'datahub' })).toThrow(
      /ROOT_USER_PASSWORD is at its published default/,
    );
    expect(production({ DATAHUB_TOKEN_SERVICE_SIGNING_KEY: 'REPLACE_ME' })).toThrow(
      /DATAHUB_TOKEN_SERVICE_SIGNING_KEY is still a placeholder/,
    );
    expect(production({ SECRET_SERVICE_ENCRYPTION_KEY: 'replace-me-with-openssl-rand' })).toThrow(
      /SECRET_SERVICE_ENCRYPTION_KEY is still a placeholder/,
    );
    // Authentication off does not excuse them: the root password is still stored.
    expect(production({ METADATA_SERVICE_AUTH_ENABLED: 'false', ROOT_USER_PASSWORD: 'datahub' })).toThrow(
      /ROOT_USER_PASSWORD/,
    );
    const { SECRET_SERVICE_ENCRYPTION_KEY: _, ...withoutKey } = OWN;
    const env = new EnvReader({ ...withoutKey, CATALOG_ENVIRONMENT: 'production' });
    readAuthSettings(env);
    expect(() => env.finish()).toThrow(/SECRET_SERVICE_ENCRYPTION_KEY is at its published default/);
  });

  it('an explicitly empty ROOT_USER_PASSWORD is refused, not read as the default', () => {
    const env = new EnvReader({ ROOT_USER_PASSWORD: ' ' });
    readAuthSettings(env);
    expect(() => env.finish()).toThrow(/ROOT_USER_PASSWORD is set but empty/);
    const unset = new EnvReader({});
    expect(readAuthSettings(unset).rootPassword).toBe('datahub');
    expect(() => unset.finish()).not.toThrow();
  });

  it('bounds the lifetime of external tokens, one day unless configured', () => {
    expect(read({}).externalOAuth.maxTokenLifetimeSeconds).toBe(86_400);
    expect(
      read({ EXTERNAL_OAUTH_MAX_TOKEN_LIFETIME_SECONDS: '3600' }).externalOAuth.maxTokenLifetimeSeconds,
    ).toBe(3_600);
    const env = new EnvReader({ EXTERNAL_OAUTH_MAX_TOKEN_LIFETIME_SECONDS: '315360000' });
    readAuthSettings(env);
    expect(() => env.finish()).toThrow(/EXTERNAL_OAUTH_MAX_TOKEN_LIFETIME_SECONDS/);
  });

  it('bounds the clock skew tolerated on external tokens', () => {
    const env = new EnvReader({ EXTERNAL_OAUTH_CLOCK_SKEW_SECONDS: '3600' });
    readAuthSettings(env);
    expect(() => env.finish()).toThrow(/EXTERNAL_OAUTH_CLOCK_SKEW_SECONDS/);
  });
});
