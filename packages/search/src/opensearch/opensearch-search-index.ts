import type { Client } from '@opensearch-project/opensearch';
import type {
  AutocompleteRequest,
  AutocompleteResponse,
  BrowseRequest,
  BrowseResponse,
  EntityDocument,
  EntityIndexSpec,
  LeftoverStructuredProperty,
  SearchIndex,
  SearchRequest,
  SearchResponse,
  StructuredPropertyMappingCleanup,
  StructuredPropertyMappingCleanupOptions,
  StructuredPropertyNameHolder,
  StructuredPropertySearchDefinition,
} from '../port.js';
import { isStructuredPropertyField } from '../structured-property-fields.js';
import type { AliasedIndices } from './aliased-index.js';
import { BulkWriteError, runBulk, type BulkOperation, type RefreshPolicy } from './bulk-writer.js';
import { runAutocomplete } from './entity-autocomplete.js';
import { runBrowse } from './entity-browse.js';
import { decodeEntityDocument, encodeEntityDocument } from './entity-document-codec.js';
import { entityIndexMappings, entityIndexSettings, type IndexShape } from './entity-mappings.js';
import { runSearch } from './entity-search.js';
import { sizedQuery } from './query-size-limit.js';
import type { EntitySpecs } from './entity-specs.js';
import { documentId, type IndexNames } from './index-names.js';
import type { OpenSearchLogger } from './logger.js';
import { asObject } from './narrow.js';
import type { OpenSearchStructuredProperties } from './structured-property-definitions.js';
import { OpenSearchStructuredPropertyCleanup } from './structured-property-mapping-cleanup.js';

export interface SearchIndexParts {
  readonly client: Client;
  readonly names: IndexNames;
  readonly indices: AliasedIndices;
  readonly specs: EntitySpecs;
  readonly refresh: RefreshPolicy;
  readonly shape: IndexShape;
  readonly definitions: OpenSearchStructuredProperties;
  readonly logger: OpenSearchLogger;
}

/** Entity documents in one OpenSearch index per entity type (`<prefix_><type>index_v2`, an alias). */
export class OpenSearchSearchIndex implements SearchIndex {
  private readonly cleanup: OpenSearchStructuredPropertyCleanup;

  constructor(private readonly parts: SearchIndexParts) {
    this.cleanup = new OpenSearchStructuredPropertyCleanup(parts);
  }

  async ensureIndex(spec: EntityIndexSpec): Promise<void> {
    const { indices, names, shape, specs } = this.parts;
    await indices.ensure(names.entity(spec.entityType), {
      settings: entityIndexSettings(shape),
      mappings: entityIndexMappings(spec, await this.parts.definitions.fieldMappings()),
    });
    specs.remember(spec);
  }

  async deleteIndex(entityType: string): Promise<void> {
    await this.parts.indices.delete(this.parts.names.entity(entityType));
    this.parts.specs.forget(entityType);
  }

  async upsert(documents: readonly EntityDocument[]): Promise<void> {
    try {
      await runBulk(this.parts.client, await this.upsertOperations(documents), this.parts.refresh);
    } catch (error) {
      if (!(error instanceof BulkWriteError)) throw error;
      await this.retryWithoutStructuredValues(documents, error);
    }
  }

  /**
   * A document the index refuses for one of its structured property values (a field mapped otherwise
   * by a hard-deleted property of the same name, a term the analyzer cannot take) would fail its
   * entity's indexing forever: it is indexed again without its structured property values, with an
   * error logged. Any other failure (of another document, or of an operation not on these documents in
   * the same bulk) is thrown as it is.
   */
  async retryWithoutStructuredValues(
    documents: readonly EntityDocument[],
    error: BulkWriteError,
  ): Promise<void> {
    const byId = new Map(documents.map((d) => [documentId(d.urn), d]));
    const refused = error.failures.map((f) => ({ failure: f, document: byId.get(f.id) }));
    const retriable = refused.filter(
      ({ failure, document }) =>
        failure.status === 400 &&
        document !== undefined &&
        Object.keys(document.fields).some(isStructuredPropertyField),
    );
    if (retriable.length !== refused.length) throw error;
    const stripped = retriable.map(({ document, failure }) => {
      this.parts.logger.error(
        { urn: document!.urn, reason: failure.reason },
        'document refused for its structured property values; indexed without them',
      );
      return {
        ...document!,
        fields: Object.fromEntries(
          Object.entries(document!.fields).filter(([name]) => !isStructuredPropertyField(name)),
        ),
      };
    });
    await runBulk(this.parts.client, await this.upsertOperations(stripped), this.parts.refresh);
  }

