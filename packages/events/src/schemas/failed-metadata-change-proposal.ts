import { kafkaAuditHeaderType, MXE_NAMESPACE } from './common-types.js';
import { metadataChangeProposalRecord } from './metadata-change-proposal.js';
import { optionalField, SchemaDocument, type AvroSchemaJson } from './schema-builder.js';

function failedMetadataChangeProposalRecord(doc: SchemaDocument): AvroSchemaJson {
  return {
    type: 'record',
    name: 'FailedMetadataChangeProposal',
    namespace: MXE_NAMESPACE,
    doc: 'Kafka event for capturing a failure to process a specific MetadataChangeProposal.',
    fields: [
      // Defined here first, so the nested proposal references KafkaAuditHeader by name.
      optionalField('auditHeader', doc.use(kafkaAuditHeaderType)),
      {
        name: 'metadataChangeProposal',
        type: metadataChangeProposalRecord(doc),
        doc: 'The event that failed to be processed.',
      },
      { name: 'error', type: 'string', doc: 'The error message or the stacktrace for the failure.' },
    ],
  };
}

export const failedMetadataChangeProposalSchema: AvroSchemaJson = failedMetadataChangeProposalRecord(
  new SchemaDocument(),
);
