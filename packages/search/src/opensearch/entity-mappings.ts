import type { Types } from '@opensearch-project/opensearch';
import { KEYWORD_MAX_LENGTH } from '@catalog/model';
import { URN_FIELD } from '../document-fields.js';
import type { EntityIndexSpec, FieldMapping } from '../port.js';
import { MAX_KEYWORD_LENGTH } from '../sort-values.js';
import { STRUCTURED_PROPERTIES_PREFIX } from '../structured-property-fields.js';
import { fieldPaths, META_FIELD, SUBFIELD, textSubfield } from './field-paths.js';

type Property = Types.Common_Mapping.Property;
type TypeMapping = Types.Common_Mapping.TypeMapping;

export const WORD_ANALYZER = 'catalog_word';
export const URN_WORD_ANALYZER = 'catalog_urn_word';
export const PARTIAL_ANALYZER = 'catalog_partial';
export const PATH_ANALYZER = 'catalog_path';
export const LOWERCASE_NORMALIZER = 'catalog_lowercase';
/** Longest keyword value indexed (32766 bytes is Lucene's term limit; 4 bytes per char at worst). */
const KEYWORD_LIMIT = MAX_KEYWORD_LENGTH;

export interface IndexShape {
  readonly shards: number;
  readonly replicas: number;
}

/**
 * Analysis shared by every entity index, matching the embedded adapter's word rules (text-tokens.ts):
 * words are runs of letters and digits, lowercased; URN text drops its `urn:li:<type>:` prefixes.
 * Partial words are edge n-grams of those words, searched with the plain word analyzer.
 */
export function entityIndexSettings(shape: IndexShape): Types.Indices_Common.IndexSettings {
  return {
    number_of_shards: shape.shards,
    number_of_replicas: shape.replicas,
    analysis: {
      char_filter: {
        catalog_urn_prefix: { type: 'pattern_replace', pattern: 'urn:li:[A-Za-z0-9_]+:', replacement: ' ' },
      },
      tokenizer: {
        catalog_words: { type: 'pattern', pattern: '[^\\p{L}\\p{N}]+' },
        catalog_path: { type: 'path_hierarchy', delimiter: '/' },
      },
      filter: {
        catalog_edge_ngram: { type: 'edge_ngram', min_gram: 1, max_gram: 20 },
        // Lucene refuses a term over 32766 bytes, and with it the whole document: one 'word' of a
        // long description (a base64 blob) would keep its entity out of search. 8000 characters are
        // at most 32000 bytes; a longer word still matches on its first 8000 characters.
        catalog_truncate: { type: 'truncate', length: 8000 },
      },
      analyzer: {
        [WORD_ANALYZER]: {
          type: 'custom',
          tokenizer: 'catalog_words',
          filter: ['catalog_truncate', 'lowercase'],
        },
        [URN_WORD_ANALYZER]: {
          type: 'custom',
          char_filter: ['catalog_urn_prefix'],
          tokenizer: 'catalog_words',
          filter: ['catalog_truncate', 'lowercase'],
        },
        [PARTIAL_ANALYZER]: {
          type: 'custom',
          tokenizer: 'catalog_words',
          filter: ['lowercase', 'catalog_edge_ngram'],
        },
        [PATH_ANALYZER]: { type: 'custom', tokenizer: 'catalog_path', filter: ['catalog_truncate'] },
      },
      normalizer: {
        [LOWERCASE_NORMALIZER]: { type: 'custom', filter: ['lowercase'] },
      },
    },
    // The generated client types demand every optional tokenizer knob; the server does not.
  } as unknown as Types.Indices_Common.IndexSettings;
}

/**
 * The mappings of one entity index: every declared field, the adapter's own fields, the spec in _meta,
 * and the structured property fields of the definitions view (see structuredFieldMappings).
 */
export function entityIndexMappings(
  spec: EntityIndexSpec,
  structuredFields: readonly FieldMapping[] = [],
): TypeMapping {
  const properties: Record<string, Property> = structuredFieldMappings(structuredFields);
  const browse: Record<string, Property> = {};
  for (const field of spec.fields) {
    // Aliases index nothing: the query side resolves them to their target's paths.
    if (field.aliasOf !== undefined) continue;
    setPath(properties, field.name, fieldProperty(field));
    if (field.type === 'BROWSE_PATH') {
      const keyword: Property = { type: 'keyword', ignore_above: KEYWORD_LIMIT };
      setPath(browse, field.name, { type: 'object', properties: { parent: keyword, ancestors: keyword } });
    }
  }
  properties[META_FIELD] = {
    type: 'object',
    properties: {
      urn: { type: 'keyword' },
      entityType: { type: 'keyword' },
      browse: { type: 'object', properties: browse },
      sort: { type: 'object', properties: sortAliases(spec) },
    },
  };
  return {
    dynamic: true,
    // Fields the spec does not declare are still filterable: strings as keywords, not as analyzed text.
    dynamic_templates: [
      {
        catalog_strings: {
          match_mapping_type: 'string',
          mapping: {
            type: 'keyword',
            ignore_above: KEYWORD_LIMIT,
            fields: { [SUBFIELD.folded]: folded() },
          },
        },
      },
    ],
    _meta: { catalog: { spec: specForMeta(spec) } },
    properties,
  };
}

