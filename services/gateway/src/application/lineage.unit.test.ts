import { describe, expect, it } from 'vitest';
import type { AuthorizationRequest, RequestContext } from '@catalog/auth';
import { entityRegistry, ValidationError } from '@catalog/model';
import {
  edgesFor,
  type Edge,
  type GraphIndex,
  type RelatedRequest,
  type SearchIndex,
  type SearchRequest,
} from '@catalog/search';
import type { AspectStore, StoredAspect } from '@catalog/store';
import type { GatewayAuth } from '../auth/gateway-auth.js';
import { AccessPolicy } from './access-policy.js';
import { EntitySearch } from './entity-search.js';
import { Lineage, type LineageCountRequest, type LineageSearchRequest } from './lineage.js';

type Json = Record<string, unknown>;
const dataset = (name: string, platform = 'mysql') =>
  `urn:li:dataset:(urn:li:dataPlatform:${platform},${name},PROD)`;
const field = (parent: string, path: string) => `urn:li:schemaField:(${parent},${path})`;
const FLOW = 'urn:li:dataFlow:(airflow,flow,PROD)';
const job = (id: string) => `urn:li:dataJob:(${FLOW},${id})`;

/** Aspects by urn and name; the graph holds the edges their relationship annotations declare. */
class World {
  readonly aspects = new Map<string, Map<string, Json>>();
  /** Urns the search index holds (entities with aspects of their own). */
  readonly indexed = new Set<string>();

  put(urn: string, aspect: string, value: Json): this {
    const of = this.aspects.get(urn) ?? new Map<string, Json>();
    of.set(aspect, value);
    this.aspects.set(urn, of);
    this.indexed.add(urn);
    return this;
  }

  edges(): Edge[] {
    const out: Edge[] = [];
    for (const [urn, of] of this.aspects) {
      const entity = entityRegistry.requireEntity(urn.split(':')[2] ?? '');
      for (const [name, value] of of) out.push(...edgesFor(entity, urn, name, value));
    }
    return out;
  }

  graph(): GraphIndex {
    return {
      related: async (request: RelatedRequest) => {
        const out = request.direction === 'OUTGOING';
        const found = this.edges().filter(
          (e) =>
            (out ? e.source : e.target) === request.urn &&
            (request.types.length === 0 || request.types.includes(e.relationship)),
        );
        const relationships = found.map((e) => ({ type: e.relationship, entity: out ? e.target : e.source }));
        return { total: relationships.length, relationships };
      },
    } as unknown as GraphIndex;
  }

  store(): AspectStore {
    const stored = (urn: string, aspect: string, value: Json): StoredAspect => ({
      urn,
      aspect,
      version: 0,
      value,
      systemMetadata: null,
      created: { time: 1, actor: 'urn:li:corpuser:datahub' },
    });
    return {
      getLatestMany: async (urns: readonly string[], names?: readonly string[]) => {
        const out = new Map<string, StoredAspect[]>();
        for (const urn of urns) {
          const of = [...(this.aspects.get(urn) ?? new Map<string, Json>())]
            .filter(([n]) => names === undefined || names.includes(n))
            .map(([n, v]) => stored(urn, n, v));
          if (of.length > 0) out.set(urn, of);
        }
        return out;
      },
    } as unknown as AspectStore;
  }

  /** A search index answering the urn filter (every conjunction carries one) with the indexed urns. */
  index(asked: SearchRequest[] = []): SearchIndex {
    return {
      search: async (request: SearchRequest) => {
        asked.push(request);
        const urns = new Set(
          (request.filter?.or ?? []).flatMap((c) =>
            c.and.filter((x) => x.field === 'urn').flatMap((x) => x.values),
          ),
        );
        const hits = [...urns]
          .filter((u) => this.indexed.has(u) && request.entityTypes.includes(u.split(':')[2] ?? ''))
          .sort()
          .map((urn) => ({
            urn,
            entityType: urn.split(':')[2] ?? '',
            score: 1,
            matchedFields: [],
            sortValues: [urn],
          }));
        return {
          total: hits.length,
          hits: hits.slice(request.start, request.start + request.count),
          aggregations: [],
        };
      },
    } as unknown as SearchIndex;
  }

  lineage(hidden: readonly string[] = [], asked: SearchRequest[] = []): Lineage {
    const auth = {
      settings: { restApiAuthorization: true },
      authorizer: {
        isAllowed: async (request: AuthorizationRequest) => !hidden.includes(request.resourceUrn ?? ''),
      },
    } as unknown as GatewayAuth;
    const policy = new AccessPolicy(auth);
    return new Lineage(this.graph(), new EntitySearch(this.index(asked), policy), policy, this.store());
  }
}

