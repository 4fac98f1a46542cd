import {
  AuthenticationChain,
  PolicyEngine,
  TokenService,
  checkSecrets,
  type AuthSettings,
} from '@catalog/auth';
import type { EventLog } from '@catalog/events';
import { childLogger, type Logger } from '@catalog/runtime';
import type { AspectStore } from '@catalog/store';
import type { ProposalSubmitter } from '../ingest/proposal-submitter.js';
import type { GatewayAuth } from './gateway-auth.js';
import { LoginThrottle } from './login-throttle.js';
import { LogPlatformEventPublisher } from './platform-event-publisher.js';
import { ServiceAccountProvisionerStore } from './service-account-provisioner.js';
import { StoreAccessTokenRegistry } from './store-access-token-registry.js';
import { StoreActorDirectory } from './store-actor-directory.js';
import { StorePolicySource } from './store-policy-source.js';
import { StoreResourceResolver } from './store-resource-resolver.js';

/** Cached answers about users and tokens are read again after this long, even without a change log. */
const CACHE_TTL_MS = 5 * 60_000;

/**
 * Builds the gateway's authentication and authorization over the aspect store and the proposal log.
 * Logs a warning naming each secret still at its published default (a production deployment refuses
 * to start instead: checkSecrets throws).
 */
export function createGatewayAuth(deps: {
  readonly settings: AuthSettings;
  readonly store: AspectStore;
  readonly log: EventLog;
  readonly platformEventTopic: string;
  readonly submitter: ProposalSubmitter;
  readonly logger: Logger;
}): GatewayAuth {
  const { settings, store, submitter } = deps;
  const logger = childLogger(deps.logger, { module: 'auth' });
  const defaults = checkSecrets(settings);
  if (settings.enabled && defaults.length > 0) {
    logger.warn(
      { variables: defaults },
      'secrets at their published defaults: anyone who read the documentation can authenticate; set them (CATALOG_ENVIRONMENT=production refuses to start with defaults)',
    );
  }
  if (!settings.enabled)
    logger.warn(
      'authentication is off (METADATA_SERVICE_AUTH_ENABLED=false): every caller acts as the system client',
    );
  const tokens = new TokenService(settings);
  const actors = new StoreActorDirectory(store, CACHE_TTL_MS);
  const accessTokens = new StoreAccessTokenRegistry(store, submitter, CACHE_TTL_MS);
  const chain = new AuthenticationChain({
    settings,
    tokens,
    actors,
    accessTokens,
    serviceAccounts: new ServiceAccountProvisionerStore(store, submitter, logger),
    logger,
  });
  const authorizer = new PolicyEngine({
    policies: new StorePolicySource(store),
    actors,
    resources: new StoreResourceResolver(store),
    refreshIntervalMs: settings.policyCacheRefreshSeconds * 1000,
    logger,
  });
  return {
    settings,
    tokens,
    chain,
    authorizer,
    actors,
    accessTokens,
    events: new LogPlatformEventPublisher(deps.log, deps.platformEventTopic, logger),
    loginThrottle: new LoginThrottle(),
  };
}
