import type { Client, Types } from '@opensearch-project/opensearch';
import type {
  Edge,
  EdgeEndpointFilter,
  EdgeKey,
  EdgeReplacement,
  EdgeScrollRequest,
  GraphIndex,
  RelatedRequest,
  RelatedResponse,
} from '../port.js';
import type { AliasedIndices } from './aliased-index.js';
import { runBulk, type BulkOperation, type RefreshPolicy } from './bulk-writer.js';
import type { Query } from './filter-query.js';
import type { IndexShape } from './entity-mappings.js';
import { tupleId, type IndexNames } from './index-names.js';
import { asArray, asObject, asString, isObject } from './narrow.js';
import { aggregationsOf, bucketsOf } from './read-context.js';
import { relatedCreated } from './related-created.js';

export interface GraphIndexParts {
  readonly client: Client;
  readonly names: IndexNames;
  readonly indices: AliasedIndices;
  readonly refresh: RefreshPolicy;
  readonly shape: IndexShape;
}

const keyword = { type: 'keyword' } as const;
/** Pairs fetched per composite-aggregation round when listing related entities. */
const PAIRS_PER_ROUND = 1_000;
/** Manifests read per multi-get when replacing many edge sets. */
const MANIFESTS_PER_MGET = 1_000;

/**
 * Edges in `graph_service_v1`, one document per (source, relationship, target, aspect). Each
 * (source, aspect) also has a manifest document listing its edge ids: reading it by id is real-time,
 * so replacing edges right after writing them (before a refresh) still removes the old ones.
 */
export class OpenSearchGraphIndex implements GraphIndex {
  private ensured = false;

  constructor(private readonly parts: GraphIndexParts) {}

  async ensure(): Promise<void> {
    await this.parts.indices.ensure(this.parts.names.graph(), {
      settings: { number_of_shards: this.parts.shape.shards, number_of_replicas: this.parts.shape.replicas },
      mappings: {
        dynamic: false,
        properties: {
          source: keyword,
          relationship: keyword,
          target: keyword,
          aspect: keyword,
          createdOn: { type: 'date', format: 'epoch_millis' },
          createdActor: keyword,
          manifestSource: keyword,
          manifestEdges: { type: 'object', enabled: false },
        },
      },
    });
    this.ensured = true;
  }

  async replaceEdges(source: string, aspect: string, edges: readonly Edge[]): Promise<void> {
    await this.replaceEdgesMany([{ source, aspect, edges }]);
  }

  /** One multi-get of the manifests, then one bulk request (in chunks) for every pair. */
  async replaceEdgesMany(items: readonly EdgeReplacement[]): Promise<void> {
    if (items.length === 0) return;
    await runBulk(this.parts.client, await this.replacementOperations(items), this.parts.refresh);
  }

  /** The bulk operations of replaceEdgesMany(items), after one multi-get of their manifests. */
  async replacementOperations(items: readonly EdgeReplacement[]): Promise<BulkOperation[]> {
    if (items.length === 0) return [];
    if (!this.ensured) await this.ensure();
    const index = this.parts.names.graph();
    const manifestIdOf = (item: EdgeReplacement): string => tupleId(['manifest', item.source, item.aspect]);
    const manifests = await this.manifestEdges([...new Set(items.map(manifestIdOf))]);
    const operations: BulkOperation[] = [];
    for (const { source, aspect, edges } of items) {
      const manifestId = manifestIdOf({ source, aspect, edges });
      const current = new Map(
        edges.map((edge) => [tupleId([edge.source, edge.relationship, edge.target, edge.aspect]), edge]),
      );
      for (const id of manifests.get(manifestId) ?? [])
        if (!current.has(id)) operations.push({ action: 'delete', index, id });
      for (const [id, edge] of current)
        operations.push({ action: 'index', index, id, document: edgeDocument(edge) });
      operations.push(
        current.size === 0
          ? { action: 'delete', index, id: manifestId }
          : {
              action: 'index',
              index,
              id: manifestId,
              document: { manifestSource: source, manifestEdges: { ids: [...current.keys()] } },
            },
      );
      // A later item for the same pair replaces what this one wrote.
      manifests.set(manifestId, [...current.keys()]);
    }
    return operations;
  }

  async removeEntity(urn: string): Promise<void> {
    const index = this.parts.names.graph();
    if (!(await this.parts.indices.exists(index))) return;
    // delete_by_query sees only refreshed documents: make the latest edges visible first.
    await this.parts.client.indices.refresh({ index });
    await this.parts.client.deleteByQuery({
      index,
      conflicts: 'proceed',
      refresh: this.parts.refresh !== 'false',
      body: {
        query: {
          bool: {
            should: [{ term: { source: urn } }, { term: { target: urn } }, { term: { manifestSource: urn } }],
            minimum_should_match: 1,
          },
        },
      },
    });
  }

