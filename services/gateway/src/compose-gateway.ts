import type { EventLog } from '@catalog/events';
import type { AdapterSettings, Logger, OutcomeChannel, SearchAdapters } from '@catalog/runtime';
import type { AspectStore } from '@catalog/store';
import { randomUUID } from 'node:crypto';
import type { Express } from 'express';
import { createGatewayApp, type GatewaySettings } from './app.js';
import { ProposalSubmitter } from './ingest/proposal-submitter.js';
import { IndexWaiter } from './operations/index-waiter.js';

export interface GatewayParts {
  readonly adapters: AdapterSettings;
  readonly log: EventLog;
  readonly store: AspectStore;
  readonly readModels: SearchAdapters;
  readonly outcomes: OutcomeChannel;
  readonly logger: Logger;
  readonly settings: GatewaySettings;
  readonly syncTimeoutMs: number;
  readonly groups: { readonly persistence: string; readonly indexer: string };
}

/** Assembles the gateway app from opened adapters: shared by the gateway's main and the all-in-one catalog. */
export function composeGateway(parts: GatewayParts): Express {
  const { readModels } = parts;
  const submitter = new ProposalSubmitter({
    log: parts.log,
    topic: parts.adapters.topics.metadataChangeProposal,
    outcomes: parts.outcomes,
    syncTimeoutMs: parts.syncTimeoutMs,
    newRequestId: randomUUID,
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
  return createGatewayApp({
    store: parts.store,
    log: parts.log,
    topics: parts.adapters.topics,
    groups: parts.groups,
    readModels,
    transport: parts.adapters.kafka ? 'kafka' : 'embedded',
    submitter,
    indexWaiter,
    logger: parts.logger,
    settings: parts.settings,
  });
}
