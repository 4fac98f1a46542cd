import { randomUUID } from 'node:crypto';
import {
  LogSchemaRegistrations,
  registeredSchemaResolver,
  registrySchemaResolver,
  type EventLog,
  type SchemaResolver,
} from '@catalog/events';
import { childLogger, type Logger } from './logger.js';
import type { AdapterSettings } from './adapter-settings.js';

export interface OpenedSchemaResolver {
  readonly resolver: SchemaResolver;
  close(): Promise<void>;
}

/**
 * Where decoders find the writer schema of a record id they do not know. With KAFKA_SCHEMAREGISTRY_URL,
 * producers took their ids from that registry, so only it can say what an id means. Otherwise the ids
 * come from our own registry (the gateway's /schema-registry/api): our fixed ids plus the schemas it
 * registered, read back from the event log.
 */
export async function openSchemaResolver(
  settings: AdapterSettings,
  log: EventLog,
  logger: Logger,
): Promise<OpenedSchemaResolver> {
  if (settings.schemaRegistryUrl) {
    return { resolver: registrySchemaResolver({ url: settings.schemaRegistryUrl }), close: async () => {} };
  }
  const registrations = await LogSchemaRegistrations.open({
    log,
    topic: settings.topics.schemaRegistry,
    groupId: `schema-registrations-${randomUUID()}`,
    logger: childLogger(logger, { module: 'schema-registrations' }),
  });
  return { resolver: registeredSchemaResolver(registrations), close: () => registrations.close() };
}
