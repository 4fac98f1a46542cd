import {
  entityTypesWithStructuredProperties,
  STRUCTURED_PROPERTY_URNS_FIELD,
  structuredPropertyFieldName,
  type Filter,
  type SearchIndex,
  type SearchSortValue,
  type StructuredPropertySearchDefinition,
} from '@catalog/search';
import type { AspectStore, StoredAspect } from '@catalog/store';
import {
  DEFINITION_ASPECT,
  definitionFromStore,
  sameDefinition,
  sameIndexing,
  STATUS_ASPECT,
} from './structured-property-definitions.js';

/** Documents re-read per page when the documents holding a property's values are rebuilt. */
const PAGE = 1_000;
/** Properties looked for in one search (one conjunction each). */
const PER_QUERY = 100;

/**
 * The projector's side of the structured property definitions view (SearchIndex.putStructuredProperties):
 * keeps it in step with the structuredProperty entities, finds the definitions documents need (from the
 * view, else from the store, which the view then learns), and finds the documents to rebuild when a
 * definition is (re)indexed: those whose values it does not index as it now says.
 */
export class StructuredPropertyView {
  constructor(
    private readonly store: AspectStore,
    private readonly search: SearchIndex,
  ) {}

  /**
   * Brings the view in line with these structuredProperty entities' stored aspects (a definition
   * written, re-versioned, soft-deleted or restored, or gone) and returns their current definitions
   * (absent: none).
   */
  async update(
    properties: ReadonlyMap<string, readonly StoredAspect[]>,
  ): Promise<ReadonlyMap<string, StructuredPropertySearchDefinition>> {
    const current = new Map<string, StructuredPropertySearchDefinition>();
    if (properties.size === 0) return current;
    const before = await this.search.getStructuredProperties([...properties.keys()]);
    const put: StructuredPropertySearchDefinition[] = [];
    const gone: string[] = [];
    for (const [urn, aspects] of properties) {
      const definition = await definitionFromStore(this.store, urn, aspects);
      const previous = before.get(urn);
      if (definition === undefined) {
        if (previous !== undefined) gone.push(urn);
        continue;
      }
      current.set(urn, definition);
      if (!sameDefinition(previous, definition)) put.push(definition);
    }
    if (put.length > 0) await this.search.putStructuredProperties(put);
    if (gone.length > 0) await this.search.deleteStructuredProperties(gone);
    return current;
  }

  /**
   * The definitions of these properties: `known` ones, then the view's, then the store's for those the
   * view lacks (restoring before the definitions were indexed, or their change log not yet consumed):
   * those are put in the view first, so their fields are mapped before any document holds values, and
   * returned as `learned` (documents indexed before may lack their values: see unsettled).
   */
  async definitionsOf(
    urns: readonly string[],
    known: ReadonlyMap<string, StructuredPropertySearchDefinition>,
  ): Promise<{
    readonly definitions: ReadonlyMap<string, StructuredPropertySearchDefinition>;
    readonly learned: readonly StructuredPropertySearchDefinition[];
  }> {
    const out = new Map<string, StructuredPropertySearchDefinition>();
    const unknown = urns.filter((urn) => {
      const definition = known.get(urn);
      if (definition !== undefined) out.set(urn, definition);
      return definition === undefined;
    });
    if (unknown.length === 0) return { definitions: out, learned: [] };
    const viewed = await this.search.getStructuredProperties(unknown);
    for (const [urn, definition] of viewed) out.set(urn, definition);
    const missing = unknown.filter((urn) => !viewed.has(urn));
    if (missing.length === 0) return { definitions: out, learned: [] };
    const stored = await this.store.getLatestMany(missing, [DEFINITION_ASPECT, STATUS_ASPECT]);
    const found: StructuredPropertySearchDefinition[] = [];
    for (const urn of missing) {
      const definition = await definitionFromStore(this.store, urn, stored.get(urn) ?? []);
      if (definition === undefined) continue;
      found.push(definition);
      out.set(urn, definition);
    }
    if (found.length > 0) await this.search.putStructuredProperties(found);
    return { definitions: out, learned: found };
  }

  /**
   * The urns among `used` whose view definition now indexes values otherwise than `used` says: a
   * definition changed (or arrived) while documents were built with the one read before, and those
   * documents may have been written after the change's own rebuild looked for them.
   */
  async changedSince(
    used: ReadonlyMap<string, StructuredPropertySearchDefinition | undefined>,
  ): Promise<string[]> {
    if (used.size === 0) return [];
    const now = await this.search.getStructuredProperties([...used.keys()]);
    return [...used]
      .filter(([urn, definition]) => !sameIndexing(definition, now.get(urn)))
      .map(([urn]) => urn);
  }

  /**
   * The entities whose documents hold assignments of these properties but not their current field:
   * built before the definition was known, or with an older version or type of it (and, harmlessly,
   * those whose values all predate the version or were left out). Page by page (keyset paging by
   * urn, soft-deleted entities included), after a refresh so that documents just written are found.
   * Soft-deleted properties are left out: filters on them are refused; they settle when restored.
   */
  async *unsettled(
    definitions: readonly StructuredPropertySearchDefinition[],
  ): AsyncGenerator<readonly string[]> {
    const live = definitions.filter((d) => !d.removed);
    if (live.length === 0) return;
    await this.search.refresh();
    const entityTypes = entityTypesWithStructuredProperties();
    for (let at = 0; at < live.length; at += PER_QUERY) {
      const filter: Filter = {
        or: live.slice(at, at + PER_QUERY).map((d) => ({
          and: [
            { field: STRUCTURED_PROPERTY_URNS_FIELD, values: [d.urn], condition: 'EQUAL' as const },
            {
              field: structuredPropertyFieldName(d),
              values: [],
              condition: 'EXISTS' as const,
              negated: true,
            },
          ],
        })),
      };
      let after: string | readonly SearchSortValue[] = '';
      for (;;) {
        const page = await this.search.search({
          entityTypes,
          input: '*',
          start: 0,
          count: PAGE,
          filter,
          includeRemoved: true,
          searchAfter: after,
        });
        const last = page.hits[page.hits.length - 1];
        if (last === undefined) break;
        yield page.hits.map((hit) => hit.urn);
        if (page.hits.length < PAGE) break;
        after = last.sortValues ?? last.urn;
      }
    }
  }
}
