import { randomBytes } from 'node:crypto';
import {
  defaultConsumerGroup,
  EnvReader,
  readAdapterSettings,
  readLogLevel,
  type AdapterSettings,
} from '@catalog/runtime';
import type { TopicNames } from '@catalog/events';
import { PINNED_SDK_VERSION } from '@catalog/model';
import { readAuthSettings, type AuthSettings } from '@catalog/auth';
import { isIP } from 'node:net';
import { hostname } from 'node:os';
import type { GatewaySettings, SubscriptionSettings } from './app.js';
import { DEFAULT_CHANGE_SUBSCRIPTION_LIMITS as SUBSCRIPTION_LIMITS } from './application/change-subscriptions.js';
import { DEFAULT_EVENT_STREAM_SETTINGS as EVENT_STREAMS } from './graphql/subscriptions/event-stream.js';
import { DEFAULT_GRAPHQL_LIMITS as GRAPHQL, type GraphQLLimits } from './graphql/bounds/graphql-limits.js';
import {
  DEFAULT_OPENLINEAGE_SETTINGS as OPENLINEAGE,
  FABRIC_TYPES,
  type FabricType,
  type OpenLineageSettings,
} from './application/openlineage/openlineage-settings.js';
import { DEFAULT_WEB_APP_DIR } from './web/web-app.js';

export interface GatewayConfig {
  readonly port: number;
  readonly host: string;
  readonly logLevel: string;
  readonly adapters: AdapterSettings;
  readonly http: GatewaySettings;
  readonly auth: AuthSettings;
  readonly syncTimeoutMs: number;
  /**
   * HTTP_REQUEST_TIMEOUT_MS: the most a client may take to send a whole request, headers and body
   * (Node's `requestTimeout`, 300 s by default, which lets a client that dribbles a body hold a
   * connection and its buffers for five minutes). The server answers 408 and closes the connection.
   */
  readonly requestTimeoutMs: number;
  /**
   * GATEWAY_INSTANCE_ID, unique among the gateways running at once: the `replyTo` of its synchronous
   * writes and the name of its ephemeral groups (outcomes, auth-cache invalidation). Default
   * `<host name>-<pid>-<6 random hex>`, unique even for several catalogs in one process; the
   * Kubernetes manifest sets the pod's name.
   */
  readonly instanceId: string;
  /** The consumer groups whose lag the operations endpoints report and writes may wait on. */
  readonly groups: { readonly persistence: string; readonly indexer: string; readonly audit: string };
}

export const SERVER_VERSION = 'v1.0.1';

/** HTTP_REQUEST_TIMEOUT_MS when unset: a 32 MiB body (MAX_REQUEST_BYTES) needs about 1.1 MB/s. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/** Reads the gateway's part of the environment (shared with the all-in-one catalog). */
export function readGatewaySection(
  env: EnvReader,
  topics: TopicNames,
): Omit<GatewayConfig, 'adapters' | 'logLevel'> {
  return {
    port: env.int('PORT', 8080, { min: 0, max: 65535 }),
    host: env.string('HOST', '0.0.0.0'),
    auth: readAuthSettings(env),
    syncTimeoutMs: env.int('SYNC_INGEST_TIMEOUT_MS', 30_000, { min: 100 }),
    requestTimeoutMs: env.int('HTTP_REQUEST_TIMEOUT_MS', DEFAULT_REQUEST_TIMEOUT_MS, { min: 100 }),
    // Random per start too: catalogs in one process (tests, embedders) must not share a listener group.
    instanceId: env.string(
      'GATEWAY_INSTANCE_ID',
      `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`,
    ),
    groups: {
      persistence: env.string('PERSISTENCE_GROUP_ID', defaultConsumerGroup('persistence', topics)),
      indexer: env.string('INDEXER_GROUP_ID', defaultConsumerGroup('indexer', topics)),
      audit: env.string('AUDIT_GROUP_ID', defaultConsumerGroup('audit', topics)),
    },
    http: {
      maxBodyBytes: env.int('MAX_REQUEST_BYTES', 32 * 1024 * 1024, { min: 1024 }),
      maxResponseBytes: env.int('MAX_RESPONSE_BYTES', 64 * 1024 * 1024, { min: 1024 }),
      asyncDefault: env.bool('ASYNC_INGEST_DEFAULT', false),
      maxBatchProposals: env.int('MAX_BATCH_PROPOSALS', 10_000, { min: 1 }),
      serverVersion: SERVER_VERSION,
      defaultCliVersion: defaultCliVersion(env),
      analyticsEnabled: env.bool('DATAHUB_ANALYTICS_ENABLED', true),
      indexWaitTimeoutMs: env.int('INDEX_WAIT_TIMEOUT_MS', 30_000, { min: 100 }),
      trustedProxies: trustedProxies(env),
      corsAllowedOrigins: corsAllowedOrigins(env),
      graphql: graphqlLimits(env),
      openLineage: openLineageSettings(env),
      mcp: {
        // The ecosystem MCP server's variable: edit tools are offered only when it is true.
        mutationToolsEnabled: env.bool('TOOLS_IS_MUTATION_ENABLED', false),
        resultMaxBytes: env.int('MCP_TOOL_RESULT_MAX_BYTES', 60_000, { min: 1024 }),
      },
      webhooks: {
        allowPrivate: env.bool('WEBHOOK_ALLOW_PRIVATE_DESTINATIONS', false),
        timeoutMs: env.int('WEBHOOK_TIMEOUT_MS', 10_000, { min: 100, max: 300_000 }),
      },
      webAppDir: env.string('WEB_APP_DIR', DEFAULT_WEB_APP_DIR),
      subscriptions: subscriptionSettings(env),
    },
  };
}

