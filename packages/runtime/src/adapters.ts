import { openEmbeddedEventLog, type EventLog } from '@catalog/events';
import { openSqliteAspectStore, type AspectStore } from '@catalog/store';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { AdapterSettings } from './adapter-settings.js';
import { ConfigError } from './env-reader.js';

/** Opens the event log the settings select: Kafka when KAFKA_BOOTSTRAP_SERVER is set, else embedded. */
export async function openEventLog(settings: AdapterSettings, logger: Logger): Promise<EventLog> {
  if (settings.kafka) {
    throw new ConfigError(['KAFKA_BOOTSTRAP_SERVER is set, but this build has no Kafka adapter yet']);
  }
  mkdirSync(settings.dataDir, { recursive: true });
  return openEmbeddedEventLog({
    directory: settings.dataDir,
    durability: settings.durability,
    logger: logger.child({ component: 'event-log' }),
  });
}

/** Opens the aspect store the settings select: MongoDB when MONGODB_URI is set, else embedded. */
export async function openAspectStore(settings: AdapterSettings, _logger: Logger): Promise<AspectStore> {
  if (settings.mongodb) {
    throw new ConfigError(['MONGODB_URI is set, but this build has no MongoDB adapter yet']);
  }
  mkdirSync(settings.dataDir, { recursive: true });
  return openSqliteAspectStore({
    file: join(settings.dataDir, 'aspects.sqlite'),
    durability: settings.durability,
  });
}