  /** The bulk operations of upsert(documents). */
  async upsertOperations(documents: readonly EntityDocument[]): Promise<BulkOperation[]> {
    const operations: BulkOperation[] = [];
    for (const document of documents) {
      const spec = await this.parts.specs.get(document.entityType);
      if (spec === null)
        throw new Error(`no search index for entity type ${document.entityType}: ensureIndex first`);
      operations.push({
        action: 'index',
        index: spec.alias,
        id: documentId(document.urn),
        document: encodeEntityDocument(document, spec),
      });
    }
    return operations;
  }

  async delete(refs: readonly { readonly entityType: string; readonly urn: string }[]): Promise<void> {
    await runBulk(this.parts.client, await this.deleteOperations(refs), this.parts.refresh);
  }

  /** The bulk operations of delete(refs). */
  async deleteOperations(
    refs: readonly { readonly entityType: string; readonly urn: string }[],
  ): Promise<BulkOperation[]> {
    const operations: BulkOperation[] = [];
    const indexed = new Map<string, boolean>();
    for (const ref of refs) {
      const alias = this.parts.names.entity(ref.entityType);
      if (!indexed.has(alias)) indexed.set(alias, await this.parts.indices.exists(alias));
      // An entity type without an index has nothing to delete (and a bulk delete must not create one).
      if (indexed.get(alias) !== true) continue;
      operations.push({ action: 'delete', index: alias, id: documentId(ref.urn) });
    }
    return operations;
  }

  async getDocument(entityType: string, urn: string): Promise<EntityDocument | null> {
    const response = await this.parts.client.get(
      { index: this.parts.names.entity(entityType), id: documentId(urn) },
      { ignore: [404] },
    );
    const body = asObject(response.body, 'get document');
    if (response.statusCode === 404 || body['found'] !== true) return null;
    return decodeEntityDocument(body['_source']);
  }

  search(request: SearchRequest): Promise<SearchResponse> {
    return sizedQuery(() => runSearch(this.parts, request));
  }

  browse(request: BrowseRequest): Promise<BrowseResponse> {
    return sizedQuery(() => runBrowse(this.parts, request));
  }

  autocomplete(request: AutocompleteRequest): Promise<AutocompleteResponse> {
    return sizedQuery(() => runAutocomplete(this.parts, request));
  }

  putStructuredProperties(definitions: readonly StructuredPropertySearchDefinition[]): Promise<void> {
    return this.parts.definitions.put(definitions);
  }

  deleteStructuredProperties(urns: readonly string[]): Promise<void> {
    return this.parts.definitions.retire(urns, Date.now());
  }

  getStructuredProperties(
    urns: readonly string[],
  ): Promise<ReadonlyMap<string, StructuredPropertySearchDefinition>> {
    return this.parts.definitions.byUrn(urns);
  }

  structuredPropertyNameHolders(
    normalizedNames: readonly string[],
  ): Promise<readonly StructuredPropertyNameHolder[]> {
    return this.parts.definitions.nameHolders(normalizedNames);
  }

  leftoverStructuredProperties(): Promise<readonly LeftoverStructuredProperty[]> {
    return this.cleanup.leftovers();
  }

  /**
   * Rebuilds the entity indices that lose mappings behind their aliases; writes meanwhile are refused
   * for a moment and then land in the new index when retried (see OpenSearchStructuredPropertyCleanup).
   */
  cleanupStructuredPropertyMappings(
    options?: StructuredPropertyMappingCleanupOptions,
  ): Promise<StructuredPropertyMappingCleanup> {
    return this.cleanup.cleanup(options);
  }

  async refresh(): Promise<void> {
    await this.parts.client.indices.refresh({ index: this.parts.names.entity('*'), allow_no_indices: true });
  }

  async ping(): Promise<void> {
    await this.parts.client.ping();
  }

  async close(): Promise<void> {
    // The client is shared with the graph and time-series indices; openOpenSearch's close() ends it.
  }
}
