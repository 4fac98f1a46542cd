import type { Client } from '@opensearch-project/opensearch';
import type { AutocompleteRequest, BrowseRequest, EntityIndexSpec, SearchRequest } from '../port.js';
import { resolveStructuredProperties, type StructuredResolution } from '../resolve-structured-properties.js';
import type { IndexSpecLookup } from '../validate-search-request.js';
import type { EntitySpecs, ResolvedSpec } from './entity-specs.js';
import { pathsOf, resolveSpec } from './entity-specs.js';
import type { OpenSearchStructuredProperties } from './structured-property-definitions.js';
import type { FieldPaths } from './field-paths.js';
import type { PathsLookup } from './filter-query.js';
import { asArray, asObject, type JsonObject } from './narrow.js';

export interface ReadContext {
  readonly client: Client;
  readonly specs: EntitySpecs;
  readonly definitions: OpenSearchStructuredProperties;
}

/**
 * The specs of the entity types a request names, loaded (from memory or the index) before validation;
 * `extend` adds fields a request resolved apart from the stored spec (structured properties).
 */
export async function loadSpecs(
  specs: EntitySpecs,
  entityTypes: readonly string[],
  extend?: (spec: EntityIndexSpec) => EntityIndexSpec,
): Promise<{ readonly lookup: IndexSpecLookup; readonly resolved: ReadonlyMap<string, ResolvedSpec> }> {
  const resolved = new Map<string, ResolvedSpec>();
  for (const entityType of new Set(entityTypes)) {
    if (typeof entityType !== 'string') continue;
    const spec = await specs.get(entityType);
    if (spec === null) continue;
    resolved.set(
      entityType,
      extend === undefined ? spec : resolveSpec(extend(spec.spec), spec.alias, spec.sortAliases),
    );
  }
  const lookup = (entityType: string): EntityIndexSpec | undefined => resolved.get(entityType)?.spec;
  return { lookup, resolved };
}

/** A request with its structured property names resolved against the definitions view. */
export function resolveStructured<R extends SearchRequest | BrowseRequest | AutocompleteRequest>(
  context: ReadContext,
  request: R,
): Promise<StructuredResolution<R>> {
  return resolveStructuredProperties(request, (names) => context.definitions.byNormalizedName(names));
}

/**
 * Field paths across the indices queried: the variant of each index that declares the field (indices
 * may map one name differently); a field no index declares resolves to its dynamic mapping.
 */
export function pathsAcross(specs: readonly ResolvedSpec[]): PathsLookup {
  return (field: string): readonly FieldPaths[] => {
    const variants = new Map<string, FieldPaths>();
    for (const spec of specs) {
      if (!spec.paths.has(field)) continue;
      const paths = pathsOf(spec, field);
      variants.set(JSON.stringify(paths), paths);
    }
    if (variants.size === 0 && specs[0] !== undefined) return [pathsOf(specs[0], field)];
    return [...variants.values()];
  };
}

/** A search response's hits, checked: shard failures are errors, not silently partial results. */
export function hitsOf(body: unknown): { readonly hits: JsonObject; readonly list: readonly JsonObject[] } {
  const response = asObject(body, 'search response');
  const shards = response['_shards'];
  if (shards !== undefined) {
    const failed = asObject(shards, '_shards')['failed'];
    if (typeof failed === 'number' && failed > 0) {
      throw new Error(
        `OpenSearch search failed on ${failed} shard(s): ${JSON.stringify(asObject(shards, '_shards')['failures'])}`,
      );
    }
  }
  const hits = asObject(response['hits'], 'hits');
  return { hits, list: asArray(hits['hits'], 'hits.hits').map((hit) => asObject(hit, 'hit')) };
}

export function aggregationsOf(body: unknown): JsonObject {
  const aggregations = asObject(body, 'search response')['aggregations'];
  return aggregations === undefined ? {} : asObject(aggregations, 'aggregations');
}

/** The buckets of a terms-like aggregation. */
export function bucketsOf(aggregation: unknown, what: string): readonly JsonObject[] {
  return asArray(asObject(aggregation, what)['buckets'], `${what}.buckets`).map((b) =>
    asObject(b, `${what} bucket`),
  );
}

/** A bucket key as a string: `key_as_string` for booleans and dates, else the key itself. */
export function bucketKey(bucket: JsonObject): string {
  const asString = bucket['key_as_string'];
  if (typeof asString === 'string') return asString;
  return String(bucket['key']);
}
