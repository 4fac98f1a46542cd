import {
  changeTypeType,
  genericAspectType,
  kafkaAuditHeaderType,
  MXE_NAMESPACE,
  systemMetadataType,
  urnJavaClass,
} from './common-types.js';
import { optionalField, SchemaDocument, type AvroSchemaJson } from './schema-builder.js';

/** The proposal's fields in wire order; the change log starts with the same fields (it "includes" the MCP). */
export function metadataChangeProposalFields(doc: SchemaDocument): AvroSchemaJson[] {
  return [
    optionalField('auditHeader', doc.use(kafkaAuditHeaderType), {
      doc: 'Kafka audit header. Currently remains unused in the open source.',
    }),
    { name: 'entityType', type: 'string', doc: 'Type of the entity being written to' },
    optionalField('entityUrn', 'string', { java: urnJavaClass, doc: 'Urn of the entity being written' }),
    optionalField('entityKeyAspect', doc.use(genericAspectType), {
      doc: 'Key aspect of the entity being written',
    }),
    { name: 'changeType', type: doc.use(changeTypeType), doc: 'Type of change being proposed' },
    optionalField('aspectName', 'string', { doc: 'Aspect of the entity being written to' }),
    optionalField('aspect', doc.use(genericAspectType), { doc: 'The value of the new aspect.' }),
    optionalField('systemMetadata', doc.use(systemMetadataType), {
      doc: 'A string->string map of custom properties that one might want to attach to an event',
    }),
    optionalField(
      'headers',
      { type: 'map', values: 'string' },
      { doc: 'Headers - intended to mimic http headers' },
    ),
  ];
}

export function metadataChangeProposalRecord(doc: SchemaDocument): AvroSchemaJson {
  return {
    type: 'record',
    name: 'MetadataChangeProposal',
    namespace: MXE_NAMESPACE,
    doc: 'Kafka event for proposing a metadata change for an entity. A corresponding MetadataChangeLog is emitted when the change is accepted and committed, otherwise a FailedMetadataChangeProposal will be emitted instead.',
    fields: metadataChangeProposalFields(doc),
  };
}

export const metadataChangeProposalSchema: AvroSchemaJson = metadataChangeProposalRecord(
  new SchemaDocument(),
);
