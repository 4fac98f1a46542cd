import type {
  AccessTokenRegistry,
  ActorDirectory,
  AuthenticationChain,
  AuthSettings,
  Authorizer,
  RequestContext,
  TokenService,
} from '@catalog/auth';
import type { LoginThrottle } from './login-throttle.js';

/** A platform event the gateway publishes (logins, failed logins) for the audit consumer. */
export interface PlatformEventInput {
  /** The event type name, e.g. LogInEvent, FailedLogInEvent. */
  readonly name: string;
  readonly actorUrn: string;
  /** Extra fields of the event (loginSource, loginDenialReason, entityUrn …). */
  readonly fields?: Readonly<Record<string, string | number | boolean | undefined>>;
  /** Where the request came from: sourceIp, userAgent, eventSource, traceId are recorded. */
  readonly origin: RequestContext['origin'];
}

export interface PlatformEventPublisher {
  publish(event: PlatformEventInput): Promise<void>;
}

/** Everything about authentication and authorization the gateway's interfaces reach, built once per process. */
export interface GatewayAuth {
  readonly settings: AuthSettings;
  readonly tokens: TokenService;
  readonly chain: AuthenticationChain;
  readonly authorizer: Authorizer;
  readonly actors: ActorDirectory & { invalidate(actorUrn: string): void };
  readonly accessTokens: AccessTokenRegistry & { forget(tokenUrn: string): void };
  readonly events: PlatformEventPublisher;
  /** Failed password checks per user and address (one per process: both login routes share it). */
  readonly loginThrottle: LoginThrottle;
}
