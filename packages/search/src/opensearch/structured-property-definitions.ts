import type { Client, Types } from '@opensearch-project/opensearch';
import type { FieldMapping, StructuredPropertySearchDefinition } from '../port.js';
import { definitionFromJson } from '../structured-property-definition-json.js';
import { normalizedPropertyName, structuredFieldMapping } from '../structured-property-fields.js';
import type { AliasedIndices } from './aliased-index.js';
import { runBulk } from './bulk-writer.js';
import { structuredFieldMappings } from './entity-mappings.js';
import { documentId, type IndexNames } from './index-names.js';
import type { OpenSearchLogger } from './logger.js';
import { asArray, asObject } from './narrow.js';
import { hitsOf } from './read-context.js';

type TypeMapping = Types.Common_Mapping.TypeMapping;

/** Definitions read per page when all of them are listed (an index's mappings at creation). */
const PAGE = 1_000;

const DEFINITION_MAPPINGS: TypeMapping = {
  dynamic: 'strict',
  properties: {
    urn: { type: 'keyword' },
    qualifiedName: { type: 'keyword' },
    normalizedName: { type: 'keyword' },
    valueType: { type: 'keyword' },
    version: { type: 'keyword' },
    versionSince: { type: 'long' },
    removed: { type: 'boolean' },
  },
};

/**
 * The definitions view on OpenSearch: one small index (`<prefix_>structured_property_definitions_v1`),
 * a document per property urn, written with an immediate refresh (definitions change rarely and the
 * next search must see them), read by id (the indexer) or by the field form of the qualified name
 * (filters and facets). Putting a definition also maps its document field in every entity index of
 * this prefix, explicitly typed: the entity indices never map a structured property dynamically (their
 * `structuredProperties` object is `dynamic: false`).
 */
export class OpenSearchStructuredProperties {
  private ensured = false;
  /** Fields this process has mapped in every entity index (name and type), not to map them again. */
  private readonly mapped = new Set<string>();

  constructor(
    private readonly client: Client,
    private readonly names: IndexNames,
    private readonly indices: AliasedIndices,
    private readonly logger: OpenSearchLogger,
  ) {}

  async put(definitions: readonly StructuredPropertySearchDefinition[]): Promise<void> {
    if (definitions.length === 0) return;
    await this.ensureIndex();
    await runBulk(
      this.client,
      definitions.map((d) => ({
        action: 'index' as const,
        index: this.names.structuredPropertyDefinitions(),
        id: documentId(d.urn),
        document: { ...d, normalizedName: normalizedPropertyName(d.qualifiedName) },
      })),
      'true',
    );
    await this.mapFields(definitions.map(structuredFieldMapping));
  }

  async delete(urns: readonly string[]): Promise<void> {
    if (urns.length === 0 || !(await this.exists())) return;
    await runBulk(
      this.client,
      urns.map((urn) => ({
        action: 'delete' as const,
        index: this.names.structuredPropertyDefinitions(),
        id: documentId(urn),
      })),
      'true',
    );
  }

  async byUrn(urns: readonly string[]): Promise<Map<string, StructuredPropertySearchDefinition>> {
    const out = new Map<string, StructuredPropertySearchDefinition>();
    const unique = [...new Set(urns)];
    if (unique.length === 0) return out;
    const response = await this.client.mget(
      { index: this.names.structuredPropertyDefinitions(), body: { ids: unique.map(documentId) } },
      { ignore: [404] },
    );
    if (response.statusCode === 404) return out;
    for (const doc of asArray(asObject(response.body, 'mget')['docs'], 'mget docs')) {
      const found = asObject(doc, 'mget doc');
      if (found['found'] !== true) continue;
      const definition = definitionFromJson(found['_source']);
      if (definition !== undefined) out.set(definition.urn, definition);
    }
    return out;
  }

