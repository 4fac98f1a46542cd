export type {
  ConsumeOptions,
  Consumer,
  EventLog,
  LogRecord,
  PartitionLag,
  PartitionOffsets,
  ProduceRecord,
  ReadOptions,
  RecordBatch,
  RecordHeaders,
  RecordPosition,
  TopicSpec,
} from './port.js';
export type { EventLogLogger } from './event-log-logger.js';
export { silentLogger } from './event-log-logger.js';
export { DEFAULT_MAX_MESSAGE_BYTES, RecordTooLargeError, recordBytes } from './record-checks.js';

export type {
  AuditStamp,
  ChangeType,
  DataHubUpgradeHistoryEvent,
  FailedMetadataChangeProposal,
  GenericAspect,
  GenericPayload,
  KafkaAuditHeader,
  MetadataChangeLog,
  MetadataChangeProposal,
  PlatformEvent,
  PlatformEventHeader,
  SystemMetadata,
} from './event-types.js';
export { changeTypes } from './event-types.js';
export {
  genericAspectFromJson,
  genericAspectToJson,
  JSON_CONTENT_TYPE,
  JSON_PATCH_CONTENT_TYPE,
} from './generic-aspect.js';

export type { EventSchema } from './schemas/event-schemas.js';
export { eventSchemaById, eventSchemas, SchemaIds } from './schemas/event-schemas.js';
export type { EventDecoder, EventKind, EventsByKind, SchemaResolver } from './serde.js';
export {
  createEventDecoder,
  decodeEvent,
  decodeFailedMcp,
  decodeMcl,
  decodeMcp,
  decodePlatformEvent,
  decodeUpgradeHistory,
  encodeFailedMcp,
  encodeMcl,
  eventAsAvroJson,
  encodeMcp,
  encodePlatformEvent,
  encodeUpgradeHistory,
  readSchemaId,
} from './serde.js';
export type { SerdeErrorReason } from './serde-error.js';
export { SerdeError } from './serde-error.js';

export { murmur2, partitionForKey, toPositive } from './partitioner.js';
export type { TopicNames } from './topic-names.js';
export { defaultTopicNames } from './topic-names.js';

export type { RegistryClientOptions } from './registry-client.js';
export { registrySchemaResolver, SchemaRegistryUnavailableError } from './registry-client.js';
export type { ParsedSchema } from './schema-registry/avro-schema-text.js';
export {
  canRead,
  derivedSchemaId,
  FIRST_REGISTERED_ID,
  parseAvroSchema,
} from './schema-registry/avro-schema-text.js';
export type { RegisteredSchema, SchemaRegistrations } from './schema-registry/schema-registrations.js';
export {
  InMemorySchemaRegistrations,
  SchemaIdCollisionError,
} from './schema-registry/schema-registrations.js';
export type { LogSchemaRegistrationsOptions } from './schema-registry/log-schema-registrations.js';
export { LogSchemaRegistrations } from './schema-registry/log-schema-registrations.js';
export {
  firstOf,
  fixedSchemaResolver,
  registeredSchemaResolver,
} from './schema-registry/schema-resolvers.js';

export type { EmbeddedEventLogOptions, TopicRetention } from './embedded/embedded-event-log.js';
export { EmbeddedEventLog, openEmbeddedEventLog } from './embedded/embedded-event-log.js';
export type { Durability } from './embedded/log-database.js';
