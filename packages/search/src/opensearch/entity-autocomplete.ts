import type { Types } from '@opensearch-project/opensearch';
import { REMOVED_FIELD } from '../document-fields.js';
import type { AutocompleteRequest, AutocompleteResponse } from '../port.js';
import { termsMatchText, tokenize } from '../text-tokens.js';
import { validateAutocompleteRequest } from '../validate-search-request.js';
import { pathsOf } from './entity-specs.js';
import { META_FIELD, URN_PATH, type FieldPaths } from './field-paths.js';
import { filterQuery, MATCH_ALL, type Query } from './filter-query.js';
import { asObject, asString } from './narrow.js';
import {
  aggregationsOf,
  bucketKey,
  bucketsOf,
  hitsOf,
  loadSpecs,
  pathsAcross,
  resolveStructured,
  type ReadContext,
} from './read-context.js';

/** Edge n-grams are indexed up to this length (entity-mappings.ts); longer words use a prefix query. */
const MAX_GRAM = 20;

/**
 * Suggestions: distinct values of the autocomplete fields with a word starting with each query word.
 * Per field, a filter aggregation keeps the documents whose field matches and a terms aggregation on
 * the exact values lists candidates (a multi-valued field also brings its other values, so each
 * candidate is checked against the words); entities are the best-scoring matching documents.
 */
export async function runAutocomplete(
  context: ReadContext,
  request: AutocompleteRequest,
): Promise<AutocompleteResponse> {
  const resolution = await resolveStructured(context, request);
  const { lookup, resolved } = await loadSpecs(
    context.specs,
    [request.entityType],
    resolution.fields.length > 0 ? resolution.extend : undefined,
  );
  const checked = validateAutocompleteRequest(lookup, resolution.request);
  const spec = resolved.get(checked.spec.entityType);
  if (spec === undefined) throw new Error(`no index for ${checked.spec.entityType}`);
  const words = tokenize(request.query);
  const fields = checked.fields.map((name) => pathsOf(spec, name)).filter((f) => f.kind === 'string');
  if (fields.length === 0 || request.limit === 0) return { suggestions: [], entities: [] };
  const perField = fields.map((field) => allWordsIn(field, words));
  const filter = filterQuery(checked.filter, pathsAcross([spec]));
  const candidates = request.limit * 3 + 10;
  const aggregations: Record<string, Types.Common_Aggregations.AggregationContainer> = {};
  fields.forEach((field, i) => {
    aggregations[`field_${i}`] = {
      filter: perField[i] ?? MATCH_ALL,
      aggregations: { values: valuesAggregation(field.exact, candidates) },
    } as Types.Common_Aggregations.AggregationContainer;
  });
  const response = await context.client.search({
    index: spec.alias,
    body: {
      query: {
        bool: {
          must: [{ dis_max: { queries: perField } }],
          ...(filter ? { filter: [filter] } : {}),
          must_not: [{ term: { [REMOVED_FIELD]: { value: true } } }],
        },
      },
      size: request.limit,
      sort: [{ _score: { order: 'desc' } }, { [URN_PATH]: { order: 'asc' } }],
      _source: { includes: [`${META_FIELD}.urn`] },
      aggregations,
    },
  });
  const suggestions: string[] = [];
  const found = aggregationsOf(response.body);
  fields.forEach((field, i) => {
    const values = asObject(found[`field_${i}`], `field_${i}`)['values'];
    for (const bucket of bucketsOf(values, `suggestions of ${field.name}`)) {
      const value = bucketKey(bucket);
      if (!suggestions.includes(value) && termsMatchText(words, value)) suggestions.push(value);
    }
  });
  const entities = hitsOf(response.body).list.map((hit) =>
    asString(asObject(asObject(hit['_source'], '_source')[META_FIELD], META_FIELD)['urn'], 'urn of a hit'),
  );
  return { suggestions: suggestions.slice(0, request.limit), entities };
}

/** Every word as a word prefix in this one field. */
function allWordsIn(field: FieldPaths, words: readonly string[]): Query {
  if (words.length === 0) return { exists: { field: field.exact } };
  return {
    bool: {
      must: words.map((word): Query =>
        field.partial !== undefined && [...word].length <= MAX_GRAM
          ? { term: { [field.partial]: word } }
          : { prefix: { [field.text ?? field.exact]: word } },
      ),
    },
  };
}

function valuesAggregation(field: string, size: number): Types.Common_Aggregations.AggregationContainer {
  // The generated type of `terms` omits `field`, which the server requires.
  return { terms: { field, size } } as Types.Common_Aggregations.AggregationContainer;
}
