import { ConfigError, type EnvReader } from '@catalog/runtime';

/** The ecosystem's published defaults: a deployment that keeps them is open to anyone who read the docs. */
export const DEFAULT_SYSTEM_CLIENT_ID = '__datahub_system';
export const DEFAULT_SYSTEM_CLIENT_SECRET = 'JohnSnowKnowsNothing';
export const DEFAULT_SIGNING_KEY = 'WnEdIeTG/VVCLQqGwC/BAkqyY0k+H8NEAtWGejrBI94=';
export const DEFAULT_SALT = 'ohDVbJBvHHVJh9S/UA4BYF9COuNnqqVhr9MLKEGXk1O=';
export const DEFAULT_ROOT_PASSWORD = 'datahub';
export const DEFAULT_SECRET_ENCRYPTION_KEY = 'ENCRYPTION_KEY';

/**
 * EXTERNAL_OAUTH_MAX_TOKEN_LIFETIME_SECONDS when unset: one day. RFC 9068 / OAuth 2.0 Security BCP want
 * short-lived access tokens (most providers issue 5 to 90 minutes), and the longest common provider default
 * is one day (Auth0's API token lifetime, 86,400 s), so providers work unconfigured while a token valid
 * for years is refused.
 */
export const DEFAULT_MAX_TOKEN_LIFETIME_SECONDS = 86_400;

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
  /** The longest a token may be valid: exp - iat (exp - now without iat), in seconds. */
  readonly maxTokenLifetimeSeconds: number;
  /** How long one fetch of the discovery document or the key set may take. */
  readonly signingKeysFetchTimeoutMs: number;
  /** After a failed fetch, how long requests fail at once instead of fetching again. */
  readonly signingKeysRetryAfterFailureMs: number;
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
  /**
   * ROOT_USER_PASSWORD: the native password of `urn:li:corpuser:datahub`, set on first start; when set
   * to anything but the default, the stored credential is brought back to it at every start.
   */
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
    rootPassword: readRootPassword(env),
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
      maxTokenLifetimeSeconds: env.int(
        'EXTERNAL_OAUTH_MAX_TOKEN_LIFETIME_SECONDS',
        DEFAULT_MAX_TOKEN_LIFETIME_SECONDS,
        { min: 60, max: 30 * 86_400 },
      ),
      signingKeysFetchTimeoutMs: env.int('EXTERNAL_OAUTH_KEYS_FETCH_TIMEOUT_MS', 2_000, {
        min: 100,
        max: 30_000,
      }),
      signingKeysRetryAfterFailureMs: env.int('EXTERNAL_OAUTH_KEYS_RETRY_AFTER_FAILURE_MS', 30_000, {
        min: 0,
        max: 600_000,
      }),
    },
    production:
      env.oneOf('CATALOG_ENVIRONMENT', ['development', 'production'] as const, 'development') ===
      'production',
  };
  // Here, with the other variables, so a refused start has touched nothing: every deployable reads its
  // configuration before it opens a store.
  if (settings.production) {
    for (const problem of secretProblems(settings)) env.invalid(problem.name, problem.message);
  }
  return settings;
}

/**
 * ROOT_USER_PASSWORD, the default when unset. Set but blank is refused: an operator who wrote an empty
 * value (the Kubernetes secret ships one) did not mean the published default.
 */
export function readRootPassword(env: EnvReader): string {
  if (env.setButBlank('ROOT_USER_PASSWORD')) {
    env.invalid('ROOT_USER_PASSWORD', 'is set but empty; set the root password or leave the variable unset');
  }
  return env.string('ROOT_USER_PASSWORD', DEFAULT_ROOT_PASSWORD);
}

/** Values shipped as "fill me in" (the Kubernetes manifests' placeholders): never a secret. */
const PLACEHOLDER = /^(replace[_-]?me|change[_-]?me)/i;

/** Why a secret's value cannot be used in production, or undefined when it can. */
export function secretValueProblem(value: string, publishedDefault: string): string | undefined {
  if (value.trim() === '') return 'is empty';
  if (value === publishedDefault) return 'is at its published default';
  if (PLACEHOLDER.test(value.trim())) return 'is still a placeholder (REPLACE_ME)';
  return undefined;
}

function secretProblems(settings: AuthSettings): { name: string; message: string }[] {
  const secrets: [string, string, string][] = [
    ['DATAHUB_SYSTEM_CLIENT_SECRET', settings.systemClientSecret, DEFAULT_SYSTEM_CLIENT_SECRET],
    ['DATAHUB_TOKEN_SERVICE_SIGNING_KEY', settings.signingKey, DEFAULT_SIGNING_KEY],
    ['DATAHUB_TOKEN_SERVICE_SALT', settings.salt, DEFAULT_SALT],
    ['ROOT_USER_PASSWORD', settings.rootPassword, DEFAULT_ROOT_PASSWORD],
    ['SECRET_SERVICE_ENCRYPTION_KEY', settings.secretEncryptionKey, DEFAULT_SECRET_ENCRYPTION_KEY],
  ];
  return secrets.flatMap(([name, value, fallback]) => {
    const problem = secretValueProblem(value, fallback);
    return problem === undefined
      ? []
      : [{ name, message: `${problem}; set it (CATALOG_ENVIRONMENT=production refuses it)` }];
  });
}

/** The secrets still at their published defaults, empty or placeholders, by name (never their values). */
export function defaultSecretsIn(settings: AuthSettings): readonly string[] {
  return secretProblems(settings).map((problem) => problem.name);
}

/**
 * Refuses production settings with default secrets (throws a ConfigError naming them; readAuthSettings
 * already reported them, so a deployable never gets here with them); elsewhere the caller logs a warning
 * with the same names. Authentication being off does not excuse them in production: the root password
 * is still stored, and the other secrets are live the day authentication is turned on.
 */
export function checkSecrets(settings: AuthSettings): readonly string[] {
  const problems = secretProblems(settings);
  if (settings.production && problems.length > 0) {
    throw new ConfigError(problems.map((problem) => `${problem.name} ${problem.message}`));
  }
  return problems.map((problem) => problem.name);
}