const ctx: RequestContext = {
  authentication: {
    actorUrn: 'urn:li:corpuser:jdoe',
    actorId: 'jdoe',
    method: 'session-token',
    isSystem: false,
  },
  origin: { sourceIp: '127.0.0.1', userAgent: 'test', eventSource: 'GRAPHQL', traceId: '0'.repeat(32) },
};

const schema = (...paths: string[]): Json => ({
  schemaName: 's',
  platform: 'urn:li:dataPlatform:mysql',
  version: 0,
  hash: '',
  platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
  fields: paths.map((fieldPath) => ({
    fieldPath,
    nativeDataType: 'string',
    type: { type: { 'com.linkedin.schema.StringType': {} } },
  })),
});

const ALL_TYPES = ['dataset', 'dataJob', 'schemaField', 'query'];

function search(urn: string, direction: 'UPSTREAM' | 'DOWNSTREAM', more: Partial<LineageSearchRequest> = {}) {
  return {
    urn,
    direction,
    entityTypes: ALL_TYPES,
    query: '*',
    filter: { or: [] },
    start: 0,
    count: 100,
    ...more,
  } satisfies LineageSearchRequest;
}

const degreeFilter = (...values: string[]) => ({
  or: [{ and: [{ field: 'degree', values, condition: 'EQUAL' as const }] }],
});

/** a -[q1]-> b -[q2]-> c at the table level, and a.x -[q1]-> b.y -[q2]-> c.z at the column level. */
function queryChain(): { world: World; a: string; b: string; c: string } {
  const [a, b, c] = [dataset('a'), dataset('b'), dataset('c')];
  const world = new World()
    .put(a, 'schemaMetadata', schema('x'))
    .put(b, 'schemaMetadata', schema('y'))
    .put(c, 'schemaMetadata', schema('z'))
    .put('urn:li:query:q1', 'queryProperties', { statement: { value: 'select' } })
    .put('urn:li:query:q2', 'queryProperties', { statement: { value: 'select' } });
  const lineage = (down: string, up: string, from: string, to: string, query: string) =>
    world.put(down, 'upstreamLineage', {
      upstreams: [{ dataset: up, type: 'TRANSFORMED', query }],
      fineGrainedLineages: [
        {
          upstreamType: 'FIELD_SET',
          upstreams: [field(up, from)],
          downstreamType: 'FIELD',
          downstreams: [field(down, to)],
          query,
        },
      ],
    });
  lineage(b, a, 'x', 'y', 'urn:li:query:q1');
  lineage(c, b, 'y', 'z', 'urn:li:query:q2');
  return { world, a, b, c };
}

