import type {
  AutocompleteRequest,
  AutocompleteResponse,
  BrowseRequest,
  BrowseResponse,
  EntityDocument,
  EntityIndexSpec,
  Filter,
  LeftoverStructuredProperty,
  SearchIndex,
  SearchRequest,
  SearchResponse,
  StructuredPropertyMappingCleanup,
  StructuredPropertyMappingCleanupOptions,
  StructuredPropertyNameHolder,
  StructuredPropertySearchDefinition,
} from '../port.js';
import { resolveStructuredProperties, type StructuredResolution } from '../resolve-structured-properties.js';
import {
  validateAutocompleteRequest,
  validateBrowseRequest,
  validateSearchRequest,
  type NormalizedSearch,
} from '../validate-search-request.js';
import { FacetCache } from './facet-cache.js';
import { FacetForwardIndex } from './facet-forward-index.js';
import { indexedEntity, type IndexedEntity } from './indexed-entity.js';
import { runAutocomplete } from './sqlite-autocomplete.js';
import { runBrowse } from './sqlite-browse.js';
import { SqliteDocumentWriter } from './sqlite-document-writer.js';
import type { SqliteHandle } from './sqlite-handle.js';
import { runSearch } from './sqlite-search-query.js';
import { SearchWarmer, type WarmOptions } from './search-warmer.js';
import { registerSliceFunction } from './sqlite-slice.js';
import { SqliteStructuredProperties } from './sqlite-structured-properties.js';
import { SqliteStructuredPropertyCleanup } from './sqlite-structured-property-cleanup.js';
import { SqliteStructuredPropertyMappings } from './sqlite-structured-property-mappings.js';
import { StatementCache } from './statement-cache.js';
import { decodeDocument, registerDocumentFunction } from './stored-document.js';
import { TextIndexReader } from './text-index-reader.js';

/**
 * The embedded SearchIndex. Writes are synchronous SQLite transactions, so every completed write is
 * visible to the next read and `refresh` has nothing to do. Requests are checked by the shared
 * validators against the specs given to ensureIndex (kept in the file).
 */
export class SqliteSearchIndex implements SearchIndex {
  private readonly writer: SqliteDocumentWriter;
  private readonly queries: StatementCache;
  private readonly definitions: SqliteStructuredProperties;
  private readonly mappings: SqliteStructuredPropertyMappings;
  private readonly cleanup: SqliteStructuredPropertyCleanup;
  private released = false;

  /**
   * With `warm`, the large entity types' query structures are read here and kept current between
   * queries (SearchWarmer): for the process that serves searches, not for one that only writes.
   */
  constructor(
    private readonly handle: SqliteHandle,
    options: { readonly warm?: WarmOptions } = {},
  ) {
    handle.acquire();
    this.writer = new SqliteDocumentWriter(handle.db);
    this.queries = new StatementCache(handle.db);
    this.mappings = new SqliteStructuredPropertyMappings(handle.db);
    this.definitions = new SqliteStructuredProperties(handle.db, this.mappings);
    this.cleanup = new SqliteStructuredPropertyCleanup(handle.db, this.definitions, this.mappings);
    registerSliceFunction(handle.db);
    registerDocumentFunction(handle.db);
    handle.db.exec(
      'CREATE TEMP TABLE IF NOT EXISTS search_hits (id INTEGER PRIMARY KEY, score REAL NOT NULL)',
    );
    const dataVersion = handle.db.prepare<[], number>('PRAGMA data_version').pluck();
    this.facetCache = new FacetCache(() => dataVersion.get() ?? 0);
    this.forward = new FacetForwardIndex(handle.db);
    this.text = new TextIndexReader(handle.db);
    this.searchInSnapshot = handle.db.transaction(
      (entities: readonly IndexedEntity[], search: NormalizedSearch) =>
        runSearch(this.queries, entities, search, this.facetCache, this.forward, this.text),
    );
    this.autocompleteInSnapshot = handle.db.transaction(
      (
        entity: IndexedEntity,
        fields: readonly string[],
        query: string,
        filter: Filter | undefined,
        limit: number,
      ) => {
        this.text.sync();
        return runAutocomplete(this.queries, this.text, entity, fields, query, filter, limit);
      },
    );
    if (options.warm !== undefined) {
      this.warmer = new SearchWarmer(
        handle.db,
        this.forward,
        this.text,
        (entityType) => this.writer.entity(entityType),
        options.warm,
      );
      this.warmer.start();
    }
  }

  private readonly warmer: SearchWarmer | undefined;

  private readonly text: TextIndexReader;
  private readonly autocompleteInSnapshot: (
    entity: IndexedEntity,
    fields: readonly string[],
    query: string,
    filter: Filter | undefined,
    limit: number,
  ) => AutocompleteResponse;

  private readonly facetCache: FacetCache;
  private readonly forward: FacetForwardIndex;
  private readonly searchInSnapshot: (
    entities: readonly IndexedEntity[],
    search: NormalizedSearch,
  ) => SearchResponse;

  private readonly specOf = (entityType: string): EntityIndexSpec | undefined =>
    this.writer.entity(entityType)?.spec;

