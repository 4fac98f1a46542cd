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
      /DATAHUB_SYSTEM_CLIENT_SECRET is empty or at its published default/,
    );
    expect(() =>
      checkSecrets(read({ ...OWN, ROOT_USER_PASSWORD: '', CATALOG_ENVIRONMENT: 'production' })),
    ).toThrow(/ROOT_USER_PASSWORD/);
    expect(checkSecrets(read({ ...OWN, CATALOG_ENVIRONMENT: 'production' }))).toEqual([]);
    expect(checkSecrets(read({}))).toHaveLength(5);
  });

  it('bounds the clock skew tolerated on external tokens', () => {
    const env = new EnvReader({ EXTERNAL_OAUTH_CLOCK_SKEW_SECONDS: '3600' });
    readAuthSettings(env);
    expect(() => env.finish()).toThrow(/EXTERNAL_OAUTH_CLOCK_SKEW_SECONDS/);
  });
});