describe('lineage search', () => {
  it('gives each entity its hop count and the path to it through the queries its edges went through; queries are not results', async () => {
    const { world, a, b, c } = queryChain();
    const page = await world.lineage().searchAcross(ctx, search(c, 'UPSTREAM'));
    expect(page.hits.map((h) => [h.urn, h.degree, h.paths])).toEqual([
      [a, 2, [[c, 'urn:li:query:q2', b, 'urn:li:query:q1', a]]],
      [b, 1, [[c, 'urn:li:query:q2', b]]],
    ]);
  });

  it('follows column lineage from a schema field and shows the fields as their datasets, with the column paths', async () => {
    const { world, a, b, c } = queryChain();
    const page = await world.lineage().searchAcross(ctx, search(field(a, 'x'), 'DOWNSTREAM'));
    expect(page.hits.map((h) => [h.urn, h.degree, h.paths])).toEqual([
      [b, 1, [[field(a, 'x'), 'urn:li:query:q1', field(b, 'y')]]],
      [c, 2, [[field(a, 'x'), 'urn:li:query:q1', field(b, 'y'), 'urn:li:query:q2', field(c, 'z')]]],
    ]);
  });

  it('does not take the dataset-to-column edge of column lineage for table lineage', async () => {
    const { world, b, c } = queryChain();
    const page = await world
      .lineage()
      .searchAcross(ctx, search(c, 'UPSTREAM', { filter: degreeFilter('1') }));
    // The fine-grained annotation makes c DownstreamOf b.y in the graph: not a lineage edge of c.
    expect(page.hits.map((h) => [h.urn, h.paths.length])).toEqual([[b, 1]]);
  });

  it('shows a job a column edge went through as reached at that hop, with the path up to it', async () => {
    const [input, output] = [dataset('in'), dataset('out')];
    const world = new World()
      .put(input, 'schemaMetadata', schema('c'))
      .put(output, 'schemaMetadata', schema('c'))
      .put(job('j'), 'dataJobInfo', { name: 'j', type: 'AIRFLOW' })
      .put(job('j'), 'dataJobInputOutput', {
        inputDatasets: [input],
        outputDatasets: [output],
        fineGrainedLineages: [
          {
            upstreamType: 'FIELD_SET',
            upstreams: [field(input, 'c')],
            downstreamType: 'FIELD',
            downstreams: [field(output, 'c')],
          },
        ],
      });
    const columns = await world.lineage().searchAcross(ctx, search(field(output, 'c'), 'UPSTREAM'));
    expect(columns.hits.map((h) => [h.urn, h.degree, h.paths])).toEqual([
      [job('j'), 1, [[field(output, 'c'), job('j')]]],
      [input, 1, [[field(output, 'c'), job('j'), field(input, 'c')]]],
    ]);
    const tables = await world.lineage().searchAcross(ctx, search(output, 'UPSTREAM'));
    expect(tables.hits.map((h) => [h.urn, h.degree])).toEqual([
      [job('j'), 1],
      [input, 2],
    ]);
  });

  it('walks as deep as the degree filter asks and shows only the degrees asked for', async () => {
    const { world, a, b, c } = queryChain();
    const asked: SearchRequest[] = [];
    const lineage = world.lineage([], asked);
    const one = await lineage.searchAcross(ctx, search(c, 'UPSTREAM', { filter: degreeFilter('1') }));
    expect(one.hits.map((h) => h.urn)).toEqual([b]);
    expect(one.hits[0]?.explored).toBe(false);
    // The degree criterion is answered by the walk, not sent to the index.
    expect(asked.at(-1)?.filter?.or.flatMap((x) => x.and.map((y) => y.field))).toEqual(['urn']);
    const two = await lineage.searchAcross(ctx, search(c, 'UPSTREAM', { filter: degreeFilter('2') }));
    expect(two.hits.map((h) => h.urn)).toEqual([a]);
    const all = await lineage.searchAcross(
      ctx,
      search(c, 'UPSTREAM', { filter: degreeFilter('1', '2', '3+') }),
    );
    expect(all.hits.map((h) => h.urn)).toEqual([a, b]);
    await expect(
      lineage.searchAcross(ctx, search(c, 'UPSTREAM', { filter: degreeFilter('3') })),
    ).rejects.toThrow(ValidationError);
  });

  it('walks through the entity types of ignoreAsHops without counting a hop', async () => {
    const [src, dbt, tgt] = [
      dataset('src', 'snowflake'),
      dataset('model', 'dbt'),
      dataset('tgt', 'snowflake'),
    ];
    const world = new World()
      .put(dbt, 'upstreamLineage', { upstreams: [{ dataset: src, type: 'TRANSFORMED' }] })
      .put(tgt, 'upstreamLineage', { upstreams: [{ dataset: dbt, type: 'TRANSFORMED' }] })
      .put(src, 'schemaMetadata', schema('c'));
    const page = await world.lineage().searchAcross(
      ctx,
      search(tgt, 'UPSTREAM', {
        filter: degreeFilter('1'),
        lineageFlags: { ignoreAsHops: [{ entityType: 'dataset', platforms: ['urn:li:dataPlatform:dbt'] }] },
      }),
    );
    expect(page.hits.map((h) => [h.urn, h.degree, h.ignoredAsHop])).toEqual([
      [dbt, 1, true],
      [src, 1, false],
    ]);
  });

  it('leaves an entity the actor may not read out of the results and the paths, and walks through it', async () => {
    const { world, a, b, c } = queryChain();
    const page = await world.lineage([b]).searchAcross(ctx, search(c, 'UPSTREAM'));
    expect(page.hits.map((h) => [h.urn, h.paths])).toEqual([
      [a, [[c, 'urn:li:query:q2', 'urn:li:query:q1', a]]],
    ]);
  });

  it('shows nothing from an entity the actor may not read', async () => {
    const { world, c } = queryChain();
    const page = await world.lineage([c]).searchAcross(ctx, search(c, 'UPSTREAM'));
    expect(page.hits).toEqual([]);
  });
});

