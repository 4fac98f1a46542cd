import {
  DEFAULT_MAX_MESSAGE_BYTES,
  encodeFailedMcp,
  encodeMcl,
  recordBytes,
  type ProduceRecord,
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
import {
  CHANGE_LOG_HEADERS,
  childLogger,
  cleanupGroupOf,
  FailurePolicy,
  PROPOSAL_HEADERS,
  type ConsumerFailureState,
  type Logger,
  type OutcomeChannel,
} from '@catalog/runtime';
import { proposalDeadLetters } from './proposal-dead-letters.js';
import { applyProposals, type OwnedChangeLog, type ProposalEffects } from './apply-proposals.js';
import { requestIdOf } from './proposal-record.js';
import { RETENTION_ENTITY, type RetentionPolicies } from './retention-policies.js';
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
  /** How long a read may wait for a fuller batch (ConsumeOptions.batchWaitMs). Default 0. */
  readonly batchWaitMs?: number;
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
  /** Deliveries of a proposal failing for an unknown reason before it is dead-lettered (default 5). */
  readonly maxAttempts?: number;
  /** The log's message-size limit (MAX_MESSAGE_BYTES; default 5 MiB), see changeLogRecord. */
  readonly maxMessageBytes?: number;
  /**
   * The retention policies applied to aspect histories (see retention-policies.ts); every version is
   * kept without them (ENTITY_SERVICE_ENABLE_RETENTION=false).
   */
  readonly retention?: RetentionPolicies | undefined;
}

export interface PersistenceService {
  readonly ready: Promise<void>;
  /** The proposal consumer's failure state (retrying a dependency, dead letters so far). */
  failures(): ConsumerFailureState;
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

  // A proposal that can never be applied becomes a FailedMetadataChangeProposal, with its outcome.
  const policy = new FailurePolicy({
    groupId: deps.groupId,
    logger,
    deadLetters: proposalDeadLetters({
      log,
      topic: topics.failedMetadataChangeProposal,
      outcomes: deps.outcomes,
      ...(deps.decoder === undefined ? {} : { decoder: deps.decoder }),
    }),
    ...(deps.maxAttempts === undefined ? {} : { maxAttempts: deps.maxAttempts }),
  });
  const consumer: Consumer = await log.consume({
    groupId: deps.groupId,
    topics: [topics.metadataChangeProposal],
    fromBeginning: true,
    maxBatchSize: deps.maxBatchSize,
    ...(deps.batchWaitMs ? { batchWaitMs: deps.batchWaitMs } : {}),
    handler: policy.wrap((batch) => handleBatch(batch, deps)),
    onError: (error, where) =>
      logger.error({ err: error, ...where }, 'proposal batch failed; it will be redelivered'),
  });
  const cleanup = await startStructuredPropertyCleanup({
    log,
    store: deps.store,
    topics,
    logger: childLogger(logger, { worker: 'structured-property-cleanup' }),
    groupId: deps.cleanupGroupId ?? cleanupGroupOf(deps.groupId),
    ...(deps.maxAttempts === undefined ? {} : { maxAttempts: deps.maxAttempts }),
    ...(deps.decoder === undefined ? {} : { decoder: deps.decoder }),
  });
  return {
    ready: Promise.all([consumer.ready, cleanup.ready]).then(() => undefined),
    failures: () => policy.state,
    stop: async () => {
      await cleanup.stop();
      await consumer.stop();
    },
  };
}

async function handleBatch(batch: RecordBatch, deps: PersistenceDeps): Promise<void> {
  const first = batch.records[0];
  if (!first) return;
  const retention = await deps.retention?.resolver(deps.store);
  const effects = await applyProposals(batch.records, deps.store, deps.decoder, {
    ...(deps.structuredProperties === undefined ? {} : { structuredProperties: deps.structuredProperties }),
    ...(deps.propertyNames === undefined ? {} : { propertyNames: deps.propertyNames }),
    ...(retention === undefined ? {} : { retention }),
    logger: deps.logger,
  });
  // A batch that changed a policy: the next one reads them again.
  if (effects.versioned.some((c) => c.mcl.entityType === RETENTION_ENTITY)) deps.retention?.invalidate();
  // The proposals' headers by request id: who waits for each outcome, which HTTP request sent each.
  const sent = new Map(batch.records.map((r) => [requestIdOf(r), r.headers]));
  const positions = await emit(effects, deps);
  await deps.outcomes.publish(
    effects.outcomes.map((o) => {
      const changeLogs = positions.get(o.requestId);
      const replyTo = sent.get(o.requestId)?.[PROPOSAL_HEADERS.replyTo];
      return { ...o, ...(changeLogs ? { changeLogs } : {}), ...(replyTo ? { replyTo } : {}) };
    }),
  );
  const debug = deps.logger.isLevelEnabled('debug');
  for (const outcome of effects.outcomes) {
    if (outcome.ok && !debug) continue;
    const httpRequestId = sent.get(outcome.requestId)?.[PROPOSAL_HEADERS.httpRequestId];
    const line = {
      topic: batch.topic,
      partition: batch.partition,
      requestId: outcome.requestId,
      ...(httpRequestId ? { httpRequestId } : {}),
      urn: outcome.urn,
      aspectName: outcome.aspectName,
      status: outcome.status,
    };
    if (outcome.ok) deps.logger.debug(line, 'proposal applied');
    else deps.logger.warn({ ...line, code: outcome.code, reason: outcome.message }, 'proposal rejected');
  }
  deps.logger.debug(
    { topic: batch.topic, partition: batch.partition, offset: first.offset, count: batch.records.length },
    'proposal batch applied',
  );
}

/**
 * A change log as a record. The gateway refuses writes whose change log could not fit in the log, but a
 * patch can grow a value past that, or the limit can have been lowered since the previous value was
 * written: then the previous value and system metadata are left out (consumers here read the store, not
 * the previous value) rather than making a record the log refuses. What still does not fit is refused by
 * the log, and the proposal is dead-lettered.
 */
function changeLogRecord(
  { mcl, requestId, userAgent, httpRequestId }: OwnedChangeLog,
  schemaId: number,
  deps: PersistenceDeps,
): ProduceRecord {
  const headers = {
    [CHANGE_LOG_HEADERS.requestId]: requestId,
    ...(userAgent ? { [CHANGE_LOG_HEADERS.userAgent]: userAgent } : {}),
    ...(httpRequestId ? { [CHANGE_LOG_HEADERS.httpRequestId]: httpRequestId } : {}),
  };
  const key = mcl.entityUrn ?? '';
  const record = { key, value: encodeMcl(mcl, schemaId), headers };
  const limit = deps.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  if (recordBytes(record) <= limit || mcl.previousAspectValue === undefined) return record;
  const { previousAspectValue: _value, previousSystemMetadata: _metadata, ...without } = mcl;
  deps.logger.warn(
    { urn: key, aspect: mcl.aspectName, requestId, bytes: recordBytes(record), limit },
    'change log left out the previous value: with it the record exceeds the message-size limit',
  );
  return { key, value: encodeMcl(without, schemaId), headers };
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
      owned.map((o) => changeLogRecord(o, schemaId, deps)),
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
