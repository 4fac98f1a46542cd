import {
  decodeMcl,
  type Consumer,
  type EventLog,
  type LogRecord,
  type MetadataChangeLog,
  type TopicNames,
} from '@catalog/events';
import { type GraphIndex, type SearchIndex, type TimeseriesIndex } from '@catalog/search';
import type { AspectStore } from '@catalog/store';
import type { StructuredPropertySettings } from '@catalog/model';
import type { Logger } from '@catalog/runtime';
import { ensureReadModels, EntityProjector, type EntityChange } from '@catalog/projection';
import { indexTimeseriesChangeLogs } from './index-timeseries.js';

export interface IndexerDeps {
  readonly log: EventLog;
  readonly store: AspectStore;
  readonly search: SearchIndex;
  readonly graph: GraphIndex;
  readonly timeseries: TimeseriesIndex;
  readonly topics: TopicNames;
  readonly logger: Logger;
  readonly groupId: string;
  readonly maxBatchSize: number;
  /** The oversize rule of structured property values (defaults: the ecosystem's). */
  readonly structuredProperties?: StructuredPropertySettings;
}

export interface IndexerService {
  readonly ready: Promise<void>;
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
  ]);
  const projector = new EntityProjector(deps.store, deps.search, deps.graph, {
    logger,
    ...(deps.structuredProperties ? { structuredProperties: deps.structuredProperties } : {}),
  });

  const consumer: Consumer = await log.consume({
    groupId: deps.groupId,
    topics: [topics.metadataChangeLogVersioned, topics.metadataChangeLogTimeseries],
    fromBeginning: true,
    maxBatchSize: deps.maxBatchSize,
    handler: async (batch) => {
      const changeLogs = decodeAll(batch.records, logger);
      if (batch.topic === topics.metadataChangeLogTimeseries) {
        await indexTimeseriesChangeLogs(changeLogs, deps.timeseries, logger);
      } else {
        await projector.project(changeLogs.flatMap(changeOf));
      }
    },
    onError: (error, where) =>
      logger.error({ err: error, ...where }, 'index batch failed; it will be redelivered'),
  });
  return { ready: consumer.ready, stop: () => consumer.stop() };
}

function changeOf(mcl: MetadataChangeLog): EntityChange[] {
  if (!mcl.entityUrn) return [];
  // A restated entity (restore indices) re-derives everything; otherwise only the aspect that changed.
  if (mcl.changeType === 'RESTATE' || !mcl.aspectName) return [{ urn: mcl.entityUrn }];
  return [{ urn: mcl.entityUrn, aspects: new Set([mcl.aspectName]) }];
}

/** A change log that cannot be decoded is reported with its position; it cannot be indexed or repaired here. */
function decodeAll(records: readonly LogRecord[], logger: Logger): MetadataChangeLog[] {
  const out: MetadataChangeLog[] = [];
  for (const record of records) {
    try {
      out.push(decodeMcl(record.value));
    } catch (error) {
      logger.error(
        {
          err: error,
          topic: record.topic,
          partition: record.partition,
          offset: record.offset,
          key: record.key,
        },
        'undecodable change log skipped',
      );
    }
  }
  return out;
}