describe('one-hop lineage of an entity', () => {
  it('gives a column its column lineage with the path through the query, and leaves out what the actor may not read', async () => {
    const { world, a, b } = queryChain();
    const found = await world.lineage().neighbours(ctx, field(b, 'y'), 'UPSTREAM', { start: 0, count: 10 });
    expect(found.relationships).toEqual([
      {
        type: 'DownstreamOf',
        entity: field(a, 'x'),
        path: [field(b, 'y'), 'urn:li:query:q1', field(a, 'x')],
      },
    ]);
    const hidden = await world
      .lineage(['urn:li:query:q1'])
      .neighbours(ctx, field(b, 'y'), 'UPSTREAM', { start: 0, count: 10 });
    expect(hidden.relationships.map((r) => r.path)).toEqual([[field(b, 'y'), field(a, 'x')]]);
    const tables = await world.lineage([a]).neighbours(ctx, b, 'UPSTREAM', { start: 0, count: 10 });
    expect(tables).toEqual({ total: 0, relationships: [] });
  });
});

describe('lineage counts', () => {
  /** d.col's upstreams: u.kept (materialized), u.declared (in u's schema only), u.gone (only an edge), v.declared (parent never written). */
  function counts() {
    const [u, v, d, sibling] = [dataset('u'), dataset('v'), dataset('d'), dataset('s', 'dbt')];
    const fine = (up: string, down: string) => ({
      upstreamType: 'FIELD_SET',
      upstreams: [up],
      downstreamType: 'FIELD',
      downstreams: [down],
    });
    const world = new World()
      .put(u, 'schemaMetadata', schema('kept', 'declared'))
      .put(sibling, 'schemaMetadata', schema('declared'))
      .put(d, 'schemaMetadata', schema('col', 'other', 'both'))
      .put(field(u, 'kept'), 'documentation', { documentations: [{ documentation: 'kept' }] })
      .put(d, 'upstreamLineage', {
        upstreams: [{ dataset: u, type: 'TRANSFORMED' }],
        fineGrainedLineages: [
          fine(field(u, 'kept'), field(d, 'col')),
          fine(field(u, 'declared'), field(d, 'col')),
          fine(field(u, 'gone'), field(d, 'col')),
          fine(field(v, 'declared'), field(d, 'other')),
          fine(field(u, 'declared'), field(d, 'both')),
          fine(field(sibling, 'declared'), field(d, 'both')),
        ],
      });
    const count = (urn: string, more: Partial<LineageCountRequest> = {}) =>
      world.lineage().countAcross(ctx, {
        urn,
        direction: 'UPSTREAM',
        entityTypes: ['schemaField'],
        filter: { or: [] },
        includeGhostEntities: true,
        validateSchemaFields: 'NONE',
        ...more,
      });
    return { u, v, d, sibling, count };
  }

  it('counts off the graph every column an edge reaches, or only those their parent still declares', async () => {
    const { d, count } = counts();
    expect(await count(field(d, 'col'))).toBe(3);
    expect(await count(field(d, 'col'), { validateSchemaFields: 'ALWAYS' })).toBe(2);
    expect(await count(field(d, 'other'))).toBe(1);
    expect(await count(field(d, 'other'), { validateSchemaFields: 'ALWAYS' })).toBe(0);
  });

  it('counts only what the index holds without ghost entities', async () => {
    const { d, count } = counts();
    expect(await count(field(d, 'col'), { includeGhostEntities: false })).toBe(1);
    expect(await count(field(d, 'both'), { includeGhostEntities: false })).toBe(0);
  });

  it('filters a count off the graph on what the urn holds, and refuses any other field', async () => {
    const { d, sibling, count } = counts();
    const on = (fieldName: string, values: string[], negated = false, condition = 'EQUAL' as const) => ({
      or: [{ and: [{ field: fieldName, values, condition, negated }] }],
    });
    expect(await count(field(d, 'both'))).toBe(2);
    expect(await count(field(d, 'both'), { filter: on('parent', [sibling], true) })).toBe(1);
    expect(await count(field(d, 'both'), { filter: on('parent', [sibling]) })).toBe(1);
    expect(await count(field(d, 'both'), { filter: on('platform', ['urn:li:dataPlatform:dbt']) })).toBe(1);
    expect(await count(field(d, 'both'), { filter: on('platform', ['urn:li:dataPlatform:bigquery']) })).toBe(
      0,
    );
    await expect(
      count(field(d, 'both'), {
        filter: { or: [{ and: [{ field: 'description', values: ['x'], condition: 'CONTAIN' }] }] },
      }),
    ).rejects.toThrow(/cannot filter on "description"/);
  });
});
