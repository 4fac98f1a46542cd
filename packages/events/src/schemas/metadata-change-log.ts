import { auditStampType, genericAspectType, MXE_NAMESPACE, systemMetadataType } from './common-types.js';
import { metadataChangeProposalFields } from './metadata-change-proposal.js';
import { optionalField, SchemaDocument, type AvroSchemaJson } from './schema-builder.js';

function metadataChangeLogRecord(doc: SchemaDocument): AvroSchemaJson {
  // The MCP fields come first, in MCP order, then the fields only a change log carries.
  const fields = metadataChangeProposalFields(doc);
  return {
    type: 'record',
    name: 'MetadataChangeLog',
    namespace: MXE_NAMESPACE,
    doc: "Kafka event for capturing update made to an entity's metadata.",
    fields: [
      ...fields,
      optionalField('previousAspectValue', doc.use(genericAspectType), {
        doc: 'The previous value of the aspect that has changed.',
      }),
      optionalField('previousSystemMetadata', doc.use(systemMetadataType), {
        doc: 'The previous value of the system metadata field that has changed.',
      }),
      optionalField('created', doc.use(auditStampType), {
        doc: 'An audit stamp detailing who and when the aspect was changed by. Only present for versioned aspects.',
      }),
    ],
  };
}

/** One schema, two registry ids: 2 on the versioned topic, 3 on the time-series topic. */
export const metadataChangeLogSchema: AvroSchemaJson = metadataChangeLogRecord(new SchemaDocument());
