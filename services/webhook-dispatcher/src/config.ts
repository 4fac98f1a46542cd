import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { readAuthSettings, type AuthSettings } from '@catalog/auth';
import {
  EnvReader,
  readAdapterSettings,
  readHealthPort,
  readLogLevel,
  type AdapterSettings,
} from '@catalog/runtime';
import { readWebhookDispatcherSection, type WebhookDispatcherSection } from '@catalog/webhooks';

export interface WebhookDispatcherConfig extends WebhookDispatcherSection {
  readonly logLevel: string;
  readonly adapters: AdapterSettings;
  /** HEALTH_PORT: where it serves /health/live and /health/ready; 0 serves none. */
  readonly healthPort: number;
  /** The authorization and secret-encryption settings, as the gateway reads them (SECRET_SERVICE_ENCRYPTION_KEY, …). */
  readonly auth: AuthSettings;
  /** SYNC_INGEST_TIMEOUT_MS: how long a delivery-state write waits for persistence. */
  readonly syncTimeoutMs: number;
  /** Names this process's outcome listener (WEBHOOK_DISPATCHER_INSTANCE_ID; random per start by default). */
  readonly instanceId: string;
}

/**
 * The distributed dispatcher's configuration: the adapters, the auth settings (to decrypt the signing
 * keys and decide what each creator may read) and the WEBHOOK_* delivery settings. Loopback and private
 * destinations are refused unless WEBHOOK_ALLOW_PRIVATE_DESTINATIONS=true. Throws a ConfigError naming
 * every bad variable.
 */
export function readWebhookDispatcherConfig(
  source: Readonly<Record<string, string | undefined>>,
): Readonly<WebhookDispatcherConfig> {
  const env = new EnvReader(source);
  const adapters = readAdapterSettings(env);
  const config: WebhookDispatcherConfig = {
    ...readWebhookDispatcherSection(env, adapters.topics, false),
    logLevel: readLogLevel(env),
    adapters,
    healthPort: readHealthPort(env),
    auth: readAuthSettings(env),
    syncTimeoutMs: env.int('SYNC_INGEST_TIMEOUT_MS', 30_000, { min: 100 }),
    instanceId: env.string(
      'WEBHOOK_DISPATCHER_INSTANCE_ID',
      `webhook-dispatcher-${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`,
    ),
  };
  env.finish();
  return Object.freeze(config);
}
