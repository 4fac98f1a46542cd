import { genericPayloadType, MXE_NAMESPACE, platformEventHeaderType } from './common-types.js';
import { SchemaDocument, type AvroSchemaJson } from './schema-builder.js';

function platformEventRecord(doc: SchemaDocument): AvroSchemaJson {
  return {
    type: 'record',
    name: 'PlatformEvent',
    namespace: MXE_NAMESPACE,
    doc: 'A DataHub Platform Event.',
    fields: [
      {
        name: 'header',
        type: doc.use(platformEventHeaderType),
        doc: 'Header information stored with the event.',
      },
      { name: 'name', type: 'string', doc: "The name of the event, e.g. 'entityChangeEvent'." },
      { name: 'payload', type: doc.use(genericPayloadType), doc: 'The event payload.' },
    ],
  };
}

export const platformEventSchema: AvroSchemaJson = platformEventRecord(new SchemaDocument());
