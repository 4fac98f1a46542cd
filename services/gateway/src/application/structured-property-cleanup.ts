import {
  entityTypesWithStructuredProperties,
  STRUCTURED_PROPERTY_URNS_FIELD,
  type SearchIndex,
} from '@catalog/search';

/** One hard-deleted property's clean-up, as the operations endpoint reports it. */
export interface PropertyCleanupStatus {
  readonly urn: string;
  readonly qualifiedName: string;
  /** When its hard delete reached the search side (ms since the epoch). */
  readonly retiredAt: number;
  /**
   * Entities still holding values of it, as the search index lists them (every assignment of the
   * property, whatever its version, is listed in the document's `structuredPropertyUrns`): as current
   * as the indexer. The system-update job checks the store itself before it frees a name.
   */
  readonly valuesRemaining: number;
  /** The entity indices whose search documents still hold a value, with how many do (others: none). */
  readonly documentsWithValues: Readonly<Record<string, number>>;
  /** Its document fields still mapped somewhere. */
  readonly mappedFields: readonly string[];
  /** How many entity indices still map one of them. */
  readonly mappedInIndices: number;
  /**
   * Nothing holds a value any more: the system-update job with ELASTICSEARCH_INDEX_BUILDER_MAPPINGS_REINDEX
   * and ENABLE_STRUCTURED_PROPERTIES_SYSTEM_UPDATE would now remove every one of its mappings and free
   * its name.
   */
  readonly mappingCleanupReady: boolean;
}

/**
 * The progress (the operations endpoint's `structuredProperties/cleanup`) of hard-deleted structured
 * properties' clean-up (spec 3.2), which the ecosystem does not report: for each property whose index
 * mappings remain, how many entities still hold its values (the asynchronous removal counts them down
 * to 0), how many search documents hold a value in its fields, and whether the mapping clean-up can
 * run. Properties leave the list once system-update has removed their mappings. `?urn=` narrows it to
 * one property. It reads the search index only (a count per property), so polling it costs the store
 * nothing while the removal runs.
 */
export async function structuredPropertyCleanup(
  only: string | undefined,
  deps: { search: SearchIndex },
): Promise<{ properties: PropertyCleanupStatus[] }> {
  const leftovers = (await deps.search.leftoverStructuredProperties()).filter(
    (p) => only === undefined || p.urn === only,
  );
  const remaining = new Map<string, number>();
  for (const p of leftovers) remaining.set(p.urn, await indexedHolders(deps.search, p.urn));
  const properties: PropertyCleanupStatus[] = leftovers.map((p) => {
    const documentsWithValues: Record<string, number> = {};
    for (const [entityType, fields] of Object.entries(p.mappedFields)) {
      const holding = Math.max(0, ...Object.values(fields));
      if (holding > 0) documentsWithValues[entityType] = holding;
    }
    const valuesRemaining = remaining.get(p.urn) ?? 0;
    return {
      urn: p.urn,
      qualifiedName: p.qualifiedName,
      retiredAt: p.retiredAt,
      valuesRemaining,
      documentsWithValues,
      mappedFields: [
        ...new Set(Object.values(p.mappedFields).flatMap((fields) => Object.keys(fields))),
      ].sort(),
      mappedInIndices: Object.values(p.mappedFields).filter((fields) => Object.keys(fields).length > 0)
        .length,
      mappingCleanupReady: valuesRemaining === 0 && Object.keys(documentsWithValues).length === 0,
    };
  });
  return { properties };
}

/** How many search documents (soft-deleted entities too) list an assignment of the property. */
async function indexedHolders(search: SearchIndex, propertyUrn: string): Promise<number> {
  const found = await search.search({
    entityTypes: entityTypesWithStructuredProperties(),
    input: '*',
    start: 0,
    count: 0,
    includeRemoved: true,
    filter: {
      or: [{ and: [{ field: STRUCTURED_PROPERTY_URNS_FIELD, values: [propertyUrn], condition: 'EQUAL' }] }],
    },
  });
  return found.total;
}
