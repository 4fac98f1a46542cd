import { ConfigError, type EnvReader } from '@catalog/runtime';

/** The ecosystem's published defaults: a deployment that keeps them is open to anyone who read the docs. */
export const DEFAULT_SYSTEM_CLIENT_ID = '__datahub_system';
export const DEFAULT_SYSTEM_CLIENT_SECRET = 'JohnSnowKnowsNothing';
export const DEFAULT_SIGNING_KEY = 'WnEdIeTG/VVCLQqGwC/BAkqyY0k+H8NEAtWGejrBI94=';
export const DEFAULT_SALT = 'ohDVbJBvHHVJh9S/UA4BYF9COuNnqqVhr9MLKEGXk1O=';
export const DEFAULT_ROOT_PASSWORD = 'datahub';
export const DEFAULT_SECRET_ENCRYPTION_KEY = 'ENCRYPTION_KEY';

export interface ExternalOAuthSettings {
  readonly enabled: boolean;
  readonly trustedIssuers: readonly string[];
  readonly allowedAudiences: readonly string[];
  readonly jwksUri?: string;
  readonly discoveryUri?: string;
  readonly userIdClaim: string;
  readonly algorithm: string;
  /** Clock skew tolerated on exp/nbf/iat, in seconds (bounded: at most 300). */
  readonly clockToleranceSeconds: number;
}

export interface AuthSettings {
  /** METADATA_SERVICE_AUTH_ENABLED (default true). */
  readonly enabled: boolean;
  readonly systemClientId: string;
  readonly systemClientSecret: string;
  /** DATAHUB_TOKEN_SERVICE_SIGNING_KEY: its raw UTF-8 bytes are the HS256 key. */
  readonly signingKey: string;
  /** DATAHUB_TOKEN_SERVICE_SALT. */
  readonly salt: string;
  /** DATAHUB_TOKEN_SERVICE_ISSUER. */
  readonly issuer: string;
  /** SESSION_TOKEN_DURATION_MS. */
  readonly sessionTokenDurationMs: number;
  /** METADATA_SERVICE_AUTH_ENFORCE_EXISTENCE_ENABLED: tokens of users without a key aspect are refused. */
  readonly enforceExistence: boolean;
  /** REST_API_AUTHORIZATION_ENABLED (default true): Rest.li and OpenAPI privilege checks. */
  readonly restApiAuthorization: boolean;
  /** GUEST_AUTHENTICATION_ENABLED / GUEST_AUTHENTICATION_USER. */
  readonly guest: { readonly enabled: boolean; readonly user: string };
  /** ROOT_USER_PASSWORD: the native password of `urn:li:corpuser:datahub`, set on first start. */
  readonly rootPassword: string;
  /** SECRET_SERVICE_ENCRYPTION_KEY (else ENCRYPTION_KEY): encrypts invite tokens at rest. */
  readonly secretEncryptionKey: string;
  /** PASSWORD_RESET_TOKEN_EXPIRATION_MS. */
  readonly passwordResetTokenExpirationMs: number;
  /** POLICY_CACHE_REFRESH_INTERVAL_SECONDS: the bound on how long a policy change made elsewhere takes. */
  readonly policyCacheRefreshSeconds: number;
  readonly externalOAuth: ExternalOAuthSettings;
  /** CATALOG_ENVIRONMENT=production: default secrets refuse the start instead of a warning. */
  readonly production: boolean;
}