  async ensureIndex(spec: EntityIndexSpec): Promise<void> {
    this.facetCache.invalidate(spec.entityType);
    this.writer.ensureIndex(spec);
    this.definitions.mapViewIn(spec.entityType);
  }

  async deleteIndex(entityType: string): Promise<void> {
    this.facetCache.invalidate(entityType);
    this.writer.deleteIndex(entityType);
    this.mappings.unmapIndex(entityType);
  }

  async upsert(documents: readonly EntityDocument[]): Promise<void> {
    if (documents.length === 0) return;
    for (const type of new Set(documents.map((d) => d.entityType))) this.facetCache.invalidate(type);
    this.writer.upsert(documents);
  }

  async delete(refs: readonly { readonly entityType: string; readonly urn: string }[]): Promise<void> {
    if (refs.length === 0) return;
    for (const type of new Set(refs.map((r) => r.entityType))) this.facetCache.invalidate(type);
    this.writer.delete(refs);
  }

  async getDocument(entityType: string, urn: string): Promise<EntityDocument | null> {
    const row = this.queries.get1<{ doc: string | Uint8Array }>(
      'SELECT doc FROM docs WHERE entity_type = ? AND urn = ?',
      [entityType, urn],
    );
    if (row === undefined) return null;
    return { urn, entityType, fields: JSON.parse(decodeDocument(row.doc)) as EntityDocument['fields'] };
  }

  async search(request: SearchRequest): Promise<SearchResponse> {
    const resolution = await this.resolve(request);
    const search = validateSearchRequest(resolution.specs(this.specOf), resolution.request);
    const entities = search.specs.map((spec) => this.entityOf(spec, resolution));
    const response = this.searchInSnapshot(entities, search);
    return { ...response, aggregations: resolution.formatAggregations(response.aggregations) };
  }

  async browse(request: BrowseRequest): Promise<BrowseResponse> {
    const resolution = await this.resolve(request);
    const { spec, path, filter } = validateBrowseRequest(resolution.specs(this.specOf), resolution.request);
    const entity = this.entityOf(spec, resolution);
    const browse = () => runBrowse(this.queries, entity, path, filter, request.start, request.limit);
    if (filter !== undefined) return browse();
    return this.facetCache.get(
      spec.entityType,
      `browse\u0000${path}\u0000${request.start}\u0000${request.limit}`,
      browse,
    );
  }

  async autocomplete(request: AutocompleteRequest): Promise<AutocompleteResponse> {
    const resolution = await this.resolve(request);
    const { spec, fields, filter } = validateAutocompleteRequest(
      resolution.specs(this.specOf),
      resolution.request,
    );
    const entity = this.entityOf(spec, resolution);
    return this.autocompleteInSnapshot(entity, fields, request.query, filter, request.limit);
  }

  async putStructuredProperties(definitions: readonly StructuredPropertySearchDefinition[]): Promise<void> {
    // The writer keys every structured property field, typed by its JSON values; the mappings are
    // bookkeeping (SqliteStructuredPropertyMappings).
    this.definitions.put(definitions);
  }

  async deleteStructuredProperties(urns: readonly string[]): Promise<void> {
    this.definitions.retire(urns, Date.now());
  }

  async getStructuredProperties(
    urns: readonly string[],
  ): Promise<ReadonlyMap<string, StructuredPropertySearchDefinition>> {
    return this.definitions.byUrn(urns);
  }

  async structuredPropertyNameHolders(
    normalizedNames: readonly string[],
  ): Promise<readonly StructuredPropertyNameHolder[]> {
    return this.definitions.nameHolders(normalizedNames);
  }

  async leftoverStructuredProperties(): Promise<readonly LeftoverStructuredProperty[]> {
    return this.cleanup.leftovers();
  }

  /**
   * Removes the bookkeeping rows of unclaimed fields no document holds a value in, in one transaction
   * (writes wait for it; nothing is rewritten: the documents and their keyed values stay as they are).
   */
  async cleanupStructuredPropertyMappings(
    options?: StructuredPropertyMappingCleanupOptions,
  ): Promise<StructuredPropertyMappingCleanup> {
    return this.cleanup.cleanup(options);
  }

  private resolve<R extends SearchRequest | BrowseRequest | AutocompleteRequest>(
    request: R,
  ): Promise<StructuredResolution<R>> {
    return resolveStructuredProperties(request, async (names) => this.definitions.byNormalizedName(names));
  }

  /** The indexed entity of a validated spec: the stored one, or one with the request's structured fields. */
  private entityOf(spec: EntityIndexSpec, resolution: StructuredResolution<unknown>): IndexedEntity {
    const stored = this.writer.requireEntity(spec.entityType);
    return resolution.fields.length === 0 ? stored : indexedEntity(spec);
  }

  async refresh(): Promise<void> {}

  async ping(): Promise<void> {
    if (this.released || !this.handle.db.open) throw new Error('the search index is closed');
    this.handle.db.prepare('SELECT 1').get();
  }

  async close(): Promise<void> {
    if (this.released) return;
    this.released = true;
    this.warmer?.stop();
    this.handle.release();
  }
}