/**
 * UI_INGESTION_DEFAULT_CLI_VERSION (the ecosystem's name): the acryl-datahub release managed ingestion
 * runs when a recipe names none, as /config reports it; the pinned release by default. A release
 * (`1.7.0.17`, `0.15.0rc3`) or a 7-hex short commit, as the ecosystem's clients expect.
 */
function defaultCliVersion(env: EnvReader): string {
  const version = env.string('UI_INGESTION_DEFAULT_CLI_VERSION', PINNED_SDK_VERSION);
  if (!/^\d+(\.[0-9A-Za-z]+)+$/.test(version) && !/^[0-9a-f]{7}$/.test(version)) {
    env.invalid(
      'UI_INGESTION_DEFAULT_CLI_VERSION',
      `must be an acryl-datahub release like 1.7.0.17 or a 7-hex short commit, got "${version}"`,
    );
  }
  return version;
}

/** What one GraphQL request may cost and return (the README's table of limits). */
function graphqlLimits(env: EnvReader): GraphQLLimits {
  return {
    // The ecosystem's names for the first two; its cost counts no list sizes, so its default (2000) is not ours.
    maxCost: env.int('GRAPHQL_QUERY_COMPLEXITY_LIMIT', GRAPHQL.maxCost, { min: 1 }),
    maxDepth: env.int('GRAPHQL_QUERY_DEPTH_LIMIT', GRAPHQL.maxDepth, { min: 1 }),
    maxAliases: env.int('GRAPHQL_MAX_ALIASES', GRAPHQL.maxAliases, { min: 0 }),
    maxEntities: env.int('GRAPHQL_MAX_ENTITIES', GRAPHQL.maxEntities, { min: 1 }),
    maxResponseBytes: env.int('GRAPHQL_MAX_RESPONSE_BYTES', GRAPHQL.maxResponseBytes, { min: 1024 }),
    timeoutMs: env.int('GRAPHQL_TIMEOUT_MS', GRAPHQL.timeoutMs, { min: 100 }),
  };
}

/**
 * The OpenLineage receiver's DATAHUB_OPENLINEAGE_* settings (the ecosystem's names and defaults). An
 * environment is one of the fabric types, in any case; a partition pattern must compile.
 */
