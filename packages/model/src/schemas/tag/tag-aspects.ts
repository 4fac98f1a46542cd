import { aspect, opt, record, req, type AspectDefinition } from '../avro-schema.js';

/** Aspects of the `com.linkedin.tag` namespace. */
export const TAG_ASPECTS: readonly AspectDefinition[] = [
  aspect({
    name: 'tagProperties',
    schema: record('com.linkedin.tag.TagProperties', [
      req('name', 'string'),
      opt('description', 'string'),
      opt('colorHex', 'string'),
    ]),
    searchable: [
      {
        fieldName: 'name',
        path: 'name',
        type: 'WORD_GRAM',
        boost: 10,
        enableAutocomplete: true,
        fieldNameAliases: ['_entityName'],
      },
      { fieldName: 'description', path: 'description', type: 'TEXT', hasValuesFieldName: 'hasDescription' },
    ],
  }),
];
