import type { Client, Types } from '@opensearch-project/opensearch';
import type {
  FieldMapping,
  StructuredPropertyNameHolder,
  StructuredPropertySearchDefinition,
} from '../port.js';
import { compareCodePoints } from '../sort-values.js';
import { definitionFromJson } from '../structured-property-definition-json.js';
import { normalizedPropertyName, structuredFieldMapping } from '../structured-property-fields.js';
import { retiredRecordOf, type RetiredStructuredProperty } from '../structured-property-leftovers.js';
import type { AliasedIndices } from './aliased-index.js';
import { runBulk } from './bulk-writer.js';
import { structuredFieldMappings } from './entity-mappings.js';
import { documentId, type IndexNames } from './index-names.js';
import type { OpenSearchLogger } from './logger.js';
import { asArray, asObject, isObject, type JsonObject } from './narrow.js';
import { hitsOf } from './read-context.js';
import { searchOnceStarted } from './shards-starting.js';

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
    retiredAt: { type: 'long' },
    retiredFields: { type: 'keyword' },
  },
};

/** The retired records: only they carry `retiredAt`. */
const RETIRED: Types.Common_QueryDsl.QueryContainer = { exists: { field: 'retiredAt' } };

/**
 * The definitions view on OpenSearch: one small index (`<prefix_>structured_property_definitions_v1`),
 * a document per property urn, written with an immediate refresh (definitions change rarely and the
 * next search must see them), read by id (the indexer) or by the field form of the qualified name
 * (filters and facets). Putting a definition also maps its document field in every entity index of
 * this prefix, explicitly typed: the entity indices never map a structured property dynamically (their
 * `structuredProperties` object is `dynamic: false`).
 *
 * A retired (hard-deleted) property keeps its document, rewritten with `retiredAt` and `retiredFields`
 * (the field it had mapped): the view's reads leave it out, the name holders and the mapping cleanup
 * read it. Putting the urn again overwrites it with the definition: active again.
 */
export class OpenSearchStructuredProperties {
  private ensured = false;
  /**
   * Fields this process has mapped (concrete index, name and type), not to map them again; keyed by
   * the concrete index, so an index rebuilt behind its alias (the mapping cleanup) is mapped afresh.
   */
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

  /**
   * Rewrites the view's definitions of these urns as retired records (absent or retired ones: nothing).
   * A read then a write: a put of the same urn in between is overwritten (the indexer handles one
   * property's changes in order, so it does not race itself).
   */
  async retire(urns: readonly string[], retiredAt: number): Promise<void> {
    if (urns.length === 0 || !(await this.exists())) return;
    const definitions = [...(await this.byUrn(urns)).values()];
    if (definitions.length === 0) return;
    // An index made before retired records gets their fields mapped (it is `dynamic: strict`).
    await this.ensureIndex();
    await runBulk(
      this.client,
      definitions.map((d) => {
        const record = retiredRecordOf(d, retiredAt);
        return {
          action: 'index' as const,
          index: this.names.structuredPropertyDefinitions(),
          id: documentId(d.urn),
          document: { ...d, normalizedName: record.normalizedName, retiredAt, retiredFields: record.fields },
        };
      }),
      'true',
    );
  }

  /** Drops retired records, unless the urn was put again meanwhile. */
  async forget(urns: readonly string[]): Promise<void> {
    if (urns.length === 0 || !(await this.exists())) return;
    await this.client.deleteByQuery({
      index: this.names.structuredPropertyDefinitions(),
      refresh: true,
      conflicts: 'proceed',
      body: { query: { bool: { filter: [{ ids: { values: urns.map(documentId) } }, RETIRED] } } },
    });
  }

  /** The view's definitions and the retired properties with these normalized names. */
  async nameHolders(names: readonly string[]): Promise<StructuredPropertyNameHolder[]> {
    const unique = [...new Set(names)];
    if (unique.length === 0) return [];
    const sources = await this.sources({ terms: { normalizedName: unique } }, PAGE, true);
    const holders: StructuredPropertyNameHolder[] = [];
    for (const source of sources) {
      const definition = definitionFromJson(source);
      if (definition === undefined) continue;
      holders.push({
        urn: definition.urn,
        qualifiedName: definition.qualifiedName,
        normalizedName: normalizedPropertyName(definition.qualifiedName),
        state: isRetired(source) ? 'retired' : definition.removed ? 'removed' : 'active',
      });
    }
    return holders.sort((a, b) => compareCodePoints(a.urn, b.urn));
  }