function openLineageSettings(env: EnvReader): OpenLineageSettings {
  const fabric = (name: string): FabricType | undefined => {
    const value = env.optionalString(name)?.toUpperCase();
    if (value === undefined || value === '') return undefined;
    if ((FABRIC_TYPES as readonly string[]).includes(value)) return value as FabricType;
    env.invalid(name, `must be one of ${FABRIC_TYPES.join(', ')}, got "${value}"`);
    return undefined;
  };
  const text = (name: string): string | undefined => {
    const value = env.optionalString(name)?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const pattern = text('DATAHUB_OPENLINEAGE_FILE_PARTITION_REGEXP_PATTERN');
  if (pattern !== undefined) {
    try {
      new RegExp(pattern);
    } catch (error) {
      env.invalid('DATAHUB_OPENLINEAGE_FILE_PARTITION_REGEXP_PATTERN', (error as Error).message);
    }
  }
  const optional = {
    env: fabric('DATAHUB_OPENLINEAGE_ENV'),
    orchestrator: text('DATAHUB_OPENLINEAGE_ORCHESTRATOR'),
    pipelineName: text('DATAHUB_OPENLINEAGE_PIPELINE_NAME'),
    platformInstance: text('DATAHUB_OPENLINEAGE_PLATFORM_INSTANCE'),
    commonDatasetEnv: fabric('DATAHUB_OPENLINEAGE_COMMON_DATASET_ENV'),
    commonDatasetPlatformInstance: text('DATAHUB_OPENLINEAGE_COMMON_DATASET_PLATFORM_INSTANCE'),
    platform: text('DATAHUB_OPENLINEAGE_PLATFORM'),
    filePartitionPattern: pattern,
  };
  return {
    ...Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined)),
    materializeDataset: env.bool('DATAHUB_OPENLINEAGE_MATERIALIZE_DATASET', OPENLINEAGE.materializeDataset),
    includeSchemaMetadata: env.bool(
      'DATAHUB_OPENLINEAGE_INCLUDE_SCHEMA_METADATA',
      OPENLINEAGE.includeSchemaMetadata,
    ),
    captureColumnLevelLineage: env.bool(
      'DATAHUB_OPENLINEAGE_CAPTURE_COLUMN_LEVEL_LINEAGE',
      OPENLINEAGE.captureColumnLevelLineage,
    ),
    usePatch: env.bool('DATAHUB_OPENLINEAGE_USE_PATCH', OPENLINEAGE.usePatch),
  };
}

/** Live subscriptions (GraphQL over Server-Sent Events): the README's table of limits. */
function subscriptionSettings(env: EnvReader): SubscriptionSettings {
  return {
    heartbeatMs: env.int('GRAPHQL_SUBSCRIPTION_HEARTBEAT_MS', EVENT_STREAMS.heartbeatMs, { min: 100 }),
    maxBufferedEvents: env.int('GRAPHQL_SUBSCRIPTION_BUFFER_EVENTS', SUBSCRIPTION_LIMITS.maxBufferedEvents, {
      min: 1,
    }),
    maxStreamsPerUser: env.int(
      'GRAPHQL_SUBSCRIPTION_MAX_STREAMS_PER_USER',
      SUBSCRIPTION_LIMITS.maxStreamsPerUser,
      { min: 1 },
    ),
  };
}

/** The names express's `trust proxy` knows for address ranges. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** TRUSTED_PROXIES: IP addresses, CIDRs (`10.0.0.0/8`) or loopback, linklocal, uniquelocal. */
function trustedProxies(env: EnvReader): readonly string[] {
  const entries = env.list('TRUSTED_PROXIES');
  for (const entry of entries) {
    const [address, bits, extra] = entry.split('/');
    const version = isIP(address ?? '');
    const maxBits = version === 6 ? 128 : 32;
    const bitsOk = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= maxBits);
    if (!PROXY_RANGE_NAMES.has(entry) && (version === 0 || !bitsOk || extra !== undefined)) {
      env.invalid(
        'TRUSTED_PROXIES',
        `must list IP addresses, CIDRs or loopback/linklocal/uniquelocal, got "${entry}"`,
      );
    }
  }
  return entries;
}

/**
 * CORS_ALLOWED_ORIGINS: comma-separated origins (`https://catalog-ui.example.com`, scheme, host and
 * port only). `*` is refused: an answer that carries credentials must name one origin, and echoing
 * whichever one asked would let every site read with the user's session.
 */
function corsAllowedOrigins(env: EnvReader): readonly string[] {
  const entries = env.list('CORS_ALLOWED_ORIGINS');
  for (const entry of entries) {
    if (!isOrigin(entry)) {
      env.invalid(
        'CORS_ALLOWED_ORIGINS',
        `must list origins like https://ui.example.com (scheme, host, optional port; no path or *), got "${entry}"`,
      );
    }
  }
  return entries;
}

function isOrigin(entry: string): boolean {
  try {
    const url = new URL(entry);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === entry;
  } catch {
    return false;
  }
}

/** Validates the environment once; throws a ConfigError naming every bad variable. */
export function readGatewayConfig(
  source: Readonly<Record<string, string | undefined>>,
): Readonly<GatewayConfig> {
  const env = new EnvReader(source);
  const adapters = readAdapterSettings(env);
  const config: GatewayConfig = {
    ...readGatewaySection(env, adapters.topics),
    logLevel: readLogLevel(env),
    adapters,
  };
  env.finish();
  return Object.freeze(config);
}
