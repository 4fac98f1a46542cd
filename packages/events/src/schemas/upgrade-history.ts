import { MXE_NAMESPACE, systemMetadataType } from './common-types.js';
import { optionalField, SchemaDocument, type AvroSchemaJson } from './schema-builder.js';

function upgradeHistoryRecord(doc: SchemaDocument): AvroSchemaJson {
  return {
    type: 'record',
    name: 'DataHubUpgradeHistoryEvent',
    namespace: MXE_NAMESPACE,
    doc: 'Kafka event for recording a historical version upgrade.',
    fields: [
      { name: 'version', type: 'string', doc: 'Version of the build' },
      optionalField('systemMetadata', doc.use(systemMetadataType)),
    ],
  };
}

export const dataHubUpgradeHistorySchema: AvroSchemaJson = upgradeHistoryRecord(new SchemaDocument());