  async byNormalizedName(names: readonly string[]): Promise<StructuredPropertySearchDefinition[]> {
    const unique = [...new Set(names)];
    if (unique.length === 0) return [];
    return this.query({ terms: { normalizedName: unique } }, unique.length * 4 + 10);
  }

  /** Every definition of the view (for the mappings of a new entity index). */
  async all(): Promise<StructuredPropertySearchDefinition[]> {
    return this.query({ match_all: {} }, PAGE, true);
  }

  /** The typed mappings of every definition's field, for an entity index being created or updated. */
  async fieldMappings(): Promise<FieldMapping[]> {
    return (await this.all()).map(structuredFieldMapping);
  }

  private async query(
    query: Types.Common_QueryDsl.QueryContainer,
    size: number,
    everyPage = false,
  ): Promise<StructuredPropertySearchDefinition[]> {
    const out: StructuredPropertySearchDefinition[] = [];
    let after: unknown[] | undefined;
    for (;;) {
      const response = await this.client.search(
        {
          index: this.names.structuredPropertyDefinitions(),
          body: {
            query,
            size,
            sort: [{ urn: { order: 'asc' } }],
            ...(after === undefined ? {} : { search_after: after as Types.Common.SortResults }),
          },
        },
        { ignore: [404] },
      );
      if (response.statusCode === 404) return out;
      const { list } = hitsOf(response.body);
      for (const hit of list) {
        const definition = definitionFromJson(hit['_source']);
        if (definition !== undefined) out.push(definition);
      }
      const last = list[list.length - 1];
      if (!everyPage || list.length < size || last === undefined) return out;
      after = asArray(last['sort'], 'hit sort') as unknown[];
    }
  }

  private async exists(): Promise<boolean> {
    return this.ensured || (await this.indices.exists(this.names.structuredPropertyDefinitions()));
  }

  private async ensureIndex(): Promise<void> {
    if (this.ensured) return;
    await this.indices.ensure(this.names.structuredPropertyDefinitions(), {
      settings: { number_of_shards: 1 },
      mappings: DEFINITION_MAPPINGS,
    });
    this.ensured = true;
  }

  /**
   * Maps fields in every entity index of this prefix, in one request; when an index refuses (a field of
   * that name mapped with another type, left by a hard-deleted property), index by index, logging the
   * refusals: its values then stay unindexed there (the object is `dynamic: false`), the writes go on.
   */
  private async mapFields(fields: readonly FieldMapping[]): Promise<void> {
    const fresh = fields.filter((f) => !this.mapped.has(`${f.name}\u0000${f.type}`));
    if (fresh.length === 0) return;
    const indices = await this.entityIndices();
    if (indices.length > 0) {
      const body = { properties: structuredFieldMappings(fresh) };
      const all = await this.client.indices.putMapping({ index: indices.join(','), body }, { ignore: [400] });
      if (all.statusCode === 400) {
        for (const index of indices) {
          const one = await this.client.indices.putMapping({ index, body }, { ignore: [400] });
          if (one.statusCode === 400)
            this.logger.error(
              { index, fields: fresh.map((f) => f.name), reason: JSON.stringify(one.body) },
              'structured property fields could not be mapped in this index; their values stay unsearchable there',
            );
        }
      }
    }
    for (const f of fresh) this.mapped.add(`${f.name}\u0000${f.type}`);
  }

  /** The concrete indices behind this prefix's entity aliases (none of another prefix's). */
  private async entityIndices(): Promise<string[]> {
    const response = await this.client.indices.getAlias({ name: this.names.entity('*') }, { ignore: [404] });
    if (response.statusCode === 404) return [];
    const out: string[] = [];
    for (const [index, entry] of Object.entries(asObject(response.body, 'get alias'))) {
      const aliases = Object.keys(asObject(asObject(entry, 'alias entry')['aliases'] ?? {}, 'aliases'));
      if (aliases.some((alias) => this.names.isEntityAlias(alias))) out.push(index);
    }
    return out;
  }
}