/**
 * The `structuredProperties` object of an entity index: `dynamic: false`, so that a value without an
 * explicit mapping is kept in the source but never mapped by guess (a first value `60` would make a
 * long, `"60"` a keyword), with the given fields typed. Their keyword forms hold values up to Lucene's
 * 32766-byte term limit (the indexer never sends longer ones), so long values filter as on SQLite.
 */
export function structuredFieldMappings(fields: readonly FieldMapping[]): Record<string, Property> {
  const inner: Record<string, Property> = {};
  for (const field of fields) {
    if (!field.name.startsWith(STRUCTURED_PROPERTIES_PREFIX)) continue;
    setPath(
      inner,
      field.name.slice(STRUCTURED_PROPERTIES_PREFIX.length),
      fieldProperty(field, KEYWORD_MAX_LENGTH),
    );
  }
  return {
    [STRUCTURED_PROPERTIES_PREFIX.slice(0, -1)]: { type: 'object', dynamic: false, properties: inner },
  };
}

function fieldProperty(field: FieldMapping, keywordLimit: number = KEYWORD_LIMIT): Property {
  const paths = fieldPaths(field);
  const partial: Record<string, Property> = paths.partial
    ? { [SUBFIELD.partial]: { type: 'text', analyzer: PARTIAL_ANALYZER, search_analyzer: WORD_ANALYZER } }
    : {};
  switch (field.type) {
    case 'TEXT':
    case 'TEXT_PARTIAL':
    case 'WORD_GRAM':
      return {
        type: 'text',
        analyzer: WORD_ANALYZER,
        fields: {
          [SUBFIELD.keyword]: { type: 'keyword', ignore_above: keywordLimit },
          [SUBFIELD.folded]: folded(keywordLimit),
          ...partial,
        },
      };
    case 'KEYWORD':
    case 'URN':
    case 'URN_PARTIAL':
    case 'OBJECT': {
      // The entity's own urn is a urn whatever type a spec declares it with.
      const urnWords = field.type === 'URN' || field.type === 'URN_PARTIAL' || field.name === URN_FIELD;
      return {
        type: 'keyword',
        ignore_above: keywordLimit,
        fields: {
          [SUBFIELD.folded]: folded(keywordLimit),
          [textSubfield(field.name)]: {
            type: 'text',
            analyzer: urnWords ? URN_WORD_ANALYZER : WORD_ANALYZER,
          },
          ...partial,
        },
      };
    }
    case 'BROWSE_PATH':
      return {
        type: 'keyword',
        ignore_above: keywordLimit,
        fields: {
          [SUBFIELD.folded]: folded(keywordLimit),
          [SUBFIELD.hierarchy]: { type: 'text', analyzer: PATH_ANALYZER, search_analyzer: 'keyword' },
          ...partial,
        },
      };
    case 'BOOLEAN':
      return { type: 'boolean' };
    case 'COUNT':
      return { type: 'long' };
    case 'DOUBLE':
      return { type: 'double' };
    case 'DATETIME':
      return { type: 'date', format: 'epoch_millis||strict_date_optional_time' };
  }
}

/** `@catalog.sort.<name>` → the sort path of the field (of an alias: of its target); see SORT_PATH. */
function sortAliases(spec: EntityIndexSpec): Record<string, Property> {
  const byName = new Map(spec.fields.map((field) => [field.name, field]));
  const aliases: Record<string, Property> = {};
  for (const field of spec.fields) {
    const target = field.aliasOf === undefined ? field : byName.get(field.aliasOf);
    if (target === undefined || target.aliasOf !== undefined) continue;
    setPath(aliases, field.name, { type: 'alias', path: fieldPaths(target).exact });
  }
  return aliases;
}

function folded(keywordLimit: number = KEYWORD_LIMIT): Property {
  return { type: 'keyword', ignore_above: keywordLimit, normalizer: LOWERCASE_NORMALIZER };
}

/** Dotted field names become object paths, as OpenSearch itself reads them. */
function setPath(properties: Record<string, Property>, name: string, property: Property): void {
  const [head, ...rest] = name.split('.');
  if (head === undefined) return;
  if (rest.length === 0) {
    properties[head] = property;
    return;
  }
  const existing = properties[head];
  const inner: Record<string, Property> =
    existing !== undefined && existing.type === 'object' && existing.properties ? existing.properties : {};
  properties[head] = { type: 'object', properties: inner };
  setPath(inner, rest.join('.'), property);
}

/** The spec as stored in the mapping's _meta, so a process that never ensured the index can read it. */
function specForMeta(spec: EntityIndexSpec): Record<string, unknown> {
  return {
    entityType: spec.entityType,
    fields: spec.fields.map((field) => ({ ...field })),
  };
}