  async related(request: RelatedRequest): Promise<RelatedResponse> {
    const index = this.parts.names.graph();
    const [own, other] = request.direction === 'OUTGOING' ? ['source', 'target'] : ['target', 'source'];
    const filter: Query[] = [{ term: { [own]: request.urn } }];
    if (request.types.length > 0) filter.push({ terms: { relationship: [...request.types] } });
    const pairs: { entity: string; type: string }[] = [];
    let after: Record<string, unknown> | undefined;
    for (;;) {
      const response = await this.parts.client.search({
        index,
        ignore_unavailable: true,
        body: {
          size: 0,
          query: { bool: { filter } },
          aggregations: { pairs: pairsAggregation(other, after) },
        },
      });
      const aggregation = aggregationsOf(response.body)['pairs'];
      if (aggregation === undefined) break;
      const buckets = bucketsOf(aggregation, 'related pairs');
      for (const bucket of buckets) {
        const key = asObject(bucket['key'], 'pair key');
        pairs.push({ entity: asString(key['entity'], 'entity'), type: asString(key['type'], 'type') });
      }
      const afterKey = asObject(aggregation, 'pairs')['after_key'];
      if (buckets.length < PAIRS_PER_ROUND || !isObject(afterKey)) break;
      after = afterKey;
    }
    const page = pairs.slice(request.start, request.start + request.count);
    const created = await relatedCreated(this.parts.client, index, filter, other, page);
    return {
      total: pairs.length,
      relationships: page.map((pair, i) => {
        const stamp = created[i];
        return { type: pair.type, entity: pair.entity, ...(stamp ? { created: stamp } : {}) };
      }),
    };
  }

  /**
   * A composite aggregation over (source, relationship, target): distinct keys in byte order, resuming
   * `after` the position (an edge declared by two aspects is one key). Manifest documents have no
   * relationship and never match.
   */
  async scrollEdges(request: EdgeScrollRequest): Promise<readonly EdgeKey[]> {
    if (request.count <= 0) return [];
    const filter: Query[] = [
      request.types.length > 0
        ? { terms: { relationship: [...new Set(request.types)] } }
        : { exists: { field: 'relationship' } },
    ];
    if (request.match.length > 0)
      filter.push({
        bool: {
          should: request.match.map((m) => ({
            bool: { filter: [...sideQueries('source', m.source), ...sideQueries('target', m.target)] },
          })),
          minimum_should_match: 1,
        },
      });
    const response = await this.parts.client.search({
      index: this.parts.names.graph(),
      ignore_unavailable: true,
      body: {
        size: 0,
        query: { bool: { filter } },
        aggregations: {
          edges: {
            composite: {
              size: request.count,
              sources: [
                { source: { terms: { field: 'source' } } },
                { relationship: { terms: { field: 'relationship' } } },
                { target: { terms: { field: 'target' } } },
              ],
              ...(request.after === undefined ? {} : { after: { ...request.after } }),
            },
          } as Types.Common_Aggregations.AggregationContainer,
        },
      },
    });
    const aggregation = aggregationsOf(response.body)['edges'];
    if (aggregation === undefined) return [];
    return bucketsOf(aggregation, 'edge keys').map((bucket) => {
      const key = asObject(bucket['key'], 'edge key');
      return {
        source: asString(key['source'], 'source'),
        relationship: asString(key['relationship'], 'relationship'),
        target: asString(key['target'], 'target'),
      };
    });
  }

  async refresh(): Promise<void> {
    await this.parts.client.indices.refresh({ index: this.parts.names.graph(), ignore_unavailable: true });
  }

  async close(): Promise<void> {
    // The client is shared; openOpenSearch's close() ends it.
  }

  /** The edge ids each manifest lists (read by id: real-time, refreshed or not); absent ones are left out. */
  private async manifestEdges(manifestIds: readonly string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    for (let at = 0; at < manifestIds.length; at += MANIFESTS_PER_MGET) {
      const ids = manifestIds.slice(at, at + MANIFESTS_PER_MGET);
      const response = await this.parts.client.mget(
        { index: this.parts.names.graph(), body: { ids } },
        { ignore: [404] },
      );
      if (response.statusCode === 404) continue;
      const docs = asArray(asObject(response.body, 'mget manifests')['docs'], 'mget docs');
      for (const item of docs) {
        const doc = asObject(item, 'manifest');
        if (doc['found'] !== true) continue;
        const edges = asObject(asObject(doc['_source'], 'manifest')['manifestEdges'], 'manifestEdges');
        out.set(
          asString(doc['_id'], 'manifest id'),
          asArray(edges['ids'], 'manifest ids').map((id) => asString(id, 'manifest id')),
        );
      }
    }
    return out;
  }
}

function edgeDocument(edge: Edge): Record<string, unknown> {
  return {
    source: edge.source,
    relationship: edge.relationship,
    target: edge.target,
    aspect: edge.aspect,
    ...(edge.createdAt !== undefined ? { createdOn: edge.createdAt } : {}),
    ...(edge.createdActor !== undefined ? { createdActor: edge.createdActor } : {}),
  };
}

/** The queries an edge scroll's filter of one endpoint makes (an empty list matches nothing). */
function sideQueries(field: 'source' | 'target', filter: EdgeEndpointFilter | undefined): Query[] {
  const out: Query[] = [];
  if (filter?.urns !== undefined) out.push({ terms: { [field]: [...filter.urns] } });
  if (filter?.entityTypes !== undefined)
    out.push({
      bool: {
        should: filter.entityTypes.map((t) => ({ prefix: { [field]: `urn:li:${t}:` } })),
        minimum_should_match: 1,
      },
    });
  return out;
}

/** Distinct (entity, type) pairs ordered by entity then type, a round at a time. */
function pairsAggregation(
  entityField: string,
  after: Record<string, unknown> | undefined,
): Types.Common_Aggregations.AggregationContainer {
  return {
    composite: {
      size: PAIRS_PER_ROUND,
      sources: [
        { entity: { terms: { field: entityField } } },
        { type: { terms: { field: 'relationship' } } },
      ],
      ...(after ? { after } : {}),
    },
  } as Types.Common_Aggregations.AggregationContainer;
}
