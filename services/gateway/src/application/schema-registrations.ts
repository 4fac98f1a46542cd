import { randomUUID } from 'node:crypto';
import {
  InMemorySchemaRegistrations,
  LogSchemaRegistrations,
  type EventLog,
  type SchemaRegistrations,
  type TopicNames,
} from '@catalog/events';
import type { Logger } from '@catalog/runtime';

/** Where the schema registry keeps the schemas of other producers. */
export interface SchemaRegistrationsOptions {
  readonly topics: TopicNames;
  /** Default: the event log when given, else this process's memory. */
  readonly registrations?: SchemaRegistrations;
  /** With no `registrations`: keep them in this log's `topics.schemaRegistry` topic, opened on first use. */
  readonly log?: EventLog;
  readonly logger?: Logger;
}

/** Opens the registrations on first use, so an app that never sees a registry request starts no consumer. */
export function openSchemaRegistrations(
  options: SchemaRegistrationsOptions,
  unavailable: (message: string) => Error,
): () => Promise<SchemaRegistrations> {
  let opened: Promise<SchemaRegistrations> | undefined;
  return () => {
    if (options.registrations) return Promise.resolve(options.registrations);
    const { log } = options;
    if (!log) {
      opened ??= Promise.resolve(new InMemorySchemaRegistrations());
      return opened;
    }
    if (!opened) {
      opened = LogSchemaRegistrations.open({
        log,
        topic: options.topics.schemaRegistry,
        groupId: `schema-registry-${randomUUID()}`,
        ...(options.logger ? { logger: options.logger } : {}),
      });
      opened.catch(() => (opened = undefined));
    }
    return opened.catch((error: unknown) => {
      throw unavailable((error as Error).message);
    });
  };
}
