import {
  decodeMcl,
  type Consumer,
  type EventLog,
  type LogRecord,
  type MetadataChangeLog,
  type TopicNames,
} from '@catalog/events';
import {
  type GraphIndex,
  type ProjectionWriter,
  type SearchIndex,
  type TimeseriesIndex,
} from '@catalog/search';
import type { AspectStore } from '@catalog/store';
import type { StructuredPropertySettings } from '@catalog/model';
import {
  CHANGE_LOG_HEADERS,
  deadLetterTopicOf,
  FailurePolicy,
  recordDeadLetters,
  type ConsumerFailureState,
  type Logger,
} from '@catalog/runtime';
import { ensureReadModels, EntityProjector, type EntityChange } from '@catalog/projection';
import { indexTimeseriesChangeLogs } from './index-timeseries.js';

export interface IndexerDeps {
  readonly log: EventLog;
  readonly store: AspectStore;
  readonly search: SearchIndex;
  readonly graph: GraphIndex;
  readonly timeseries: TimeseriesIndex;
  /** The search and graph indices' writer of a whole batch, where their engine has one. */
  readonly projection?: ProjectionWriter;
  readonly topics: TopicNames;
  readonly logger: Logger;
  readonly groupId: string;
  readonly maxBatchSize: number;
  /** How long a read may wait for a fuller batch (ConsumeOptions.batchWaitMs). Default 0. */
  readonly batchWaitMs?: number;
  /** The oversize rule of structured property values (defaults: the ecosystem's). */
  readonly structuredProperties?: StructuredPropertySettings;
  /** Deliveries of a record failing for an unknown reason before it is dead-lettered (default 5). */
  readonly maxAttempts?: number;
}

export interface IndexerService {
  readonly ready: Promise<void>;
  /** The consumer's failure state (retrying a dependency, dead letters so far). */
  failures(): ConsumerFailureState;
  stop(): Promise<void>;
}

/**
 * The indexer consumer: versioned change logs rebuild the touched entities' documents and edges from the
 * store (a structured property's definition also updates the definitions view and rebuilds the
 * documents holding its values: see EntityProjector); time-series change logs become time-series
 * documents, or delete them (a DELETE, with its range). Commits after the index writes return.
 */
export async function startIndexer(deps: IndexerDeps): Promise<IndexerService> {
  const { log, topics, logger } = deps;
  await ensureReadModels(deps);
  await log.ensureTopics([
    { name: topics.metadataChangeLogVersioned },
    { name: topics.metadataChangeLogTimeseries },
    { name: deadLetterTopicOf(deps.groupId) },
  ]);
  const projector = new EntityProjector(deps.store, deps.search, deps.graph, {
    logger,
    ...(deps.projection ? { writer: deps.projection } : {}),
    ...(deps.structuredProperties ? { structuredProperties: deps.structuredProperties } : {}),
  });

  const policy = new FailurePolicy({
    groupId: deps.groupId,
    logger,
    deadLetters: recordDeadLetters(log, deps.groupId),
    ...(deps.maxAttempts === undefined ? {} : { maxAttempts: deps.maxAttempts }),
  });
  const consumer: Consumer = await log.consume({
    groupId: deps.groupId,
    topics: [topics.metadataChangeLogVersioned, topics.metadataChangeLogTimeseries],
    fromBeginning: true,
    maxBatchSize: deps.maxBatchSize,
    ...(deps.batchWaitMs ? { batchWaitMs: deps.batchWaitMs } : {}),
    // An undecodable change log, or one the search engine refuses, goes to the group's dead letters.
    handler: policy.wrap(async (batch) => {
      const changeLogs = batch.records.map((record) => decodeMcl(record.value));
      if (batch.topic === topics.metadataChangeLogTimeseries) {
        await indexTimeseriesChangeLogs(changeLogs, deps.timeseries, logger);
      } else {
        await projector.project(changeLogs.flatMap(changeOf));
      }
      logIndexed(batch.records, logger);
    }),
    onError: (error, where) =>
      logger.error({ err: error, ...where }, 'index batch failed; it will be redelivered'),
  });
  return { ready: consumer.ready, failures: () => policy.state, stop: () => consumer.stop() };
}

/** The ids of the proposal and of the HTTP request behind a change log, from its headers. */
function requestIdsOf(record: LogRecord): { requestId?: string; httpRequestId?: string } {
  const requestId = record.headers[CHANGE_LOG_HEADERS.requestId];
  const httpRequestId = record.headers[CHANGE_LOG_HEADERS.httpRequestId];
  return { ...(requestId ? { requestId } : {}), ...(httpRequestId ? { httpRequestId } : {}) };
}

/** One debug line per change log indexed, naming the write it came from. */
function logIndexed(records: readonly LogRecord[], logger: Logger): void {
  if (!logger.isLevelEnabled('debug')) return;
  for (const record of records) {
    logger.debug(
      {
        topic: record.topic,
        partition: record.partition,
        offset: record.offset,
        urn: record.key,
        ...requestIdsOf(record),
      },
      'change log indexed',
    );
  }
}

function changeOf(mcl: MetadataChangeLog): EntityChange[] {
  if (!mcl.entityUrn) return [];
  // A restated entity (restore indices) re-derives everything; otherwise only the aspect that changed.
  if (mcl.changeType === 'RESTATE' || !mcl.aspectName) return [{ urn: mcl.entityUrn }];
  return [{ urn: mcl.entityUrn, aspects: new Set([mcl.aspectName]) }];
}
