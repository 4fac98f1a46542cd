import { optionalField, type NamedTypeDefinition } from './schema-builder.js';

/**
 * Named types shared by the event schemas. Field order, defaults and namespaces follow the ecosystem's
 * generated `com.linkedin.pegasus2avro.*` schemas: Avro binary has no field names, so order is the contract.
 */

export const MXE_NAMESPACE = 'com.linkedin.pegasus2avro.mxe';
const COMMON_NAMESPACE = 'com.linkedin.pegasus2avro.common';

/** The Java class annotation the ecosystem puts on Urn typerefs; Avro ignores it, registries keep it. */
const urnJavaClass = { class: 'com.linkedin.pegasus2avro.common.urn.Urn' };

export const kafkaAuditHeaderType: NamedTypeDefinition = {
  fullName: 'com.linkedin.events.KafkaAuditHeader',
  build: () => ({
    type: 'record',
    name: 'KafkaAuditHeader',
    namespace: 'com.linkedin.events',
    doc: 'This header records information about the context of an event as it is emitted into kafka.',
    fields: [
      { name: 'time', type: 'long', doc: 'The time at which the event was emitted into kafka.' },
      { name: 'server', type: 'string' },
      optionalField('instance', 'string'),
      { name: 'appName', type: 'string' },
      {
        name: 'messageId',
        type: { type: 'fixed', name: 'UUID', namespace: 'com.linkedin.events', size: 16 },
      },
      optionalField('auditVersion', 'int'),
      optionalField('fabricUrn', 'string'),
      optionalField('clusterConnectionString', 'string'),
    ],
  }),
};

export const genericAspectType: NamedTypeDefinition = {
  fullName: `${MXE_NAMESPACE}.GenericAspect`,
  build: () => ({
    type: 'record',
    name: 'GenericAspect',
    namespace: MXE_NAMESPACE,
    doc: 'Generic record structure for serializing an Aspect',
    fields: [
      { name: 'value', type: 'bytes', doc: 'The value of the aspect, serialized as bytes.' },
      { name: 'contentType', type: 'string', doc: 'The content type, e.g. application/json.' },
    ],
  }),
};

export const changeTypeType: NamedTypeDefinition = {
  fullName: 'com.linkedin.pegasus2avro.events.metadata.ChangeType',
  build: () => ({
    type: 'enum',
    name: 'ChangeType',
    namespace: 'com.linkedin.pegasus2avro.events.metadata',
    doc: 'Descriptor for a change action',
    symbols: ['UPSERT', 'CREATE', 'UPDATE', 'DELETE', 'PATCH', 'RESTATE', 'CREATE_ENTITY'],
  }),
};

export const auditStampType: NamedTypeDefinition = {
  fullName: `${COMMON_NAMESPACE}.AuditStamp`,
  build: () => ({
    type: 'record',
    name: 'AuditStamp',
    namespace: COMMON_NAMESPACE,
    doc: 'Data captured on a resource/association/sub-resource level giving insight into when that resource moved into a particular lifecycle stage, and who acted to move it.',
    fields: [
      { name: 'time', type: 'long' },
      { name: 'actor', type: 'string', java: urnJavaClass },
      optionalField('impersonator', 'string', { java: urnJavaClass }),
      optionalField('message', 'string'),
    ],
  }),
};

export const systemMetadataType: NamedTypeDefinition = {
  fullName: `${MXE_NAMESPACE}.SystemMetadata`,
  build: (doc) => ({
    type: 'record',
    name: 'SystemMetadata',
    namespace: MXE_NAMESPACE,
    doc: 'Metadata associated with each metadata change that is processed by the system',
    fields: [
      // Non-null first: a union default must match its first branch.
      { name: 'lastObserved', type: ['long', 'null'], default: 0 },
      { name: 'runId', type: ['string', 'null'], default: 'no-run-id-provided' },
      { name: 'lastRunId', type: ['string', 'null'], default: 'no-run-id-provided' },
      optionalField('pipelineName', 'string'),
      optionalField('registryName', 'string'),
      optionalField('registryVersion', 'string'),
      optionalField('properties', { type: 'map', values: 'string' }),
      optionalField('version', 'string'),
      optionalField('schemaVersion', 'long'),
      optionalField('aspectCreated', doc.use(auditStampType)),
      optionalField('aspectModified', doc.use(auditStampType)),
    ],
  }),
};

export const platformEventHeaderType: NamedTypeDefinition = {
  fullName: `${MXE_NAMESPACE}.PlatformEventHeader`,
  build: () => ({
    type: 'record',
    name: 'PlatformEventHeader',
    namespace: MXE_NAMESPACE,
    doc: 'A header included with each DataHub platform event.',
    fields: [{ name: 'timestampMillis', type: 'long' }],
  }),
};

export const genericPayloadType: NamedTypeDefinition = {
  fullName: `${MXE_NAMESPACE}.GenericPayload`,
  build: () => ({
    type: 'record',
    name: 'GenericPayload',
    namespace: MXE_NAMESPACE,
    doc: 'Generic payload record structure for serializing a Platform Event.',
    fields: [
      { name: 'value', type: 'bytes' },
      { name: 'contentType', type: 'string' },
    ],
  }),
};

export { urnJavaClass };