/** Reads and validates the authentication settings (part of each process's one configuration read). */
export function readAuthSettings(env: EnvReader): AuthSettings {
  const oauthEnabled = env.bool('EXTERNAL_OAUTH_ENABLED', false);
  const jwksUri = env.optionalString('EXTERNAL_OAUTH_JWKS_URI');
  const discoveryUri = env.optionalString('EXTERNAL_OAUTH_DISCOVERY_URI');
  const settings: AuthSettings = {
    enabled: env.bool('METADATA_SERVICE_AUTH_ENABLED', true),
    systemClientId: env.string('DATAHUB_SYSTEM_CLIENT_ID', DEFAULT_SYSTEM_CLIENT_ID),
    systemClientSecret: env.string('DATAHUB_SYSTEM_CLIENT_SECRET', DEFAULT_SYSTEM_CLIENT_SECRET),
    signingKey: env.string('DATAHUB_TOKEN_SERVICE_SIGNING_KEY', DEFAULT_SIGNING_KEY),
    salt: env.string('DATAHUB_TOKEN_SERVICE_SALT', DEFAULT_SALT),
    issuer: env.string('DATAHUB_TOKEN_SERVICE_ISSUER', 'datahub-metadata-service'),
    sessionTokenDurationMs: env.int('SESSION_TOKEN_DURATION_MS', 86_400_000, { min: 1000 }),
    enforceExistence: env.bool('METADATA_SERVICE_AUTH_ENFORCE_EXISTENCE_ENABLED', true),
    restApiAuthorization: env.bool('REST_API_AUTHORIZATION_ENABLED', true),
    guest: {
      enabled: env.bool('GUEST_AUTHENTICATION_ENABLED', false),
      user: env.string('GUEST_AUTHENTICATION_USER', 'guest'),
    },
    rootPassword: env.string('ROOT_USER_PASSWORD', DEFAULT_ROOT_PASSWORD),
    secretEncryptionKey: env.string(
      'SECRET_SERVICE_ENCRYPTION_KEY',
      env.string('ENCRYPTION_KEY', DEFAULT_SECRET_ENCRYPTION_KEY),
    ),
    passwordResetTokenExpirationMs: env.int('PASSWORD_RESET_TOKEN_EXPIRATION_MS', 86_400_000, { min: 1000 }),
    policyCacheRefreshSeconds: env.int('POLICY_CACHE_REFRESH_INTERVAL_SECONDS', 120, { min: 1 }),
    externalOAuth: {
      enabled: oauthEnabled,
      trustedIssuers: env.list('EXTERNAL_OAUTH_TRUSTED_ISSUERS'),
      allowedAudiences: env.list('EXTERNAL_OAUTH_ALLOWED_AUDIENCES'),
      ...(jwksUri === undefined ? {} : { jwksUri }),
      ...(discoveryUri === undefined ? {} : { discoveryUri }),
      userIdClaim: env.string('EXTERNAL_OAUTH_USER_ID_CLAIM', 'sub'),
      algorithm: env.string('EXTERNAL_OAUTH_ALGORITHM', 'RS256'),
      clockToleranceSeconds: env.int('EXTERNAL_OAUTH_CLOCK_SKEW_SECONDS', 30, { min: 0, max: 300 }),
    },
    production:
      env.oneOf('CATALOG_ENVIRONMENT', ['development', 'production'] as const, 'development') ===
      'production',
  };
  return settings;
}

/** The secrets still at their published defaults, or empty, by variable name (never their values). */
export function defaultSecretsIn(settings: AuthSettings): readonly string[] {
  const secrets: [string, string, string][] = [
    ['DATAHUB_SYSTEM_CLIENT_SECRET', settings.systemClientSecret, DEFAULT_SYSTEM_CLIENT_SECRET],
    ['DATAHUB_TOKEN_SERVICE_SIGNING_KEY', settings.signingKey, DEFAULT_SIGNING_KEY],
    ['DATAHUB_TOKEN_SERVICE_SALT', settings.salt, DEFAULT_SALT],
    ['ROOT_USER_PASSWORD', settings.rootPassword, DEFAULT_ROOT_PASSWORD],
    ['SECRET_SERVICE_ENCRYPTION_KEY', settings.secretEncryptionKey, DEFAULT_SECRET_ENCRYPTION_KEY],
  ];
  return secrets
    .filter(([, value, fallback]) => value === fallback || value.trim() === '')
    .map(([name]) => name);
}

/**
 * Refuses a production start with default secrets (throws a ConfigError naming them); elsewhere the
 * caller logs a warning with the same names.
 */
export function checkSecrets(settings: AuthSettings): readonly string[] {
  const defaults = defaultSecretsIn(settings);
  if (settings.production && defaults.length > 0 && settings.enabled) {
    throw new ConfigError(
      defaults.map(
        (name) =>
          `${name} is empty or at its published default; set it (CATALOG_ENVIRONMENT=production refuses defaults)`,
      ),
    );
  }
  return defaults;
}
