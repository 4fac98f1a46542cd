import type { AuthSettings } from '@catalog/auth';
import type { Consumer, EventLog } from '@catalog/events';
import {
  childLogger,
  deadLetterTopicOf,
  type AdapterSettings,
  type Logger,
  type OutcomeChannel,
  type SearchAdapters,
  type ThreadMemory,
} from '@catalog/runtime';
import type { AuditIndex } from '@catalog/search';
import type { AspectStore } from '@catalog/store';
import { randomUUID } from 'node:crypto';
import type { Express } from 'express';
import { createGatewayApp, type GatewaySettings } from './app.js';
import { startAuthCacheInvalidation } from './auth/auth-cache-invalidation.js';
import { createGatewayAuth } from './auth/create-gateway-auth.js';
import type { GatewayAuth } from './auth/gateway-auth.js';
import { NativeUserService } from './application/native-user-service.js';
import type { CatalogApplication } from './application/catalog-application.js';
import type { WebhookSource } from '@catalog/webhooks';
import { ProposalSubmitter } from './ingest/proposal-submitter.js';
import { IndexWaiter } from './ingest/index-waiter.js';
import { deadLetteredChangeLog, FailedWriteLog, refusedProposal } from './ingest/failed-write-log.js';
import type { ConsumerGroups } from './application/consumer-lag.js';
import { ChangeEventFeed } from './application/change-event-stream.js';

export interface GatewayParts {
  readonly adapters: AdapterSettings;
  readonly log: EventLog;
  readonly store: AspectStore;
  readonly readModels: SearchAdapters;
  /** The audit events the audit search endpoint reads (opened with `openAuditIndex`; the caller closes it). */
  readonly audit: AuditIndex;
  readonly outcomes: OutcomeChannel;
  readonly logger: Logger;
  readonly settings: GatewaySettings;
  readonly auth: AuthSettings;
  readonly syncTimeoutMs: number;
  readonly groups: ConsumerGroups;
  /** Unique per process: names this instance's own consumer groups. */
  readonly instanceId: string;
  /** The process's other JavaScript threads' memory, for the memory report (the all-in-one catalog's). */
  readonly threads?: () => Promise<readonly ThreadMemory[]>;
}

export interface ComposedGateway {
  readonly app: Express;
  readonly auth: GatewayAuth;
  /** The catalog's webhook subscriptions, as the webhook dispatcher reads and writes them. */
  readonly webhookSource: WebhookSource;
  /**
   * Ends the open event streams (live subscriptions) and stops their feed: what runs before HTTP closes,
   * which otherwise waits for those streams to end.
   */
  closeStreams(): Promise<void>;
  /** Stops what the gateway started besides HTTP (its cache-invalidation consumer). */
  close(): Promise<void>;
}

/**
 * Assembles the gateway from opened adapters (shared by the gateway's main and the all-in-one catalog):
 * authentication over the store and a consumer that keeps the auth caches true to the change log (the
 * root user, roles and default policies are system-update's bootstrap).
 */
export async function composeGateway(parts: GatewayParts): Promise<ComposedGateway> {
  const { readModels } = parts;
  const submitter = new ProposalSubmitter({
    log: parts.log,
    topic: parts.adapters.topics.metadataChangeProposal,
    outcomes: parts.outcomes,
    syncTimeoutMs: parts.syncTimeoutMs,
    newRequestId: randomUUID,
    maxMessageBytes: parts.adapters.maxMessageBytes,
  });
  const indexWaiter = new IndexWaiter({
    log: parts.log,
    indexerGroup: parts.groups.indexer,
    refresh: async () => {
      await Promise.all([
        readModels.search.refresh(),
        readModels.graph.refresh(),
        readModels.timeseries.refresh(),
      ]);
    },
    pollMs: parts.adapters.kafka ? 50 : 5,
  });
  const auth = createGatewayAuth({
    settings: parts.auth,
    store: parts.store,
    log: parts.log,
    platformEventTopic: parts.adapters.topics.platformEvent,
    submitter,
    logger: parts.logger,
  });
  // The usage-event topic exists before the first event, as the ecosystem's set-up creates it: a
  // consumer subscribed to it early would otherwise not see it for minutes (its metadata refresh).
  await parts.log.ensureTopics([
    { name: parts.adapters.topics.platformEvent },
    { name: parts.adapters.topics.dataHubUsageEvent },
  ]);
  const nativeUsers = new NativeUserService({
    store: parts.store,
    submitter,
    auth,
    logger: childLogger(parts.logger, { module: 'native-users' }),
  });
  let invalidation: Consumer | undefined;
  if (parts.auth.enabled) {
    invalidation = await startAuthCacheInvalidation({
      log: parts.log,
      topic: parts.adapters.topics.metadataChangeLogVersioned,
      groupId: `gateway-auth-cache-${parts.instanceId}`,
      auth,
      logger: parts.logger,
    });
  }
  // Every gateway reads every refused proposal and every change log the indexer gave up on, for the
  // write trace.
  const failedWrites = await FailedWriteLog.start({
    log: parts.log,
    topic: parts.adapters.topics.failedMetadataChangeProposal,
    decode: refusedProposal,
    groupId: `gateway-failed-proposals-${parts.instanceId}`,
    logger: parts.logger,
  });
  const failedIndexing = await FailedWriteLog.start({
    log: parts.log,
    topic: deadLetterTopicOf(parts.groups.indexer),
    decode: deadLetteredChangeLog,
    groupId: `gateway-indexer-dead-letters-${parts.instanceId}`,
    logger: parts.logger,
  });
  let application: CatalogApplication | undefined;
  // Live subscriptions' tail of PlatformEvent_v1: started by the first subscriber, ended before HTTP closes.
  const changeFeed = new ChangeEventFeed({
    log: parts.log,
    topic: parts.adapters.topics.platformEvent,
    groupId: `gateway-change-stream-${parts.instanceId}`,
    logger: childLogger(parts.logger, { module: 'change-stream' }),
  });
  const app = createGatewayApp({
    changeFeed,
    store: parts.store,
    log: parts.log,
    topics: parts.adapters.topics,
    groups: parts.groups,
    readModels,
    audit: parts.audit,
    transport: parts.adapters.kafka ? 'kafka' : 'embedded',
    submitter,
    indexWaiter,
    failedWrites,
    failedIndexing,
    logger: parts.logger,
    settings: parts.settings,
    auth,
    nativeUsers,
    ...(parts.threads ? { threads: parts.threads } : {}),
    onApplication: (built) => {
      application = built;
    },
  });
  if (application === undefined) throw new Error('the gateway app was built without its application');
  return {
    app,
    auth,
    webhookSource: application.webhookDeliveries,
    closeStreams: () => changeFeed.close(),
    close: async () => {
      await changeFeed.close();
      await invalidation?.stop();
      await failedWrites.stop();
      await failedIndexing.stop();
    },
  };
}