  /** Every retired property, by urn. */
  async retired(): Promise<RetiredStructuredProperty[]> {
    const out: RetiredStructuredProperty[] = [];
    for (const source of await this.sources(RETIRED, PAGE, true)) {
      const definition = definitionFromJson(source);
      const retiredAt = source['retiredAt'];
      if (definition === undefined || typeof retiredAt !== 'number') continue;
      const fields = source['retiredFields'];
      out.push({
        urn: definition.urn,
        qualifiedName: definition.qualifiedName,
        normalizedName: normalizedPropertyName(definition.qualifiedName),
        retiredAt,
        fields: (Array.isArray(fields) ? fields : [fields]).filter((f): f is string => typeof f === 'string'),
      });
    }
    return out;
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
      if (found['found'] !== true || isRetired(found['_source'])) continue;
      const definition = definitionFromJson(found['_source']);
      if (definition !== undefined) out.set(definition.urn, definition);
    }
    return out;
  }

  async byNormalizedName(names: readonly string[]): Promise<StructuredPropertySearchDefinition[]> {
    const unique = [...new Set(names)];
    if (unique.length === 0) return [];
    return this.query(
      { bool: { filter: [{ terms: { normalizedName: unique } }], must_not: [RETIRED] } },
      unique.length * 4 + 10,
    );
  }

  /** Every definition of the view, active and soft-deleted (for the mappings of a new entity index). */
  async all(): Promise<StructuredPropertySearchDefinition[]> {
    return this.query({ bool: { must_not: [RETIRED] } }, PAGE, true);
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
    return (await this.sources(query, size, everyPage))
      .map(definitionFromJson)
      .filter((d): d is StructuredPropertySearchDefinition => d !== undefined);
  }

  /** The stored documents matching a query, by urn: the first page, or every page. */
  private async sources(
    query: Types.Common_QueryDsl.QueryContainer,
    size: number,
    everyPage: boolean,
  ): Promise<JsonObject[]> {
    const out: JsonObject[] = [];
    let after: unknown[] | undefined;
    for (;;) {
      const index = this.names.structuredPropertyDefinitions();
      // Created when the first definition is indexed, while gateways already read it.
      const response = await searchOnceStarted(this.client, index, () =>
        this.client.search(
          {
            index,
            body: {
              query,
              size,
              sort: [{ urn: { order: 'asc' } }],
              ...(after === undefined ? {} : { search_after: after as Types.Common.SortResults }),
            },
          },
          { ignore: [404] },
        ),
      );
      if (response.statusCode === 404) return out;
      const { list } = hitsOf(response.body);
      for (const hit of list) out.push(asObject(hit['_source'], 'definition document'));
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
    const indices = await this.entityIndices();
    const key = (index: string, f: FieldMapping) => `${index}\u0000${f.name}\u0000${f.type}`;
    const fresh = fields.filter((f) => indices.some((index) => !this.mapped.has(key(index, f))));
    if (fresh.length === 0) return;
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
    for (const index of indices) for (const f of fresh) this.mapped.add(key(index, f));
  }

  /** Maps the fields of every definition of the view in every entity index (after a rebuild). */
  async mapAll(): Promise<void> {
    await this.mapFields(await this.fieldMappings());
  }

  /** The concrete indices behind this prefix's entity aliases (none of another prefix's). */
  private async entityIndices(): Promise<string[]> {
    const behind = await this.indices.behindAliases(this.names.entity('*'), (alias) =>
      this.names.isEntityAlias(alias),
    );
    return behind.map((b) => b.index);
  }
}

/** Whether a stored document is a retired record (see the class comment). */
function isRetired(source: unknown): boolean {
  return isObject(source) && typeof source['retiredAt'] === 'number';
}
