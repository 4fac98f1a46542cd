import {
  encodeFailedMcp,
  encodeMcl,
  SchemaIds,
  type EventDecoder,
  type EventLog,
  type Consumer,
  type RecordBatch,
  type RecordPosition,
  type TopicNames,
} from '@catalog/events';
import type { StructuredPropertySettings } from '@catalog/model';
import type { AspectStore } from '@catalog/store';
import { CHANGE_LOG_HEADERS, type Logger, type OutcomeChannel } from '@catalog/runtime';
import { applyProposals, type OwnedChangeLog, type ProposalEffects } from './apply-proposals.js';
import { startStructuredPropertyCleanup } from './structured-property-cleanup.js';
import type { PropertyNameHolders } from './structured-property-rules.js';

export interface PersistenceDeps {
  readonly log: EventLog;
  readonly store: AspectStore;
  readonly outcomes: OutcomeChannel;
  readonly topics: TopicNames;
  readonly logger: Logger;
  readonly groupId: string;
  readonly maxBatchSize: number;
  /** Resolves writer schemas of producers that registered elsewhere; default: our fixed ids only. */
  readonly decoder?: EventDecoder;
  /** The structured-property write rules' settings (see config.ts); the ecosystem's defaults when absent. */
  readonly structuredProperties?: StructuredPropertySettings;
  /**
   * The search side's qualified-name holders (the SearchIndex): a new property may not take the name
   * of a hard-deleted one whose index mappings remain. Without it only stored definitions are checked.
   */
  readonly propertyNames?: PropertyNameHolders;
  /** The group of the hard-delete value removal (default: `<groupId>-structured-property-cleanup`). */
  readonly cleanupGroupId?: string;
}

export interface PersistenceService {
  readonly ready: Promise<void>;
  stop(): Promise<void>;
}

/**
 * The persistence consumer: proposals in, aspect versions in the store, change logs (or failed proposals)
 * out, outcomes to the waiting gateways; the batch is committed only after all of that is durable.
 * Beside it, in its own group, the value removal of structured properties' hard deletes (see
 * startStructuredPropertyCleanup), which needs the same store and log.
 */
export async function startPersistence(deps: PersistenceDeps): Promise<PersistenceService> {
  const { log, topics, logger } = deps;
  await log.ensureTopics([
    { name: topics.metadataChangeProposal },
    { name: topics.failedMetadataChangeProposal },
    { name: topics.metadataChangeLogVersioned },
    { name: topics.metadataChangeLogTimeseries, retentionMs: 90 * 24 * 60 * 60 * 1000 },
  ]);

  const consumer: Consumer = await log.consume({
    groupId: deps.groupId,
    topics: [topics.metadataChangeProposal],
    fromBeginning: true,
    maxBatchSize: deps.maxBatchSize,
    handler: (batch) => handleBatch(batch, deps),
    onError: (error, where) =>
      logger.error({ err: error, ...where }, 'proposal batch failed; it will be redelivered'),
  });
  const cleanup = await startStructuredPropertyCleanup({
    log,
    store: deps.store,
    topics,
    logger: logger.child({ worker: 'structured-property-cleanup' }),
    groupId: deps.cleanupGroupId ?? `${deps.groupId}-structured-property-cleanup`,
    ...(deps.decoder === undefined ? {} : { decoder: deps.decoder }),
  });
  return {
    ready: Promise.all([consumer.ready, cleanup.ready]).then(() => undefined),
    stop: async () => {
      await cleanup.stop();
      await consumer.stop();
    },
  };
}

async function handleBatch(batch: RecordBatch, deps: PersistenceDeps): Promise<void> {
  const first = batch.records[0];
  if (!first) return;
  const effects = await applyProposals(batch.records, deps.store, deps.decoder, {
    ...(deps.structuredProperties === undefined ? {} : { structuredProperties: deps.structuredProperties }),
    ...(deps.propertyNames === undefined ? {} : { propertyNames: deps.propertyNames }),
    logger: deps.logger,
  });
  const positions = await emit(effects, deps);
  await deps.outcomes.publish(
    effects.outcomes.map((o) => {
      const changeLogs = positions.get(o.requestId);
      return changeLogs ? { ...o, changeLogs } : o;
    }),
  );
  if (effects.failed.length > 0) {
    deps.logger.warn(
      {
        topic: batch.topic,
        partition: batch.partition,
        offset: first.offset,
        failed: effects.failed.map((f) => f.error),
      },
      'proposals rejected',
    );
  }
  deps.logger.debug(
    { topic: batch.topic, partition: batch.partition, offset: first.offset, count: batch.records.length },
    'proposal batch applied',
  );
}

/** Makes the batch's change logs and failures durable; returns the change-log positions per request id. */
async function emit(effects: ProposalEffects, deps: PersistenceDeps): Promise<Map<string, RecordPosition[]>> {
  const { log, topics } = deps;
  const positions = new Map<string, RecordPosition[]>();
  const produceOwned = async (
    topic: string,
    owned: readonly OwnedChangeLog[],
    schemaId: number,
  ): Promise<void> => {
    if (owned.length === 0) return;
    const placed = await log.produce(
      topic,
      owned.map(({ mcl, requestId, userAgent }) => ({
        key: mcl.entityUrn ?? '',
        value: encodeMcl(mcl, schemaId),
        headers: {
          [CHANGE_LOG_HEADERS.requestId]: requestId,
          ...(userAgent ? { [CHANGE_LOG_HEADERS.userAgent]: userAgent } : {}),
        },
      })),
    );
    placed.forEach((position, i) => {
      const requestId = owned[i]!.requestId;
      positions.set(requestId, [...(positions.get(requestId) ?? []), position]);
    });
  };
  await Promise.all([
    produceOwned(topics.metadataChangeLogVersioned, effects.versioned, SchemaIds.metadataChangeLog),
    produceOwned(
      topics.metadataChangeLogTimeseries,
      effects.timeseries,
      SchemaIds.metadataChangeLogTimeseries,
    ),
    effects.failed.length > 0
      ? log.produce(
          topics.failedMetadataChangeProposal,
          effects.failed.map((f) => ({
            key: f.key,
            value: encodeFailedMcp({ metadataChangeProposal: f.mcp, error: f.error }),
          })),
        )
      : Promise.resolve(),
  ]);
  return positions;
}
