import {
  arrayOf,
  aspect,
  CUSTOM_PROPERTIES,
  opt,
  record,
  req,
  URN,
  type AspectDefinition,
} from '../avro-schema.js';

/** Aspects of the `com.linkedin.glossary` namespace. */
export const GLOSSARY_ASPECTS: readonly AspectDefinition[] = [
  aspect({
    name: 'glossaryTermInfo',
    schema: record('com.linkedin.glossary.GlossaryTermInfo', [
      CUSTOM_PROPERTIES,
      opt('id', 'string'),
      opt('name', 'string'),
      req('definition', 'string'),
      opt('parentNode', URN),
      req('termSource', 'string'),
      opt('sourceRef', 'string'),
      opt('sourceUrl', 'string'),
      opt('rawSchema', 'string'),
    ]),
    searchable: [
      { fieldName: 'customProperties', path: 'customProperties', type: 'TEXT', queryByDefault: true },
      {
        fieldName: 'name',
        path: 'name',
        type: 'WORD_GRAM',
        boost: 10,
        enableAutocomplete: true,
        fieldNameAliases: ['_entityName'],
      },
      { fieldName: 'definition', path: 'definition', type: 'TEXT' },
      {
        fieldName: 'parentNode',
        path: 'parentNode',
        type: 'URN',
        addToFilters: true,
        filterName: 'Parent Glossary Node',
      },
      { fieldName: 'termSource', path: 'termSource', type: 'KEYWORD', queryByDefault: false },
      { fieldName: 'sourceRef', path: 'sourceRef', type: 'KEYWORD', queryByDefault: false },
    ],
    relationships: [{ name: 'IsPartOf', path: 'parentNode', entityTypes: ['glossaryNode'] }],
  }),
  aspect({
    name: 'glossaryNodeInfo',
    schema: record('com.linkedin.glossary.GlossaryNodeInfo', [
      CUSTOM_PROPERTIES,
      req('definition', 'string'),
      opt('parentNode', URN),
      opt('name', 'string'),
      opt('id', 'string'),
    ]),
    searchable: [
      {
        fieldName: 'displayName',
        path: 'name',
        type: 'WORD_GRAM',
        boost: 10,
        enableAutocomplete: true,
        fieldNameAliases: ['_entityName'],
      },
      { fieldName: 'definition', path: 'definition', type: 'TEXT' },
    ],
    relationships: [{ name: 'IsPartOf', path: 'parentNode', entityTypes: ['glossaryNode'] }],
  }),
  aspect({
    name: 'glossaryRelatedTerms',
    schema: record('com.linkedin.glossary.GlossaryRelatedTerms', [
      opt('isRelatedTerms', arrayOf(URN)),
      opt('hasRelatedTerms', arrayOf(URN)),
      opt('values', arrayOf(URN)),
      opt('relatedTerms', arrayOf(URN)),
    ]),
    searchable: [
      { fieldName: 'isRelatedTerms', path: 'isRelatedTerms', type: 'URN', queryByDefault: false },
      { fieldName: 'hasRelatedTerms', path: 'hasRelatedTerms', type: 'URN', queryByDefault: false },
      { fieldName: 'values', path: 'values', type: 'URN', queryByDefault: false },
      { fieldName: 'relatedTerms', path: 'relatedTerms', type: 'URN', queryByDefault: false },
    ],
    relationships: [
      { name: 'IsA', path: 'isRelatedTerms', entityTypes: ['glossaryTerm'] },
      { name: 'HasA', path: 'hasRelatedTerms', entityTypes: ['glossaryTerm'] },
      { name: 'HasValue', path: 'values', entityTypes: ['glossaryTerm'] },
      { name: 'IsRelatedTo', path: 'relatedTerms', entityTypes: ['glossaryTerm'] },
    ],
  }),
];
