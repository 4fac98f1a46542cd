import { openEmbeddedEventLog, type EventLog } from '@catalog/events';
import { openSqliteAspectStore, type AspectStore } from '@catalog/store';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { GraphIndex, SearchIndex, TimeseriesIndex } from '@catalog/search';
import type { Logger } from 'pino';
import type { AdapterSettings } from './adapter-settings.js';

/** Opens the event log the settings select: Kafka when KAFKA_BOOTSTRAP_SERVER is set, else embedded. */
export async function openEventLog(settings: AdapterSettings, logger: Logger): Promise<EventLog> {
  if (settings.kafka) {
    // Loaded only when selected, so the embedded mode never loads kafkajs.
    const { openKafkaEventLog } = await import('@catalog/events/kafka');
    return openKafkaEventLog({ ...settings.kafka, logger: logger.child({ component: 'event-log' }) });
  }
  mkdirSync(settings.dataDir, { recursive: true });
  return openEmbeddedEventLog({
    directory: settings.dataDir,
    durability: settings.durability,
    logger: logger.child({ component: 'event-log' }),
  });
}

/**
 * Opens the aspect store the settings select: MongoDB (or a MongoDB-wire server) when MONGODB_URI is
 * set, on the URI's database (else `catalog`); else embedded.
 */
export async function openAspectStore(settings: AdapterSettings, logger: Logger): Promise<AspectStore> {
  if (settings.mongodb) {
    // Loaded only when selected, so the embedded setup never loads the MongoDB driver.
    const { openMongoAspectStore } = await import('@catalog/store/mongodb');
    return openMongoAspectStore({
      uri: settings.mongodb.uri,
      logger: logger.child({ component: 'aspect-store' }),
    });
  }
  mkdirSync(settings.dataDir, { recursive: true });
  return openSqliteAspectStore({
    file: join(settings.dataDir, 'aspects.sqlite'),
    durability: settings.durability,
  });
}

/** The three read models the indexer writes and the gateway reads. */
export interface SearchAdapters {
  readonly search: SearchIndex;
  readonly graph: GraphIndex;
  readonly timeseries: TimeseriesIndex;
  close(): Promise<void>;
}

/** Opens the search, graph and time-series indices: OpenSearch when OPENSEARCH_URL is set, else embedded. */
export async function openSearchAdapters(settings: AdapterSettings, logger: Logger): Promise<SearchAdapters> {
  if (settings.opensearch) {
    const { openOpenSearch } = await import('@catalog/search');
    return openOpenSearch({
      node: settings.opensearch.url,
      ...(settings.opensearch.username ? { username: settings.opensearch.username } : {}),
      ...(settings.opensearch.password ? { password: settings.opensearch.password } : {}),
      indexPrefix: settings.indexPrefix,
      refresh: settings.opensearch.refresh,
      logger: logger.child({ component: 'opensearch' }),
    });
  }
  mkdirSync(settings.dataDir, { recursive: true });
  const { openEmbeddedSearch } = await import('@catalog/search');
  return openEmbeddedSearch({
    file: join(settings.dataDir, 'search.sqlite'),
    durability: settings.durability,
  });
}
