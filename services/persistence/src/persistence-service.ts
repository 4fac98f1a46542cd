import {
  encodeFailedMcp,
  encodeMcl,
  SchemaIds,
  type EventLog,
  type Consumer,
  type RecordBatch,
  type TopicNames,
} from '@catalog/events';
import type { AspectStore } from '@catalog/store';
import type { Logger, OutcomeChannel } from '@catalog/runtime';
import { applyProposals, type ProposalEffects } from './apply-proposals.js';

export interface PersistenceDeps {
  readonly log: EventLog;
  readonly store: AspectStore;
  readonly outcomes: OutcomeChannel;
  readonly topics: TopicNames;
  readonly logger: Logger;
  readonly groupId: string;
  readonly maxBatchSize: number;
}

export interface PersistenceService {
  readonly ready: Promise<void>;
  stop(): Promise<void>;
}

/**
 * The persistence consumer: proposals in, aspect versions in the store, change logs (or failed proposals)
 * out, outcomes to the waiting gateways; the batch is committed only after all of that is durable.
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
  return { ready: consumer.ready, stop: () => consumer.stop() };
}

async function handleBatch(batch: RecordBatch, deps: PersistenceDeps): Promise<void> {
  const first = batch.records[0];
  if (!first) return;
  const effects = await applyProposals(batch.records, deps.store);
  await emit(effects, deps);
  await deps.outcomes.publish(effects.outcomes);
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

async function emit(effects: ProposalEffects, deps: PersistenceDeps): Promise<void> {
  const { log, topics } = deps;
  const produced: Promise<unknown>[] = [];
  if (effects.versioned.length > 0) {
    produced.push(
      log.produce(
        topics.metadataChangeLogVersioned,
        effects.versioned.map((mcl) => ({
          key: mcl.entityUrn ?? '',
          value: encodeMcl(mcl, SchemaIds.metadataChangeLog),
        })),
      ),
    );
  }
  if (effects.timeseries.length > 0) {
    produced.push(
      log.produce(
        topics.metadataChangeLogTimeseries,
        effects.timeseries.map((mcl) => ({
          key: mcl.entityUrn ?? '',
          value: encodeMcl(mcl, SchemaIds.metadataChangeLogTimeseries),
        })),
      ),
    );
  }
  if (effects.failed.length > 0) {
    produced.push(
      log.produce(
        topics.failedMetadataChangeProposal,
        effects.failed.map((f) => ({
          key: f.key,
          value: encodeFailedMcp({ metadataChangeProposal: f.mcp, error: f.error }),
        })),
      ),
    );
  }
  await Promise.all(produced);
}
